package main

// What one answer holds. Each text is read the ways kubectl and the API server
// read it, each through the upstream code itself:
//   - docs: kubectl's reading of a YAML manifest file: the stream cut into
//     pieces by apimachinery's YAMLReader (the reader under kubectl's
//     YAMLOrJSONDecoder), then every piece through sigs.k8s.io/yaml YAMLToJSON
//     and YAMLToJSONStrict;
//   - body: the API server's reading of a YAML request body: the whole raw
//     text, unsplit, through YAMLToJSON and YAMLToJSONStrict (go-yaml reads its
//     first YAML document only);
//   - jsonStream, only for a text whose first non-space byte (in the first
//     4,096, the buffer kubectl's resource builder gives it) is `{`: what
//     kubectl's YAMLOrJSONDecoder then hands on, value by value. It decodes
//     such a text as JSON, and switches to YAML only when the JSON decoder
//     fails before it has decoded two values. clusterwire's fromYaml reads
//     every text as YAML; the campaign counts these texts apart.
//
// An answer whose JSON came out of a map with two keys that go-yaml keeps
// apart but sigs.k8s.io/yaml writes as one JSON key (ambiguous.go) says so
// in ambiguousKeys: which value won depends on Go's random map order, so no
// fixed answer exists for it.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	sigsyaml "sigs.k8s.io/yaml"
)

// kubectlSniffBuffer is the size kubectl's StreamVisitor (k8s.io/cli-runtime
// pkg/resource) passes to NewYAMLOrJSONDecoder: how far it looks for a `{`.
const kubectlSniffBuffer = 4096

// docAnswer is what the libraries make of one piece of kubectl's reading.
type docAnswer struct {
	Text          string  `json:"text"`
	JSON          *string `json:"json,omitempty"`
	Error         *string `json:"error,omitempty"`
	StrictError   *string `json:"strictError,omitempty"`
	AmbiguousKeys *string `json:"ambiguousKeys,omitempty"`
}

// bodyAnswer is what the libraries make of the whole text as one request body.
type bodyAnswer struct {
	JSON          *string `json:"json,omitempty"`
	Error         *string `json:"error,omitempty"`
	StrictError   *string `json:"strictError,omitempty"`
	AmbiguousKeys *string `json:"ambiguousKeys,omitempty"`
}

// jsonStreamAnswer is what kubectl's YAMLOrJSONDecoder decodes from a text it
// takes for JSON: each value's bytes, trimmed, with empty and `null` values
// left out as kubectl leaves them out, up to the first error.
type jsonStreamAnswer struct {
	Values []string `json:"values"`
	Error  *string  `json:"error,omitempty"`
}

// batchAnswer is the answer for one input text.
type batchAnswer struct {
	Docs       []docAnswer       `json:"docs"`
	SplitError *string           `json:"splitError,omitempty"`
	Body       bodyAnswer        `json:"body"`
	JSONStream *jsonStreamAnswer `json:"jsonStream,omitempty"`
}

func str(s string) *string { return &s }

// yamlPieces cuts a stream as kubectl does, with apimachinery's own reader.
// A separator line it refuses fails the whole text: kubectl stops there.
func yamlPieces(text string) ([]string, error) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(strings.NewReader(text)))
	pieces := []string{}
	for {
		piece, err := r.Read()
		if errors.Is(err, io.EOF) {
			return pieces, nil
		}
		if err != nil {
			return nil, err
		}
		pieces = append(pieces, string(piece))
	}
}

// kubectlJSONStream decodes a text as kubectl's StreamVisitor does, into raw
// JSON values, or returns nil when kubectl would not take the text for JSON.
func kubectlJSONStream(text string) *jsonStreamAnswer {
	if _, _, isJSON := utilyaml.GuessJSONStream(strings.NewReader(text), kubectlSniffBuffer); !isJSON {
		return nil
	}
	out := &jsonStreamAnswer{Values: []string{}}
	d := utilyaml.NewYAMLOrJSONDecoder(strings.NewReader(text), kubectlSniffBuffer)
	for {
		var raw json.RawMessage
		err := d.Decode(&raw)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			out.Error = str(err.Error())
			return out
		}
		v := bytes.TrimSpace(raw)
		if len(v) == 0 || bytes.Equal(v, []byte("null")) {
			continue
		}
		out.Values = append(out.Values, string(v))
	}
}

// answerBody reads the raw text as the API server reads a YAML request body.
func answerBody(text string) bodyAnswer {
	var b bodyAnswer
	if j, err := sigsyaml.YAMLToJSON([]byte(text)); err != nil {
		b.Error = str(err.Error())
	} else {
		b.JSON = str(string(j))
		b.AmbiguousKeys = ambiguousKeys([]byte(text))
	}
	if _, err := sigsyaml.YAMLToJSONStrict([]byte(text)); err != nil {
		b.StrictError = str(err.Error())
	}
	return b
}

func answer(text string) batchAnswer {
	body := answerBody(text)
	stream := kubectlJSONStream(text)
	pieces, err := yamlPieces(text)
	if err != nil {
		return batchAnswer{Docs: []docAnswer{}, SplitError: str(err.Error()), Body: body, JSONStream: stream}
	}
	out := make([]docAnswer, 0, len(pieces))
	for _, p := range pieces {
		a := docAnswer{Text: p}
		if j, err := sigsyaml.YAMLToJSON([]byte(p)); err != nil {
			a.Error = str(err.Error())
		} else {
			a.JSON = str(string(j))
			a.AmbiguousKeys = ambiguousKeys([]byte(p))
		}
		if _, err := sigsyaml.YAMLToJSONStrict([]byte(p)); err != nil {
			a.StrictError = str(err.Error())
		}
		out = append(out, a)
	}
	return batchAnswer{Docs: out, Body: body, JSONStream: stream}
}
