// networking/text/yaml-parse.ts reads a YAML !!binary value with Node's Buffer,
// which the browser lacks (the browser-safety audit of issue 16 replaces it).
// Until then this lets the playground's DOM-only check compile; the playground's
// own code must not use Buffer. Delete this file when yaml-parse.ts no longer names it.
declare const Buffer: { from(text: string, encoding: "base64"): Uint8Array };
