// NOT PUBLIC API. The networking internals that clusterwire's own CLI (src/cli/) reads, in one
// named place. package.json's "exports" leaves this module out, so users cannot import it; its
// names may change in any release. The layer table (LAYERS in scripts/check-layers.mjs) lets
// src/cli/ import it by name and refuses it everywhere else, the playground, the testing kit and
// admission included. What users need goes into index.ts instead, documented and tested.
//
// Why each name is here rather than in index.ts:

// The YAML node tree, with each node's position: the demo's expectations file
// (cli/demo/expectations.ts) is walked node by node, so every problem names its line and column.
// The public parseYamlDocuments and locateYamlPath give values and single paths, not the tree.
export { NO_DEPTH_LIMIT, composeFirstDocument, type YamlNode } from "./text/yaml/compose.js";
export { decodeYamlNode, keyTextOf } from "./text/yaml/decode.js";
// A value already read from YAML, decoded with YAML's ordering and error wording: a policy that
// sits inside a cluster file (cli/shared/cluster-file.ts). fromYaml takes a whole text, and
// fromJson on the value would decode it (and word its errors) as JSON.
export { fromParsedYaml } from "./text/json/from-json.js";
// The exact JSON parser alone, to name the line and column of a syntax error in a JSON inventory
// (cli/storage/inventory.ts) before it is read as YAML, which accepts some bad JSON.
export { parseJsonText } from "./text/json/parse.js";
