package main

// Batch mode (-lines): one JSON string a line on stdin, one JSON answer a line
// on stdout, in order, for a whole campaign in one process. Each text is first
// split into documents by kubectlSplit (kubectl's reading of a manifest file),
// then every document goes through sigs.k8s.io/yaml YAMLToJSON and
// YAMLToJSONStrict, as the API server reads a request body.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	sigsyaml "sigs.k8s.io/yaml"
)

// docAnswer is what the libraries make of one document.
type docAnswer struct {
	Text        string  `json:"text"`
	JSON        *string `json:"json,omitempty"`
	Error       *string `json:"error,omitempty"`
	StrictError *string `json:"strictError,omitempty"`
}

// batchAnswer is the answer for one input text.
type batchAnswer struct {
	Docs       []docAnswer `json:"docs"`
	SplitError *string     `json:"splitError,omitempty"`
}

// kubectlSplit splits a stream into documents as k8s.io/apimachinery's
// pkg/util/yaml YAMLReader does (kubectl apply -f). That package is not in
// Debian, so this is our own code following its observable rule:
//   - the input is read line by line (bufio.Reader.ReadLine, so "\n" or
//     "\r\n" ends a line; a lone "\r" does not), and every line, the last one
//     included, is given back with a single "\n" appended;
//   - a line that begins with "---" is a separator when what follows it,
//     with surrounding Unicode whitespace trimmed, is empty or starts with
//     "#"; anything else after "---" is the error
//     "invalid Yaml document separator: <rest>";
//   - a separator ends the current document if it is not empty; the separator
//     line itself belongs to no document; an empty document is not returned.
func kubectlSplit(text string) ([]string, error) {
	r := bufio.NewReader(strings.NewReader(text))
	docs := []string{}
	var buf bytes.Buffer
	for {
		var line bytes.Buffer
		var err error
		for {
			part, isPrefix, e := r.ReadLine()
			line.Write(part)
			if e != nil {
				err = e
				break
			}
			if !isPrefix {
				break
			}
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		line.WriteByte('\n')
		b := line.Bytes()
		if bytes.HasPrefix(b, []byte("---")) {
			rest := strings.TrimSpace(string(b[3:]))
			if rest != "" && rest[0] != '#' {
				return nil, fmt.Errorf("invalid Yaml document separator: %s", rest)
			}
			if buf.Len() != 0 {
				docs = append(docs, buf.String())
				buf.Reset()
			}
			if errors.Is(err, io.EOF) {
				return docs, nil
			}
			continue
		}
		if errors.Is(err, io.EOF) {
			if buf.Len() != 0 {
				docs = append(docs, buf.String())
			}
			return docs, nil
		}
		buf.Write(b)
	}
}

func str(s string) *string { return &s }

func answerBatch(text string) batchAnswer {
	docs, err := kubectlSplit(text)
	if err != nil {
		return batchAnswer{Docs: []docAnswer{}, SplitError: str(err.Error())}
	}
	out := make([]docAnswer, 0, len(docs))
	for _, d := range docs {
		a := docAnswer{Text: d}
		if j, err := sigsyaml.YAMLToJSON([]byte(d)); err != nil {
			a.Error = str(err.Error())
		} else {
			a.JSON = str(string(j))
		}
		if _, err := sigsyaml.YAMLToJSONStrict([]byte(d)); err != nil {
			a.StrictError = str(err.Error())
		}
		out = append(out, a)
	}
	return batchAnswer{Docs: out}
}

// runLines answers one JSON string per input line until stdin ends.
func runLines() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	w := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for in.Scan() {
		var text string
		if err := json.Unmarshal(in.Bytes(), &text); err != nil {
			fmt.Fprintln(os.Stderr, "yaml-oracle: each stdin line must be a JSON string:", err)
			os.Exit(1)
		}
		if err := enc.Encode(answerBatch(text)); err != nil {
			fmt.Fprintln(os.Stderr, "yaml-oracle:", err)
			os.Exit(1)
		}
		// One answer per line, flushed, so a driver can stream batches.
		if err := w.Flush(); err != nil {
			os.Exit(1)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "yaml-oracle:", err)
		os.Exit(1)
	}
}
