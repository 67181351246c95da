// Command yaml-oracle is clusterwire's differential oracle for YAML text: it
// reads a JSON array of YAML texts on stdin and writes, for each, what the Go
// libraries the API server and kubectl use make of it. Each text is read as a
// stream of documents with go-yaml v2's Decoder (as clusterwire's fromYaml
// reads every document); each non-null document is passed through
// sigs.k8s.io/yaml YAMLToJSON. The output is a JSON array of
// {"json": ["<YAMLToJSON output>", ...]} or {"error": "<message>"}.
//
// With -lines it runs in batch mode instead (see batch.go).
//
// Build it against Debian's packages, offline (see scripts/yaml-golden.mjs):
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go run ./scripts/yaml-oracle
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	yamlv2 "gopkg.in/yaml.v2"
	sigsyaml "sigs.k8s.io/yaml"
)

// answer is {"json": [...]} or {"error": "..."}, never both.
type answer map[string]interface{}

func convert(text string) answer {
	docs := []string{}
	dec := yamlv2.NewDecoder(bytes.NewReader([]byte(text)))
	for {
		var v interface{}
		err := dec.Decode(&v)
		if err == io.EOF {
			break
		}
		if err != nil {
			return answer{"error": err.Error()}
		}
		if v == nil {
			continue // empty and null documents, as clusterwire skips them
		}
		// go-yaml's own emitter writes the decoded value back (it round-trips
		// every value go-yaml decodes), so that YAMLToJSON sees one document.
		y, err := yamlv2.Marshal(v)
		if err != nil {
			return answer{"error": "marshal: " + err.Error()}
		}
		j, err := sigsyaml.YAMLToJSON(y)
		if err != nil {
			return answer{"error": err.Error()}
		}
		docs = append(docs, string(j))
	}
	return answer{"json": docs}
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-lines" {
		runLines()
		return
	}
	in, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "yaml-oracle:", err)
		os.Exit(1)
	}
	var texts []string
	if err := json.Unmarshal(in, &texts); err != nil {
		fmt.Fprintln(os.Stderr, "yaml-oracle: stdin must be a JSON array of strings:", err)
		os.Exit(1)
	}
	out := make([]answer, len(texts))
	for i, t := range texts {
		out[i] = convert(t)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, "yaml-oracle:", err)
		os.Exit(1)
	}
}
