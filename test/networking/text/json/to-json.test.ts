// Kubernetes JSON specifics (../shared/docs/wire-format.md §4): what Go's encoding/json
// writes for these structs, and how sigs.k8s.io/json reads it back.

import { describe, expect, it } from "vitest";
import {
  EncodeError,
  IngressClassSchema,
  IngressSchema,
  NetworkPolicySchema,
  ObjectMetaSchema,
  create,
  decode,
  encode,
  fromJson,
  fromYaml,
  toJson,
  toJsonString,
  toYaml,
  type NetworkingObject,
} from "../../../../src/networking/index.js";
import { currentFolders, loadFixtures } from "../../../support/fixtures.js";
import { goZero } from "../../../../src/testing/any-shape.js";
import { hex } from "../../../support/bytes.js";

const ING = '"kind":"Ingress","apiVersion":"networking.k8s.io/v1"';
const NP = '"kind":"NetworkPolicy","apiVersion":"networking.k8s.io/v1"';
const IC = '"kind":"IngressClass","apiVersion":"networking.k8s.io/v1"';

/** fromJson then compact toJsonString. */
const rt = (text: string): string => toJsonString(fromJson(text));

type AnyObj = Record<string, unknown>;
function at(v: unknown, ...path: (string | number)[]): unknown {
  let x = v;
  for (const k of path) x = (x as Record<string | number, unknown>)[k];
  return x;
}

describe("Go string escaping", () => {
  it("<, > and & become \\u003c, \\u003e, \\u0026; U+2028/U+2029 are escaped", () => {
    const out = rt(`{${ING},"metadata":{"name":"<a&b>","annotations":{"x<y":"\u2028\u2029"}}}`);
    expect(out).toContain('"name":"\\u003ca\\u0026b\\u003e"');
    expect(out).toContain('"x\\u003cy":"\\u2028\\u2029"');
    expect(out).not.toMatch(/[<>&\u2028\u2029]/);
  });

  it("control characters, quotes and backslashes as Go writes them; DEL and non-ASCII verbatim", () => {
    const o = fromJson({
      kind: "Ingress",
      apiVersion: "networking.k8s.io/v1",
      metadata: { name: '\u0000\u0001\b\f\n\r\t\u001f"\\/\u007f é😀' },
    });
    expect(toJsonString(o)).toContain('"name":"\\u0000\\u0001\\b\\f\\n\\r\\t\\u001f\\"\\\\/\u007f é😀"');
  });

  it("a lone surrogate (not UTF-8 on Go's side) prints as U+FFFD", () => {
    const o = fromJson({ kind: "Ingress", apiVersion: "networking.k8s.io/v1", metadata: { name: "a\ud800b" } });
    expect(toJsonString(o)).toContain('"name":"a\ufffdb"');
  });

  it("escapes in input are decoded", () => {
    const o = fromJson(`{${ING},"metadata":{"name":"\\u0041\\u00e9\\ud83d\\ude00\\/\\u003c"}}`);
    expect(toJsonString(o)).toContain('"name":"Aé😀/\\u003c"');
  });

  it("HTML escaping applies inside fieldsV1 too (Go compacts Marshaler output with escapeHTML)", () => {
    const out = rt(`{${ING},"metadata":{"managedFields":[{"fieldsV1":{"f:a<b":{"&":{}}}}]}}`);
    expect(out).toContain('"fieldsV1":{"f:a\\u003cb":{"\\u0026":{}}}');
  });
});

describe("presence: null, omitted or always written", () => {
  it("null for unset pointers without omitempty: pathType, parameters.scope, resource.apiGroup", () => {
    const ing = rt(
      `{${ING},"spec":{"rules":[{"http":{"paths":[{"path":"/","backend":{"resource":{"kind":"K","name":"n"}}}]}}]}}`,
    );
    expect(ing).toContain(
      '"paths":[{"path":"/","pathType":null,"backend":{"resource":{"apiGroup":null,"kind":"K","name":"n"}}}]',
    );
    const ic = rt(`{${IC},"spec":{"parameters":{"kind":"K","name":"n"}}}`);
    expect(ic).toContain('"parameters":{"kind":"K","name":"n","scope":null}');
    // Set to "" they are written as "".
    expect(rt(`{${IC},"spec":{"parameters":{"apiGroup":"","kind":"","name":"","scope":"","namespace":""}}}`)).toContain(
      '"parameters":{"apiGroup":"","kind":"","name":"","scope":"","namespace":""}',
    );
  });

  it("items: null for an empty list, and metadata: {}", () => {
    for (const kind of ["IngressList", "IngressClassList", "NetworkPolicyList", "IPAddressList", "ServiceCIDRList"]) {
      expect(rt(`{"kind":"${kind}","apiVersion":"networking.k8s.io/v1"}`)).toBe(
        `{"kind":"${kind}","apiVersion":"networking.k8s.io/v1","metadata":{},"items":null}`,
      );
      expect(rt(`{"kind":"${kind}","apiVersion":"networking.k8s.io/v1","items":[]}`)).toContain('"items":null');
    }
    // List items carry no kind/apiVersion.
    expect(
      rt(
        `{"kind":"IngressList","apiVersion":"networking.k8s.io/v1","items":[{"kind":"Ingress","apiVersion":"networking.k8s.io/v1"}]}`,
      ),
    ).toBe(
      '{"kind":"IngressList","apiVersion":"networking.k8s.io/v1","metadata":{},"items":[{"metadata":{},"spec":{},"status":{"loadBalancer":{}}}]}',
    );
  });

  it("non-pointer structs are always objects: metadata, spec, status.loadBalancer, podSelector", () => {
    expect(rt(`{${ING}}`)).toBe(`{${ING},"metadata":{},"spec":{},"status":{"loadBalancer":{}}}`);
    expect(rt(`{${NP}}`)).toBe(`{${NP},"metadata":{},"spec":{"podSelector":{}}}`);
    expect(rt(`{${NP},"spec":null}`)).toBe(`{${NP},"metadata":{},"spec":{"podSelector":{}}}`);
    expect(rt(`{${IC}}`)).toBe(`{${IC},"metadata":{},"spec":{}}`);
    expect(rt('{"kind":"ServiceCIDR","apiVersion":"networking.k8s.io/v1"}')).toBe(
      '{"kind":"ServiceCIDR","apiVersion":"networking.k8s.io/v1","metadata":{},"spec":{},"status":{}}',
    );
    expect(rt('{"kind":"IPAddress","apiVersion":"networking.k8s.io/v1"}')).toBe(
      '{"kind":"IPAddress","apiVersion":"networking.k8s.io/v1","metadata":{},"spec":{}}',
    );
    // Also for objects built with create() and for decoded protobuf.
    expect(toJsonString(create(NetworkPolicySchema))).toBe(`{${NP},"metadata":{},"spec":{"podSelector":{}}}`);
    expect(toJsonString(create(IngressSchema))).toBe(`{${ING},"metadata":{},"spec":{},"status":{"loadBalancer":{}}}`);
  });

  it("a peer's podSelector is a pointer: omitted when unset, {} when set empty", () => {
    const out = rt(`{${NP},"spec":{"ingress":[{"from":[{"namespaceSelector":{}},{"podSelector":{}}]}]}}`);
    expect(out).toContain('"from":[{"namespaceSelector":{}},{"podSelector":{}}]');
  });

  it("HTTPIngressRuleValue.paths has no omitempty: null when empty", () => {
    expect(rt(`{${ING},"spec":{"rules":[{"host":"a","http":{}}]}}`)).toContain(
      '"rules":[{"host":"a","http":{"paths":null}}]',
    );
    expect(rt(`{${ING},"spec":{"rules":[{}]}}`)).toContain('"rules":[{}]');
  });

  it("ServiceBackendPort.number 0 is omitted (omitempty int); name and number otherwise", () => {
    const path = (port: string) => rt(`{${ING},"spec":{"defaultBackend":{"service":{"name":"s","port":${port}}}}}`);
    expect(path('{"number":0}')).toContain('"service":{"name":"s","port":{}}');
    expect(path("{}")).toContain('"service":{"name":"s","port":{}}');
    expect(path('{"number":80}')).toContain('"port":{"number":80}');
    expect(path('{"name":"http"}')).toContain('"port":{"name":"http"}');
    expect(rt(`{${ING},"spec":{"defaultBackend":{"service":{}}}}`)).toContain(
      '"defaultBackend":{"service":{"name":"","port":{}}}',
    );
  });

  it("endPort is a pointer: 0 is written when set, absent when unset", () => {
    expect(rt(`{${NP},"spec":{"ingress":[{"ports":[{"port":80,"endPort":0}]}]}}`)).toContain(
      '"ports":[{"port":80,"endPort":0}]',
    );
    expect(rt(`{${NP},"spec":{"ingress":[{"ports":[{"port":80}]}]}}`)).toContain('"ports":[{"port":80}]');
    expect(rt(`{${NP},"spec":{"ingress":[{"ports":[{"protocol":""}]}]}}`)).toContain('"ports":[{"protocol":""}]');
    expect(rt(`{${NP},"spec":{"ingress":[{"ports":[{"endPort":null}]}]}}`)).toContain('"ports":[{}]');
  });

  it("fields without omitempty are always written", () => {
    expect(
      rt(`{${NP},"spec":{"ingress":[{"from":[{"ipBlock":{}}]}],"podSelector":{"matchExpressions":[{}]}}}`),
    ).toContain(
      '"spec":{"podSelector":{"matchExpressions":[{"key":"","operator":""}]},"ingress":[{"from":[{"ipBlock":{"cidr":""}}]}]}',
    );
    expect(
      rt(`{${ING},"metadata":{"ownerReferences":[{}]},"status":{"loadBalancer":{"ingress":[{"ports":[{}]}]}}}`),
    ).toContain('"ownerReferences":[{"apiVersion":"","kind":"","name":"","uid":""}]');
    expect(rt(`{${ING},"status":{"loadBalancer":{"ingress":[{"ports":[{}]}]}}}`)).toContain(
      '"ingress":[{"ports":[{"port":0,"protocol":""}]}]',
    );
  });

  it("omitempty values disappear at their zero value", () => {
    const out = rt(
      `{${ING},"metadata":{"name":"","generation":0,"labels":{},"finalizers":[],"ownerReferences":[],"managedFields":[]},"spec":{"tls":[],"rules":[]}}`,
    );
    expect(out).toBe(`{${ING},"metadata":{},"spec":{},"status":{"loadBalancer":{}}}`);
  });

  it("pointer bools are written when false", () => {
    expect(rt(`{${ING},"metadata":{"ownerReferences":[{"controller":false,"blockOwnerDeletion":true}]}}`)).toContain(
      '"uid":"","controller":false,"blockOwnerDeletion":true}',
    );
  });

  it("null in input resets to the zero value", () => {
    const o = fromJson(
      `{${ING},"metadata":{"name":null,"labels":null,"finalizers":null,"creationTimestamp":null},"spec":{"ingressClassName":null,"rules":null},"status":null}`,
    );
    expect(toJsonString(o)).toBe(`{${ING},"metadata":{},"spec":{},"status":{"loadBalancer":{}}}`);
  });
});

describe("key order", () => {
  it("kind and apiVersion first, then Go struct order (not field numbers)", () => {
    const o = fromJson({
      spec: {
        rules: [
          {
            http: {
              paths: [
                {
                  backend: {
                    resource: { name: "n", kind: "k" },
                    service: { port: { number: 1, name: "x" }, name: "s" },
                  },
                  pathType: "Exact",
                  path: "/",
                },
              ],
            },
            host: "h",
          },
        ],
        defaultBackend: { service: { name: "d", port: { number: 2 } } },
        ingressClassName: "c",
        tls: [{ secretName: "s", hosts: ["a"] }],
      },
      metadata: { ownerReferences: [{ uid: "u", name: "n", kind: "k", apiVersion: "v" }], namespace: "ns", name: "a" },
      apiVersion: "networking.k8s.io/v1",
      kind: "Ingress",
    });
    expect(toJsonString(o)).toBe(
      '{"kind":"Ingress","apiVersion":"networking.k8s.io/v1",' +
        '"metadata":{"name":"a","namespace":"ns","ownerReferences":[{"apiVersion":"v","kind":"k","name":"n","uid":"u"}]},' +
        '"spec":{"ingressClassName":"c","defaultBackend":{"service":{"name":"d","port":{"number":2}}},"tls":[{"hosts":["a"],"secretName":"s"}],' +
        '"rules":[{"host":"h","http":{"paths":[{"path":"/","pathType":"Exact","backend":{"service":{"name":"s","port":{"name":"x","number":1}},"resource":{"apiGroup":null,"kind":"k","name":"n"}}}]}}]},' +
        '"status":{"loadBalancer":{}}}',
    );
  });

  it("map keys in Go's order: UTF-8 bytes, so astral characters after U+FFFD", () => {
    const o = fromJson({
      kind: "Ingress",
      apiVersion: "networking.k8s.io/v1",
      metadata: { labels: { b: "1", "😀": "2", "\ufffd": "3", a: "4", B: "5", "": "6" } },
    });
    expect(toJsonString(o)).toContain('"labels":{"":"6","B":"5","a":"4","b":"1","\ufffd":"3","😀":"2"}');
    // The protobuf map entries are sorted the same way.
    const bytes = hex(encode(o));
    expect(bytes.indexOf(Buffer.from("\ufffd").toString("hex"))).toBeLessThan(
      bytes.indexOf(Buffer.from("😀").toString("hex")),
    );
  });
});

describe("numbers", () => {
  it("int64 beyond 2^53 stays exact in both directions (bigint)", () => {
    const values = [
      "9223372036854775807",
      "-9223372036854775808",
      "9007199254740993",
      "-9007199254740993",
      "18014398509481985",
    ];
    for (const v of values) {
      const text = `{${ING},"metadata":{"generation":${v},"deletionGracePeriodSeconds":${v}}}`;
      const o = fromJson(text) as NetworkingObject & {
        metadata: { generation: bigint; deletionGracePeriodSeconds?: bigint };
      };
      expect(o.metadata.generation).toBe(BigInt(v));
      expect(o.metadata.deletionGracePeriodSeconds).toBe(BigInt(v));
      expect(toJsonString(o)).toBe(
        `{${ING},"metadata":{"generation":${v},"deletionGracePeriodSeconds":${v}},"spec":{},"status":{"loadBalancer":{}}}`,
      );
      // toJson gives a bigint where a number would round.
      expect(at(toJson(o), "metadata", "generation")).toBe(BigInt(v));
      // And a JS value with a bigint decodes exactly.
      const back = fromJson({
        kind: "Ingress",
        apiVersion: "networking.k8s.io/v1",
        metadata: { generation: BigInt(v) },
      } as never) as typeof o;
      expect(back.metadata.generation).toBe(BigInt(v));
    }
    const list = fromJson(
      `{"kind":"IngressList","apiVersion":"networking.k8s.io/v1","metadata":{"remainingItemCount":9223372036854775807}}`,
    );
    expect(toJsonString(list)).toContain('"remainingItemCount":9223372036854775807');
  });

  it("safe integers are plain numbers in toJson", () => {
    const o = fromJson(`{${ING},"metadata":{"generation":9007199254740991}}`);
    expect(at(toJson(o), "metadata", "generation")).toBe(9007199254740991);
  });

  it("a JS number that is not a safe integer is refused rather than rounded", () => {
    expect(() =>
      fromJson({ kind: "Ingress", apiVersion: "networking.k8s.io/v1", metadata: { generation: 2 ** 60 } }),
    ).toThrow(/exactly|bigint/);
  });

  it("int32 range", () => {
    expect(rt(`{${NP},"spec":{"ingress":[{"ports":[{"port":-2147483648,"endPort":2147483647}]}]}}`)).toContain(
      '"port":-2147483648,"endPort":2147483647',
    );
    expect(() => fromJson(`{${NP},"spec":{"ingress":[{"ports":[{"endPort":2147483648}]}]}}`)).toThrow(/int32/);
  });

  it("-0 and exponents are not integers (Go rejects them for int fields)", () => {
    expect(() => fromJson(`{${NP},"spec":{"ingress":[{"ports":[{"endPort":1e2}]}]}}`)).toThrow(/endPort/);
  });
});

describe("IntOrString", () => {
  it("a bare number or a bare string", () => {
    const out = rt(
      `{${NP},"spec":{"ingress":[{"ports":[{"port":80},{"port":"http"},{"port":"80"},{"port":0},{"port":""},{"port":-1}]}]}}`,
    );
    expect(out).toContain('"ports":[{"port":80},{"port":"http"},{"port":"80"},{"port":0},{"port":""},{"port":-1}]');
  });

  it("the protobuf form carries type, intVal and strVal", () => {
    const o = fromJson(`{${NP},"spec":{"ingress":[{"ports":[{"port":80},{"port":"80"}]}]}}`) as NetworkingObject & {
      spec: { ingress: { ports: { port: { type: bigint; intVal: number; strVal: string } }[] }[] };
    };
    const [a, b] = o.spec.ingress[0]?.ports ?? [];
    expect([a?.port.type, a?.port.intVal, a?.port.strVal]).toEqual([0n, 80, ""]);
    expect([b?.port.type, b?.port.intVal, b?.port.strVal]).toEqual([1n, 0, "80"]);
    // 08 00 10 50 1a 00 and 08 01 10 00 1a 02 "80" (../shared/docs/wire-format.md §2.2)
    const bytes = hex(encode(o));
    expect(bytes).toContain("080010501a00");
    expect(bytes).toContain("080110001a023830");
  });

  it("a type other than 0 or 1 cannot be written as JSON (Go refuses too)", () => {
    const o = fromJson(`{${NP},"spec":{"ingress":[{"ports":[{"port":80}]}]}}`) as NetworkingObject & {
      spec: { ingress: { ports: { port: { type: bigint } }[] }[] };
    };
    const port = o.spec.ingress[0]?.ports[0]?.port;
    if (port === undefined) throw new Error("no port");
    port.type = 2n;
    expect(() => toJsonString(o)).toThrow(EncodeError);
    try {
      toJsonString(o);
    } catch (e) {
      expect((e as EncodeError).path).toBe("spec.ingress[0].ports[0].port");
    }
  });
});

describe("meta.v1.Time", () => {
  it("creationTimestamp: zero omitted (omitzero since 1.34), otherwise RFC 3339 UTC", () => {
    expect(rt(`{${ING},"metadata":{"creationTimestamp":null}}`)).toBe(
      `{${ING},"metadata":{},"spec":{},"status":{"loadBalancer":{}}}`,
    );
    expect(rt(`{${ING},"metadata":{"creationTimestamp":"0001-01-01T00:00:00Z"}}`)).toBe(
      `{${ING},"metadata":{},"spec":{},"status":{"loadBalancer":{}}}`,
    );
    expect(rt(`{${ING},"metadata":{"creationTimestamp":"1970-01-01T00:00:00Z"}}`)).toContain(
      '"creationTimestamp":"1970-01-01T00:00:00Z"',
    );
    // A Go zero ObjectMeta (creationTimestamp present but zero) prints no timestamp.
    const o = create(IngressSchema, { metadata: goZero(ObjectMetaSchema) as never });
    expect(toJsonString(o)).toContain('"metadata":{}');
  });

  it("offsets are converted to UTC and fractions dropped", () => {
    expect(rt(`{${ING},"metadata":{"creationTimestamp":"2008-01-01T01:01:01+01:30"}}`)).toContain(
      '"creationTimestamp":"2007-12-31T23:31:01Z"',
    );
    expect(rt(`{${ING},"metadata":{"creationTimestamp":"2008-01-01T01:01:01.999999999Z"}}`)).toContain(
      '"creationTimestamp":"2008-01-01T01:01:01Z"',
    );
    expect(rt(`{${ING},"metadata":{"deletionTimestamp":"0099-02-03T04:05:06Z"}}`)).toContain(
      '"deletionTimestamp":"0099-02-03T04:05:06Z"',
    );
    expect(rt(`{${ING},"metadata":{"deletionTimestamp":"9999-12-31T23:59:59Z"}}`)).toContain(
      '"deletionTimestamp":"9999-12-31T23:59:59Z"',
    );
    expect(() => fromJson(`{${ING},"metadata":{"creationTimestamp":"2008-02-30T00:00:00Z"}}`)).toThrow(
      /creationTimestamp/,
    );
  });

  it("Condition.lastTransitionTime has no omitempty: zero is null", () => {
    const out = rt(
      '{"kind":"ServiceCIDR","apiVersion":"networking.k8s.io/v1","status":{"conditions":[{"type":"Ready"}]}}',
    );
    expect(out).toContain(
      '"conditions":[{"type":"Ready","status":"","lastTransitionTime":null,"reason":"","message":""}]',
    );
    const set = rt(
      '{"kind":"ServiceCIDR","apiVersion":"networking.k8s.io/v1","status":{"conditions":[{"observedGeneration":3,"lastTransitionTime":"2004-01-01T01:01:01Z"}]}}',
    );
    expect(set).toContain(
      '"conditions":[{"type":"","status":"","observedGeneration":3,"lastTransitionTime":"2004-01-01T01:01:01Z","reason":"","message":""}]',
    );
  });

  it("a pointer Time holding the zero time prints null (its MarshalJSON), and reads back as unset", () => {
    const out = rt(`{${ING},"metadata":{"deletionTimestamp":"0001-01-01T00:00:00Z"}}`);
    expect(out).toContain('"deletionTimestamp":null');
    expect(rt(out)).not.toContain("deletionTimestamp");
  });
});

describe("fieldsV1", () => {
  const pretty = [
    "{",
    `  "kind": "Ingress",`,
    `  "apiVersion": "networking.k8s.io/v1",`,
    `  "metadata": {`,
    `    "managedFields": [`,
    `      {`,
    `        "manager": "m",`,
    `        "fieldsV1": {`,
    `          "f:metadata": {`,
    `            "f:labels": {}`,
    `          },`,
    `          "f:b": {}, "f:a": 1.50`,
    `        }`,
    `      }`,
    `    ]`,
    `  }`,
    "}",
  ].join("\n");
  const rawSlice = pretty.slice(pretty.indexOf('{\n          "f:metadata"'), pretty.indexOf("}\n      }") + 1);
  const rawOf = (o: NetworkingObject): string => {
    const raw = at(o, "metadata", "managedFields", 0, "fieldsV1", "Raw") as Uint8Array;
    return new TextDecoder().decode(raw);
  };

  it("from JSON text: Raw is the exact source slice, whitespace included, as Go keeps it", () => {
    const o = fromJson(pretty);
    expect(rawOf(o)).toBe(rawSlice);
    expect(rawOf(o)).toContain('\n          "f:metadata": {\n');
  });

  it("printed compact, or re-indented with the rest, in source key order with numbers as written", () => {
    const o = fromJson(pretty);
    expect(toJsonString(o)).toContain('"fieldsV1":{"f:metadata":{"f:labels":{}},"f:b":{},"f:a":1.50}');
    expect(toJsonString(o, 2)).toContain(
      '        "fieldsV1": {\n          "f:metadata": {\n            "f:labels": {}\n          },\n          "f:b": {},\n          "f:a": 1.50\n        }',
    );
  });

  it("from YAML: compact JSON with sorted keys (what Go's YAMLToJSON produces)", () => {
    const yaml =
      "kind: Ingress\napiVersion: networking.k8s.io/v1\nmetadata:\n  managedFields:\n  - manager: m\n    fieldsV1:\n      f:metadata:\n        f:labels: {}\n      f:b: {}\n      f:a: 1.50\n";
    const [o] = fromYaml(yaml);
    expect(rawOf(o as NetworkingObject)).toBe('{"f:a":1.5,"f:b":{},"f:metadata":{"f:labels":{}}}');
  });

  it("from a JS value: compact with sorted keys", () => {
    const o = fromJson({
      kind: "Ingress",
      apiVersion: "networking.k8s.io/v1",
      metadata: { managedFields: [{ fieldsV1: { "f:b": {}, "f:a": {} } }] },
    });
    expect(rawOf(o)).toBe('{"f:a":{},"f:b":{}}');
  });

  it("empty Raw prints null; Raw that is not JSON cannot be printed", () => {
    const o = fromJson(`{${ING},"metadata":{"managedFields":[{"manager":"m","fieldsV1":{}}]}}`);
    expect(rawOf(o)).toBe("{}");
    const raw = at(o, "metadata", "managedFields", 0, "fieldsV1") as { Raw: Uint8Array };
    raw.Raw = new Uint8Array(0);
    expect(toJsonString(o)).toContain('"fieldsV1":null');
    raw.Raw = new TextEncoder().encode("{not json");
    expect(() => toJsonString(o)).toThrow(EncodeError);
  });

  // Go writes a Marshaler's output through json.Compact (or Indent), which
  // only changes whitespace and HTML-escapes <, >, & and U+2028/9: string
  // escapes such as \u0041 or \/ are copied as written.
  it("escapes inside fieldsV1 are kept as written", () => {
    const text = `{${ING},"metadata":{"managedFields":[{"fieldsV1":{"f:a\\u0041":{},"f:\\/x":{"\\u00e9<":1}}}]}}`;
    expect(rt(text)).toContain('"fieldsV1":{"f:a\\u0041":{},"f:\\/x":{"\\u00e9\\u003c":1}}');
    expect(toJsonString(fromJson(text), 2)).toContain('"f:a\\u0041": {},');
  });
});

describe("indentation and the fixtures", () => {
  const fixtures = currentFolders().flatMap((folder) =>
    loadFixtures(folder).map((fx) => [`${folder}/${fx.kind}`, fx] as const),
  );

  it.each(fixtures)("%s: toJsonString(decode(pb), 2) is the fixture; compact and other indents agree", (_name, fx) => {
    const o = decode(fx.pb);
    expect(toJsonString(o, 2)).toBe(fx.json);
    const plain = JSON.parse(fx.json) as unknown;
    // The fixtures hold no <, >, & or big numbers, so JSON.stringify agrees with Go here.
    expect(toJsonString(o)).toBe(JSON.stringify(plain));
    expect(toJsonString(o, 4)).toBe(JSON.stringify(plain, null, 4));
    expect(toJsonString(o, "\t")).toBe(JSON.stringify(plain, null, "\t"));
    expect(toJsonString(o)).not.toMatch(/\n/);
    expect(toJsonString(o, 2).endsWith("}")).toBe(true);
    expect(toYaml(o)).toBe(fx.yaml);
    expect(hex(encode(fromJson(fx.json)))).toBe(hex(fx.pb));
    expect(hex(encode(fromJson(plain as never)))).toBe(hex(fx.pb));
  });

  it("any non-negative integer indent is used as given (no cap at 10); others throw RangeError", () => {
    const o = create(IngressClassSchema, { metadata: create(ObjectMetaSchema, { name: "nginx" }) });
    const twelve = toJsonString(o, 12);
    expect(twelve).toBe(toJsonString(o, " ".repeat(12)));
    expect(twelve.split("\n")[1]).toBe(`${" ".repeat(12)}"kind": "IngressClass",`);
    expect(twelve).toContain(`\n${" ".repeat(24)}"name": "nginx"\n`);
    expect(toJsonString(o, 11)).not.toBe(toJsonString(o, 10));
    expect(
      toJsonString(o, 40)
        .split("\n")[1]
        ?.startsWith(`${" ".repeat(40)}"`),
    ).toBe(true);
    // 0 is no indentation at all: the compact form, as without an indent.
    expect(toJsonString(o, 0)).toBe(toJsonString(o));
    for (const bad of [-1, 1.5, -0.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(() => toJsonString(o, bad), String(bad)).toThrow(RangeError);
    }
    expect(() => toJsonString(o, -1)).toThrow(/indent must be a non-negative integer, got -1/);
  });

  it("empty objects and arrays stay {} and [] when indented", () => {
    const o = fromJson(`{${IC},"metadata":{"managedFields":[{"fieldsV1":{"a":[],"b":{}}}]}}`);
    expect(toJsonString(o, 2)).toBe(
      [
        "{",
        '  "kind": "IngressClass",',
        '  "apiVersion": "networking.k8s.io/v1",',
        '  "metadata": {',
        '    "managedFields": [',
        "      {",
        '        "fieldsV1": {',
        '          "a": [],',
        '          "b": {}',
        "        }",
        "      }",
        "    ]",
        "  },",
        '  "spec": {}',
        "}",
      ].join("\n"),
    );
  });

  it("toJson is the plain JSON value of the same text", () => {
    const o = fromJson(
      `{${IC},"metadata":{"name":"a<b","labels":{"__proto__":"p"}},"spec":{"parameters":{"kind":"K","name":"n"}}}`,
    );
    const v = toJson(o) as AnyObj;
    expect(JSON.stringify(v)).toBe(toJsonString(o).replace("\\u003c", "<"));
    expect(Object.getOwnPropertyDescriptor(at(v, "metadata", "labels") as object, "__proto__")?.value).toBe("p");
    expect(toJsonString(fromJson(v as never))).toBe(toJsonString(o));
  });

  it("create()-built objects print like decoded ones", () => {
    const o = create(IngressClassSchema, {
      metadata: create(ObjectMetaSchema, { name: "nginx", labels: { b: "2", a: "1" } }),
    });
    expect(toJsonString(o)).toBe(`{${IC},"metadata":{"name":"nginx","labels":{"a":"1","b":"2"}},"spec":{}}`);
  });
});
