package main

// Keys that collide only in sigs.k8s.io/yaml. go-yaml v2 decodes a mapping
// into map[interface{}]interface{}, where 1 (int), 1.0 (float64), "1"
// (string) are three keys, and a key repeated with an equal value is
// already resolved by go-yaml itself (the later one replaces the earlier,
// deterministically). sigs.k8s.io/yaml then turns every key into a string
// while ranging over that Go map, so two keys that become the same string
// leave whichever value Go's randomised iteration visited last. We find
// such pairs by decoding the text the same way and writing each key as
// sigs.k8s.io/yaml writes it (its convertToJSONableObject, read for the rule;
// the same in 1.3.0 and 1.6.0).

import (
	"reflect"
	"sort"
	"strconv"

	// The go-yaml v2 that sigs.k8s.io/yaml itself imports, at the version
	// go.mod pins: the decoding whose keys collide.
	yaml "go.yaml.in/yaml/v2"
)

// jsonKey is the JSON object key sigs.k8s.io/yaml writes for a go-yaml map
// key; ok is false for key types it refuses (those answers are errors).
func jsonKey(k interface{}) (string, bool) {
	switch v := k.(type) {
	case string:
		return v, true
	case int:
		return strconv.Itoa(v), true
	case int64:
		return strconv.FormatInt(v, 10), true
	case float64:
		// Shortest digits of the value narrowed to float32, and YAML's
		// spellings of the non-finite ones.
		s := strconv.FormatFloat(v, 'g', -1, 32)
		switch s {
		case "+Inf":
			return ".inf", true
		case "-Inf":
			return "-.inf", true
		case "NaN":
			return ".nan", true
		}
		return s, true
	case bool:
		if v {
			return "true", true
		}
		return "false", true
	}
	return "", false
}

// ambiguousKeys decodes a document as YAMLToJSON does and gives the first
// (in sorted order, so the answer is stable) JSON key that two distinct
// go-yaml keys of one mapping, with unequal values, would both become, or
// nil when there is none.
// The walk keeps its own stack, so its depth costs no Go stack, and it
// visits each decoded node once, as sigs.k8s.io/yaml's conversion does.
func ambiguousKeys(doc []byte) *string {
	var root interface{}
	if err := yaml.Unmarshal(doc, &root); err != nil {
		return nil
	}
	var found []string
	stack := []interface{}{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch v := n.(type) {
		case map[interface{}]interface{}:
			// The first value seen under each JSON key. Colliding keys
			// with deeply equal values give one answer whichever wins, so
			// only unequal ones make the text ambiguous.
			seen := make(map[string]interface{}, len(v))
			for k, child := range v {
				if s, ok := jsonKey(k); ok {
					if first, dup := seen[s]; dup && !reflect.DeepEqual(first, child) {
						found = append(found, s)
					} else if !dup {
						seen[s] = child
					}
				}
				stack = append(stack, child)
			}
		case []interface{}:
			stack = append(stack, v...)
		}
	}
	if len(found) == 0 {
		return nil
	}
	sort.Strings(found)
	return &found[0]
}
