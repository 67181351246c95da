// Command yaml-oracle is clusterwire's differential oracle for YAML text: for
// each text it says what the Go code that kubectl and kube-apiserver link
// makes of it. It is built in module mode against the exact modules a
// Kubernetes release pins (go.mod here: v1.35.4; v1.37.2.mod for v1.37.2),
// so its answers are those of the released binaries, not of a re-implementation.
//
// Protocol: one JSON string a line on stdin, one JSON answer a line on stdout,
// in order and flushed line by line, so that one process serves a whole
// campaign and a driver can stream batches (batch.go says what an answer holds).
//
//	yaml-oracle            answer texts until stdin ends
//	yaml-oracle -version   print the Go version and the YAML modules linked, one line
//
// The driver is bench/yaml-differential/oracle.ts; scripts/yaml-golden.mjs
// builds it with `go build` in module mode (GOFLAGS=-mod=readonly).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
)

// yamlModules are the modules whose code decides an answer; -version names
// the version of each that was linked, so golden files record them.
var yamlModules = []string{"k8s.io/apimachinery", "sigs.k8s.io/yaml", "go.yaml.in/yaml/v2"}

func version() string {
	parts := []string{runtime.Version()}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return parts[0] + " (no build information)"
	}
	for _, path := range yamlModules {
		for _, dep := range info.Deps {
			if dep.Path != path {
				continue
			}
			// A replaced module runs the replacement's code: name that.
			if dep.Replace != nil {
				dep = dep.Replace
			}
			parts = append(parts, dep.Path+" "+dep.Version)
		}
	}
	return strings.Join(parts, ", ")
}

func main() {
	switch {
	case len(os.Args) == 2 && os.Args[1] == "-version":
		fmt.Println(version())
		return
	case len(os.Args) > 1:
		fmt.Fprintln(os.Stderr, "usage: yaml-oracle [-version] (texts as JSON strings on stdin, one a line)")
		os.Exit(2)
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	w := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(w)
	// Answers carry YAML and JSON text verbatim: no HTML escaping of <, > and &.
	enc.SetEscapeHTML(false)
	for in.Scan() {
		var text string
		if err := json.Unmarshal(in.Bytes(), &text); err != nil {
			fmt.Fprintln(os.Stderr, "yaml-oracle: each stdin line must be a JSON string:", err)
			os.Exit(1)
		}
		if err := enc.Encode(answer(text)); err != nil {
			fmt.Fprintln(os.Stderr, "yaml-oracle:", err)
			os.Exit(1)
		}
		if err := w.Flush(); err != nil {
			os.Exit(1)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "yaml-oracle:", err)
		os.Exit(1)
	}
}
