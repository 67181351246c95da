/**
 * The minimised reproduction of every class of disagreement the YAML
 * differential found between clusterwire (its reader built on the `yaml`
 * package) and go-yaml v2 + sigs.k8s.io/yaml: the run documented in
 * docs/yaml-differential.md (`npm run yaml-oracle -- --count 100000 --seed
 * 20261126 --budget 300`, 76 classes), reproductions copied from its --out
 * file. Frozen here as inputs of the golden corpus (golden.ts), so that every
 * class stays checked once the reader agrees; what Go makes of each text is
 * in test/support/golden/yaml-differential.json, not here.
 */
export interface Reproduction {
  /** The class, `<mode>/<direction>/<normalised message or kind of difference>`. */
  readonly cls: string;
  readonly text: string;
}

export const REPRODUCTIONS: readonly Reproduction[] = [
  {
    cls: "lax/we-refuse/found-character-that-cannot-start-any-token",
    text: 'apiVersion: networking.k8s.io/v1\nkind: "NetworkPolicy"\nr:\t{}',
  },
  {
    cls: "strict/we-refuse/found-character-that-cannot-start-any-token",
    text: 'apiVersion: networking.k8s.io/v1\nkind: "NetworkPolicy"\nspec:\n podSelector:\t',
  },
  {
    cls: "lax/we-refuse/flow-map-in-block-collection-must-be-sufficiently-indented-a",
    text: "? apiVersion\n: \n networking.k8s.io/v1\nkind: NetworkPolicy\nme:\n  {f: [{potor: {abels: {app:ion}}}], ports: [{8080,\nTCP}]}",
  },
  {
    cls: "strict/we-refuse/flow-map-in-block-collection-must-be-sufficiently-indented-a",
    text: "? apiVersion\n: \n networking.k8s.io/v1\nkind: NetworkPolicy\nspec: &a1\n ingress:\n  - {from: [{podSelector: {matchLabels: {a}}}], ports: [{port: 8080,\n  protocol: TCP}]}",
  },
  {
    cls: "lax/we-accept/did-not-find-expected-alphabetic-or-numeric-character",
    text: "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nt: &+",
  },
  {
    cls: "strict/we-accept/did-not-find-expected-alphabetic-or-numeric-character",
    text: "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: &0+",
  },
  {
    cls: "lax/we-refuse/comments-must-be-separated-from-other-tokens-by-white-space",
    text: "apiVersion: networking.k8s.io/v1\nkind: 'IngressClass'\ns: |#",
  },
  {
    cls: "strict/we-refuse/comments-must-be-separated-from-other-tokens-by-white-space",
    text: "apiVersion: networking.k8s.io/v1\nkind: 'Ingress'\nmetadata:\n annotations:\n  is: |#",
  },
  {
    cls: "lax/we-refuse/flow-sequence-in-block-collection-must-be-sufficiently-inden",
    text: 'apiVersion: networking.k8s.io/v1\n"kind": "NetworkPolicy"\nma:\n   s: [ss\',\n  \'ss\']',
  },
  {
    cls: "strict/we-refuse/flow-sequence-in-block-collection-must-be-sufficiently-inden",
    text: 'apiVersion: networking.k8s.io/v1\n"kind": "NetworkPolicy"\nspec:\n  policyTypes: [\'s\',\n]\n',
  },
  {
    cls: "lax/we-accept/did-not-find-expected-document-start",
    text: '%YAML 1.1\n---\napiVersion: "networking.k\\x38s.io/\\x761"\nkind:  NetworkPolicy',
  },
  {
    cls: "strict/we-accept/did-not-find-expected-document-start",
    text: '%YAML 1.1\n---\napiVersion: "networking.k\\x38s.io/\\x761"\nkind:  NetworkPolicy',
  },
  {
    cls: "strict/we-refuse/unknown-field-q",
    text: "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\n\u2028metadata:",
  },
  {
    cls: "lax/differ/keys",
    text: "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\n\u2028metadata:\n 'name': w",
  },
  {
    cls: "lax/we-accept/mapping-values-are-not-allowed-in-this-context",
    text: 'apiVersion: networking.k8s.io/v1\nkind: "\\u004eetworkPolicy"\ne: &x:',
  },
  {
    cls: "strict/we-accept/mapping-values-are-not-allowed-in-this-context",
    text: 'apiVersion: networking.k8s.io/v1\nkind: "\\u004eetworkPolicy"\nspec: &a0\n  ingress:\n  - from:\n      - namespaceSelector:\n          matchLabels:\n           ame: &a1x: "in"\n',
  },
  {
    cls: "lax/we-refuse/implicit-map-keys-need-to-be-followed-by-map-values",
    text: "apiVersion: 'networking.k8s.io/v1'\nkind: \"NetworkPolicy\"\n\u2028",
  },
  {
    cls: "strict/we-refuse/implicit-map-keys-need-to-be-followed-by-map-values",
    text: "apiVersion: 'networking.k8s.io/v1'\nkind: \"NetworkPolicy\"\n\u2028",
  },
  {
    cls: "lax/we-refuse/all-mapping-items-must-start-at-the-same-column",
    text: 'apiVersion:  networking.k8s.io/v1\nkind: "NetworkPolicy"\nec:\n\u2028   ss":\n   - \n   dS: ',
  },
  {
    cls: "strict/we-refuse/all-mapping-items-must-start-at-the-same-column",
    text: 'apiVersion: networking.k8s.io/v1\nkind: "NetworkPolicy"\nspec:\u2028   "ingress":\n   - \n   podSelector: {}\n',
  },
  {
    cls: "lax/we-accept/found-unknown-escape-character",
    text: 'apiVersion: "networking.k8s.io\\/v1"\nkind: NetworkPolicy',
  },
  {
    cls: "strict/we-accept/found-unknown-escape-character",
    text: 'apiVersion: "networking.k8s.io\\/v1"\nkind: NetworkPolicy',
  },
  {
    cls: "lax/we-accept/could-not-find-expected-q",
    text: 'apiVersion: networking.k8s.io/v1\nkind: "NetworkPolicy"\ne: \u2029k',
  },
  {
    cls: "strict/we-accept/could-not-find-expected-q",
    text: 'apiVersion: networking.k8s.io/v1\nkind: "NetworkPolicy"\nmetadata:\n name: \u2029k',
  },
  {
    cls: "lax/we-accept/did-not-find-expected-q-or-q",
    text: "apiVersion: 'networking.k8s.io/v1'\nkind: \"NetworkPolicy\"\nm: {e: &a: }\n",
  },
  {
    cls: "lax/we-refuse/missing-closing-quote",
    text: 'apiVersion: "networking.k8s\\x2eio/v1"\r\nkind: "Ingress"\r\nd: \'a\n\'\r\n',
  },
  {
    cls: "strict/we-accept/did-not-find-expected-q-or-q",
    text: "apiVersion: 'networking.k8s.io/v1'\nkind: \"NetworkPolicy\"\nmetadata: {name: &a: 'd',namespace: km}",
  },
  {
    cls: "strict/we-refuse/missing-closing-quote",
    text: 'apiVersion: "networking.k8s\\x2eio/v1"\r\nkind: "Ingress"\r\nmetadata:\r\n annotations:\r\n  d: \'\r\n\'\r',
  },
  {
    cls: "lax/differ/trailing-whitespace",
    text: "\"apiVersion\": 'networking.k8s.io/v1'\nkind: NetworkPolicy\nspec:\n  policyTypes:\n  - >+\n ",
  },
  {
    cls: "lax/we-refuse/nested-mappings-are-not-allowed-in-compact-mappings",
    text: 'apiVersion: networking.k8s.io/v1\nkind: "NetworkPolicy"\nctor:\n\u2028   nce: inx\n   pes:',
  },
  {
    cls: "strict/we-refuse/nested-mappings-are-not-allowed-in-compact-mappings",
    text: 'apiVersion: networking.k8s.io/v1\nkind: "NetworkPolicy"\nspec:\n   podSelector:\n    matchLabels:\n\u2028        nce: i\n   policyTypes:\n',
  },
  {
    cls: "lax/we-refuse/object-q-is-missing",
    text: "\u2028apiVersion: networking.k8s.io/v1\nkind: Ingress",
  },
  {
    cls: "strict/differ/trailing-whitespace",
    text: "\"apiVersion\": 'networking.k8s.io/v1'\nkind: NetworkPolicy\nspec:\n  policyTypes:\n  - >+\n ",
  },
  {
    cls: "strict/we-refuse/object-q-is-missing",
    text: "\u2028apiVersion: networking.k8s.io/v1\nkind: Ingress",
  },
  {
    cls: "lax/differ/string",
    text: 'apiVersion: "networking.k8s.io/v1"\nkind: "\\u004eetworkPolicy"\n"spec":\n   ? policyTypes\n   :\n   - &a1:-',
  },
  {
    cls: "strict/differ/string",
    text: 'apiVersion: "networking.k8s.io/v1"\nkind: "\\u004eetworkPolicy"\n"spec":\n   ? policyTypes\n   :\n   - &a1:-',
  },
  {
    cls: "lax/we-refuse/plain-value-cannot-start-with-directive-indicator-character",
    text: 'apiVersion: "networking.k8s.io/v1"\nkind: NetworkPolicy\n%YAML 1.1',
  },
  {
    cls: "strict/we-refuse/plain-value-cannot-start-with-directive-indicator-character",
    text: 'apiVersion: "networking.k8s.io/v1"\nkind: NetworkPolicy\n%YAML 1.1',
  },
  {
    cls: "lax/we-accept/fromjson-unsupported-apiversion-kind-q-supported-networki",
    text: "apiVersion: &0:_ networking.k8s.io/v1\nkind: 'NetworkPolicy'",
  },
  {
    cls: "strict/we-accept/fromjson-unsupported-apiversion-kind-q-supported-networki",
    text: "apiVersion: &0:_ networking.k8s.io/v1\nkind: 'NetworkPolicy'",
  },
  {
    cls: "lax/we-refuse/implicit-keys-need-to-be-on-a-single-line",
    text: "\u2029---\napiVersion: networking.k8s.io/v1\n'kind': 'NetworkPolicy'",
  },
  {
    cls: "strict/we-refuse/implicit-keys-need-to-be-on-a-single-line",
    text: "\u2029---\napiVersion: networking.k8s.io/v1\n'kind': 'NetworkPolicy'",
  },
  {
    cls: "lax/we-refuse/unexpected-scalar-at-node-end",
    text: '{apiVersion: networking.k8s.io/v1, kind: Ingress, ata: {na}, spec: {"rules": [{hp: {\'\': [{nd: {resource: {apice1"}},pa Prefix}]}}]}, status: {loa: {}}}\n%YAML 1.2\n',
  },
  {
    cls: "strict/we-refuse/unexpected-scalar-at-node-end",
    text: '{apiVersion: networking.k8s.io/v1, kind: Ingress, metadata: {name: }, spec: {"rules": [{host: to, http: {\'paths\': [{backend: {resource: {apiGroup: , kind: Se, name: "se1"}},path: /bar,pathType: Prefix}]}}]}, status: {loadBalancer: {}}}\n%YAML 1.2\n',
  },
  {
    cls: "lax/we-accept/did-not-find-expected-key",
    text: "\"apiVersion\": networking.k8s.io/v1\nkind: 'NetworkPolicy'\ne: x\u2029|+",
  },
  {
    cls: "strict/we-accept/did-not-find-expected-key",
    text: "\"apiVersion\": >4-\n    networking.k8s.io/v1\nkind: 'NetworkPolicy'\nspec:\n podSelector:\n  matchLabels:\n      app: x\u2029|+",
  },
  {
    cls: "lax/we-refuse/a-block-sequence-may-not-be-used-as-an-implicit-map-key",
    text: "apiVersion: 'networking.k8s.io/v1'\nkind: NetworkPolicy\ngr:\n    - f:\n\u2028      idr: \"0\"\n    -",
  },
  {
    cls: "strict/we-refuse/a-block-sequence-may-not-be-used-as-an-implicit-map-key",
    text: "apiVersion: 'networking.k8s.io/v1'\nkind: NetworkPolicy\nspec:\n  ingress:\n    - from:\n      - ipBlock:\n\u2028          cidr: \"0\"\n    -",
  },
  {
    cls: "lax/we-accept/unsupported-map-key-of-type-s-nil-key-nil-value-q",
    text: "{\"apiVersion\": 'networking.k8s.io/v1', kind: &a0 'NetworkPolicy', metadata: {nam ess': [{ports: [{potor: {ma: {el: \"dummy\"}}}]}],ingress: [{from: [{podSelector: {ls: {tierd}}}] , poom: [{po: {matchLabels: {ttend}}}],\n  'ports': [{port: 'tiller', \"UDP\"}]}],podSelecyTypes: [&a1:+ Ingress,Egress]}}\n",
  },
  {
    cls: "strict/we-accept/unsupported-map-key-of-type-s-nil-key-nil-value-q",
    text: "{\"apiVersion\": 'networking.k8s.io/v1', kind: &a0 'NetworkPolicy', metadata: {name: test-nawarnings,\n  namespace: kube-system}, spec: {'egress': [{ports: [{port: }], to: [{namespaceSelector: {matchLabels: {uniqudummy\"}}}]}],ingress: [{from: [{podSelector: {matchLabels: {tend}}}] , ports: [{protocol: TCP}]},{from: [{podSelector: {matchLabels: {tier: frontend}}}],\n  'ports': [{port: 'tiller', protocol: \"UDP\"}]}],podSelector: {matchLabels: {app: helm}},policyTypes: [&a1:+ Ingress,Egress]}}",
  },
  {
    cls: "lax/we-refuse/tags-and-anchors-must-be-separated-from-the-next-token-by-wh",
    text: "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\np: &0:[",
  },
  {
    cls: "strict/we-refuse/tags-and-anchors-must-be-separated-from-the-next-token-by-wh",
    text: "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nspec:\n  egress:\n  - ports:\n \n  podSelector:\n    'matchLabels':\n         app: &a0:[",
  },
  {
    cls: "lax/differ/type",
    text: "{apiVersion: networking.k8s.io/v1,kind: Ingress,m: {anno: {ngin'},\n  n},spec: {rules: [{h.ecom,http: {paths: [{backend: {service: {na: {number: 80}}} , pikend: {service: {n}},\n\u2029  pathType: Prefix}]}}]},status: {loadBalancer: {}}}\n",
  },
  {
    cls: "lax/we-refuse/cannot-unmarshal-string-into-an-object",
    text: 'apiVersion: networking.k8s.io/v1\nkind: "Ingress"\n---\n\u2029',
  },
  {
    cls: "strict/we-refuse/cannot-unmarshal-string-into-an-object",
    text: 'apiVersion: networking.k8s.io/v1\nkind: "Ingress"\n---\n\u2029',
  },
  {
    cls: "lax/we-refuse/unexpected-flow-map-end-token-in-yaml-stream-q",
    text: "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\ns:\u2029 {to: [{n}]}\n",
  },
  {
    cls: "strict/we-refuse/unexpected-flow-map-end-token-in-yaml-stream-q",
    text: "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nspec:\n egress:\n\u2029  - {to: [{namespaceSelector: , podSelector}]}\n",
  },
  {
    cls: "lax/we-refuse/unexpected-map-value-ind-token-in-yaml-stream-q",
    text: "\u2029? apiVersion\n: 'networking.k8s.io/v1'\nkind: 'Ingress'",
  },
  {
    cls: "strict/we-refuse/unexpected-map-value-ind-token-in-yaml-stream-q",
    text: "\u2029? apiVersion\n: 'networking.k8s.io/v1'\nkind: 'Ingress'",
  },
  {
    cls: "lax/we-refuse/unexpected-scalar-token-in-yaml-stream-q",
    text: "{apiVersion: 'networking.k8s.io/v1',kind: Ingress,ma: {na: [{htp: {paths: [{backend: {service: {naport: {numb}}}, Prefix'}]}}]},status: {lancer: {}}}\n\n\u2029",
  },
  {
    cls: "strict/differ/keys",
    text: '\ufeff{apiVersion: networking.k8s.io/v1, kind: "NetworkPolicy", \'metadata\': {name: alce,namespace: "checkout"}, spec: {ingress: [{from: [{namespaceSelector: {matchLabels: {e: ui}}}]}] , podSelector: {matchLabels: {e,\n\u2028  a"}} , policyTypes: [""]}}\n',
  },
  {
    cls: "strict/we-refuse/unexpected-scalar-token-in-yaml-stream-q",
    text: "{apiVersion: 'networking.k8s.io/v1',kind: Ingress,metadata: {name: good-paths},spec: {rules: [{host: ccom,http: {paths: [{backend: {service: {name: tea-svc,port: {number: 80}}},path: /tea,pathType: x\"} , {backend: {service: {name: cofc,port: {number: 0o120}}}, path: \"/coffee\", pathType: x'}]}}]},status: {loadBalancer: {}}}\n\n\u2029",
  },
  {
    cls: "lax/differ/whitespace",
    text: '{apiVersion: networking.k8s.io/v1, kind: "NetworkPolicy", me: {namSPACE}, spec: {egr: [{from: [{ector: {matcs: {and\'}}}] , ports: [{}]}],pctor: {s": {ice}},policyTypes: [Ingress,\r\n\u2029  Egress]}}\r\n',
  },
  {
    cls: "strict/differ/whitespace",
    text: '{apiVersion: networking.k8s.io/v1, kind: "NetworkPolicy", metadata: {name: CE}, spec: {egress: [{}],ingress: [{from: [{podSelector: {matchLabels: {and\'}}}] , ports: [{port: 0, protocol: TCP}]}],podSelector: {"matchLabels": {app: cice}},policyTypes: [Ingress,\r\n\u2029  Egress]}}\r\n',
  },
  {
    cls: "lax/differ/document-count",
    text: "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\u0085---\napiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\n",
  },
  {
    cls: "lax/we-accept/unsupported-map-key-of-type-s-nil-key-nil-value-map-i",
    text: "'apiVersion': networking.k8s.io/v1\nkind: \"NetworkPolicy\"\nc:\n   ? por\n   : &a1a:\n      ? /c",
  },
  {
    cls: "strict/differ/document-count",
    text: "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\u0085---\napiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\n",
  },
  {
    cls: "strict/we-accept/unsupported-map-key-of-type-s-nil-key-nil-value-map-i",
    text: "'apiVersion': networking.k8s.io/v1\nkind: \"NetworkPolicy\"\nspec:\n   ? podSelector\n   : &a:\n      matchLabels:\n",
  },
  {
    cls: "lax/differ/array-length",
    text: "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nspec:\n   ? ingress\n   :\n      - fr:\n\u2028        wd-: >-3\n      - from:",
  },
  {
    cls: "lax/we-accept/fromjson-cannot-parse-q-as-rfc-n-want-e-g-q",
    text: 'apiVersion: "networking.k8s.io/v1"\n? kind\n: Ingress\n? metadata\n: creationTimestamp: &0:+',
  },
  {
    cls: "lax/we-accept/unsupported-map-key-of-type-s-nil-key-nil-value-nil",
    text: 'apiVersion: networking.k8s.io/v1\nkind: "NetworkPolicy"\n? m\n: &1:',
  },
  {
    cls: "lax/we-refuse/missing-or-between-flow-sequence-items",
    text: "{apiVersion: networking.k8s.io/v1,\n  kind: Ingress,\n  spec: {rules: [{ho\" , http: {paths: [{backend: {service: {name:}} , pathPrefix}]}},\n  {http: {paths: [{backend: {service: {nam: {number: 80}}},pPrefix\"}]}},\n  {hop: {paths: [{backend: {service: {name,port: {number: 80}}} , path: / , pathType: &a0 Prefix}]}},\n\u2028  {http: {paths: [{backend: {service: {name: 'example' , port: {'number': 80}}},path: \"/\",pathType: *a0}]}}]},\n  status: {loadBalancer: {}}}\n",
  },
  {
    cls: "strict/we-accept/fromjson-cannot-parse-q-as-rfc-n-want-e-g-q",
    text: 'apiVersion: "networking.k8s.io/v1"\n? kind\n: Ingress\n? metadata\n: creationTimestamp: &0:+',
  },
  {
    cls: "strict/we-accept/fromjson-unknown-field-q",
    text: "apiVersion: 'networking.k8s.io/v1'\nkind: NetworkPolicy\nspec:\n  ingress:\n    - ? \"\\x66rom\"\n      :\n        - ? podSelector\n          : &a2::\n",
  },
  {
    cls: "strict/we-accept/unsupported-map-key-of-type-s-nil-key-nil-value-nil",
    text: 'apiVersion: networking.k8s.io/v1\nkind: "NetworkPolicy"\n---\napiVersion: "n\\u0065tworking.k8s.io/v1"\n"ki\\x6ed": Ingress\n? metadata\n: &1:',
  },
  {
    cls: "strict/we-refuse/missing-or-between-flow-sequence-items",
    text: "{apiVersion: networking.k8s.io/v1,\n  kind: Ingress,\n  spec: {rules: [{host: \"*.ex\" , http: {paths: [{backend: {service: {name}} , path: '/' , pathType: Prefix}]}},\n  {http: {paths: [{backend: {service: {name,\n  port: {number: 80}}},path: /,pathType: \"Prefix\"}]}},\n  {host: _,http: {paths: [{backend: {service: {name,port: {number: 80}}} , path: / , pathType: &a0 Prefix}]}},\n\u2028  {http: {paths: [{backend: {service: {name: 'example' , port: {'number': 80}}},path: \"/\",pathType: *a0}]}}]},\n  status: {loadBalancer: {}}}\n",
  },
  // Found on 2026-11-26 by the wider generator, the raw modes and the value
  // probes, against the go-yaml v2 reader while it was being finished.
  {
    cls: "lax/we-refuse/nesting-deeper-than-n",
    text: `apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nx: ${"[".repeat(101)}${"]".repeat(101)}\n`,
  },
  { cls: "raw/differ/keys-missing (float key beyond float32)", text: "1e40: v\n-1e40: w\nx: {8e300: y}\n" },
  { cls: "raw/we-refuse/unsupported-map-key-null (in a replaced value)", text: "a: {~: 1}\na: 2\n" },
  {
    cls: "raw/we-refuse/unsupported-map-key-of-type-uintn-n (in a replaced value)",
    text: "a: {9223372036854775808: 1}\na: 2\n",
  },
  { cls: "raw/we-refuse/cannot-decode-int-q-as-a-int (uint64 under !!int)", text: "a: !!int 9223372036854775809\n" },
  { cls: "raw/differ/keys-missing (entries after an empty merge list)", text: "{<<: [], a: 3}\n" },
  {
    cls: "raw/differ/type-number-null (a key after an empty merge list)",
    text: "m: &m {a: 4, c: 7}\nout:\n  b: ~\n  !!merge <<: [*m]\n  !!merge <<: []\n  a: ~\n",
  },
  { cls: "raw-strict/we-accept/key-already-set-in-map (after an empty merge list)", text: "d: {<<: [], b: 8, b: 4}\n" },
  // Found when the oracle moved onto apimachinery's own YAMLReader (Kubernetes
  // v1.35.4's modules): a `---` line with nothing gathered before it stays at
  // the start of the next piece, which clusterwire's splitter then dropped.
  // Seeds 20261201 and 5126091, 5,000 documents each, --budget 300.
  { cls: "lax/we-refuse/did-not-find-expected-node-content (kept separator line)", text: "---\n..." },
  {
    cls: "lax/we-refuse/object-q-is-missing (kept separator line)",
    text: "--- #\rapiVersion: networking.k8s.io/v1\nkind: NetworkPolicy",
  },
  { cls: "raw/differ/document-count (kept separator line)", text: "---#" },
  {
    cls: "lax/differ/document-count (kept separator line)",
    text: "--- #\r---\napiVersion: networking.k8s.io/v1\nkind: NetworkPolicy",
  },
  { cls: "raw/differ/keys-missing (a separator line run on by CR)", text: "--- #\rp:\nd:" },
  {
    cls: "lax/we-refuse/did-not-find-expected-alphabetic-or-numeric-character (kept separator line)",
    text: "---\n\r--- &",
  },
  {
    cls: "lax/we-refuse/mapping-values-are-not-allowed-in-this-context (kept separator line)",
    text: "--- #\rapiVersion:\n networking.k8s.io/v1\nkind: &0 NetworkPolicy",
  },
  { cls: "raw/we-accept/json-unsupported-value-nan (kept separator line)", text: "--- #\rd: .NaN" },
];
