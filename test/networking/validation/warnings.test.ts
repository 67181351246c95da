// warnings(): the API server's warnings for networking.k8s.io/v1 objects,
// against three oracles:
//   1. upstream facts quoted as data: the expected texts of apimachinery's
//      ip_test.go (TestGetWarningsForCIDR, TestGetWarningsForIP) with the field
//      paths the networking strategies use, and the Ingress strategy's
//      deprecated-annotation text (the text users report from kubectl);
//   2. which kinds and operations warn, per the 1.33-1.35 strategies
//      (ingress, networkpolicy, ingressclass, ipaddress, servicecidr);
//   3. a property check whose expectations come from how each input was built
//      (which octets got leading zeros, whether host bits were set, ...) and
//      from ip-num for the canonical text, not from the module's parser.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import ipnum from "ip-num";
import { describe, expect, it } from "vitest";
import {
  apiWarnings,
  fromJson,
  validate,
  warnings,
  type JsonObject,
  type NetworkingObject,
} from "../../../src/networking/index.js";
import { propertyRuns } from "../../support/property-runs.js";

const obj = (json: JsonObject): NetworkingObject => fromJson(json as Parameters<typeof fromJson>[0]);

const policy = (ingressBlocks: JsonObject[], egressBlocks: JsonObject[] = []): NetworkingObject =>
  obj({
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name: "p", namespace: "shop", resourceVersion: "1" },
    spec: {
      podSelector: {},
      ingress: [{ from: ingressBlocks.map((ipBlock) => ({ ipBlock })) }],
      egress: [{ to: egressBlocks.map((ipBlock) => ({ ipBlock })) }],
    },
  });
const cidrWarningsOf = (cidr: string): string[] => warnings(policy([{ cidr }]));

const ingress = (metadata: JsonObject, spec: JsonObject = {}, status?: JsonObject): NetworkingObject =>
  obj({
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: { name: "web", namespace: "shop", resourceVersion: "1", ...metadata },
    spec: { defaultBackend: { service: { name: "web", port: { number: 80 } } }, ...spec },
    ...(status === undefined ? {} : { status }),
  });
const statusWarningsOf = (ips: string[]): string[] => {
  const updated = ingress({}, {}, { loadBalancer: { ingress: ips.map((ip) => ({ ip })) } });
  return warnings(updated, { old: ingress({}), subresource: "status" });
};

const CIDR_PATH = "spec.ingress[0].from[0].ipBlock.cidr";
const ANNOTATION =
  "annotation \"kubernetes.io/ingress.class\" is deprecated, please use 'spec.ingressClassName' instead";

describe("warnings: apimachinery's messages (ip_test.go cases)", () => {
  it.each([
    ["192.12.2.0/24", []],
    ["2001:db8::/64", []],
    [
      "192.012.2.0/24",
      [
        `${CIDR_PATH}: non-standard CIDR value "192.012.2.0/24" will be considered invalid in a future Kubernetes release: use "192.12.2.0/24"`,
      ],
    ],
    [
      "192.12.2.0/024",
      [
        `${CIDR_PATH}: non-standard CIDR value "192.12.2.0/024" will be considered invalid in a future Kubernetes release: use "192.12.2.0/24"`,
      ],
    ],
    [
      "::ffff:192.12.2.0/120",
      [
        `${CIDR_PATH}: non-standard CIDR value "::ffff:192.12.2.0/120" will be considered invalid in a future Kubernetes release: use "192.12.2.0/24"`,
      ],
    ],
    [
      "192.12.2.8/24",
      [
        `${CIDR_PATH}: CIDR value "192.12.2.8/24" is ambiguous in this context (should be "192.12.2.0/24" or "192.12.2.8/32"?)`,
      ],
    ],
    [
      "192.012.2.8/24",
      [
        `${CIDR_PATH}: CIDR value "192.012.2.8/24" is ambiguous in this context (should be "192.12.2.0/24" or "192.12.2.8/32"?)`,
        `${CIDR_PATH}: non-standard CIDR value "192.012.2.8/24" will be considered invalid in a future Kubernetes release: use "192.12.2.0/24"`,
      ],
    ],
    [
      "2001:db8:0:0::/64",
      [`${CIDR_PATH}: IPv6 CIDR value "2001:db8:0:0::/64" should be in RFC 5952 canonical format ("2001:db8::/64")`],
    ],
  ])("GetWarningsForCIDR(%j)", (cidr, expected) => {
    expect(cidrWarningsOf(cidr)).toEqual(expected);
  });

  const IP_PATH = "status.loadBalancer.ingress[0]";
  it.each([
    ["192.12.2.2", []],
    ["2001:db8::2", []],
    [
      "192.012.2.2",
      [
        `${IP_PATH}: non-standard IP address "192.012.2.2" will be considered invalid in a future Kubernetes release: use "192.12.2.2"`,
      ],
    ],
    [
      "::ffff:192.12.2.2",
      [
        `${IP_PATH}: non-standard IP address "::ffff:192.12.2.2" will be considered invalid in a future Kubernetes release: use "192.12.2.2"`,
      ],
    ],
    [
      "2001:db8:0:0::2",
      [`${IP_PATH}: IPv6 address "2001:db8:0:0::2" should be in RFC 5952 canonical format ("2001:db8::2")`],
    ],
  ])("GetWarningsForIP(%j)", (ip, expected) => {
    expect(statusWarningsOf([ip])).toEqual(expected);
  });

  it("gives nothing for a value the sloppy parser refuses (a ratcheted invalid value): the API server only logs it", () => {
    for (const bad of ["", "abc", "1.2.3.4", "10.0.0.0/33", "1.2.3.400/8", "fe80::1%eth0/64"]) {
      expect(cidrWarningsOf(bad)).toEqual([]);
    }
    expect(statusWarningsOf(["not-an-ip", "1.2.3.0/24", "[::1]", ""])).toEqual([]);
  });
});

describe("warnings: which kinds and operations warn (1.33-1.35 strategies)", () => {
  it("NetworkPolicy: every ipBlock cidr and except, ingress rules before egress, on create", () => {
    const np = policy(
      [{ cidr: "10.0.0.0/8", except: ["10.1.0.1/16", "10.2.0.0/16"] }, { cidr: "fd00::0/8" }],
      [{ cidr: "010.0.0.0/8" }],
    );
    expect(warnings(np)).toEqual([
      'spec.ingress[0].from[0].ipBlock.except[0]: CIDR value "10.1.0.1/16" is ambiguous in this context (should be "10.1.0.0/16" or "10.1.0.1/32"?)',
      'spec.ingress[0].from[1].ipBlock.cidr: IPv6 CIDR value "fd00::0/8" should be in RFC 5952 canonical format ("fd00::/8")',
      'spec.egress[0].to[0].ipBlock.cidr: non-standard CIDR value "010.0.0.0/8" will be considered invalid in a future Kubernetes release: use "10.0.0.0/8"',
    ]);
    expect(validate(np, { namespace: "shop" })).toEqual([]);
  });

  it("NetworkPolicy: on update, the whole new object warns, unchanged values included", () => {
    const np = policy([{ cidr: "10.0.0.1/8" }]);
    expect(warnings(np, { old: np })).toEqual([
      `${CIDR_PATH}: CIDR value "10.0.0.1/8" is ambiguous in this context (should be "10.0.0.0/8" or "10.0.0.1/32"?)`,
    ]);
    expect(warnings(policy([{ cidr: "10.0.0.0/8" }]), { old: np })).toEqual([]);
  });

  it("Ingress create: the class annotation without spec.ingressClassName, whatever its value", () => {
    expect(warnings(ingress({ annotations: { "kubernetes.io/ingress.class": "nginx" } }))).toEqual([ANNOTATION]);
    expect(warnings(ingress({ annotations: { "kubernetes.io/ingress.class": "" } }))).toEqual([ANNOTATION]);
    // A set ingressClassName (even "", a non-nil pointer in Go) or no annotation: nothing.
    expect(
      warnings(ingress({ annotations: { "kubernetes.io/ingress.class": "a" } }, { ingressClassName: "a" })),
    ).toEqual([]);
    expect(
      warnings(ingress({ annotations: { "kubernetes.io/ingress.class": "a" } }, { ingressClassName: "" })),
    ).toEqual([]);
    expect(warnings(ingress({ annotations: { "kubernetes.io/ingress-class": "a" } }))).toEqual([]);
    expect(warnings(ingress({}))).toEqual([]);
    const bare = obj({ apiVersion: "networking.k8s.io/v1", kind: "Ingress", metadata: { name: "x" } });
    expect(warnings(bare)).toEqual([]);
    const noSpec = obj({
      apiVersion: "networking.k8s.io/v1",
      kind: "Ingress",
      metadata: { name: "x", annotations: { "kubernetes.io/ingress.class": "a" } },
    });
    expect(warnings(noSpec)).toEqual([ANNOTATION]);
    expect(apiWarnings(noSpec)).toEqual([{ field: "metadata.annotations", text: ANNOTATION }]);
  });

  it("Ingress update of the main resource: nothing, not even for the annotation or the sent status", () => {
    const annotated = ingress(
      { annotations: { "kubernetes.io/ingress.class": "nginx" } },
      {},
      { loadBalancer: { ingress: [{ ip: "010.0.0.1" }] } },
    );
    expect(warnings(annotated, { old: annotated })).toEqual([]);
  });

  it("Ingress status update: each non-empty load-balancer IP, at the entry's path", () => {
    expect(statusWarningsOf(["1.2.3.4", "", "001.2.3.4", "FE80::1"])).toEqual([
      'status.loadBalancer.ingress[2]: non-standard IP address "001.2.3.4" will be considered invalid in a future Kubernetes release: use "1.2.3.4"',
      'status.loadBalancer.ingress[3]: IPv6 address "FE80::1" should be in RFC 5952 canonical format ("fe80::1")',
    ]);
  });

  it("IngressClass, IPAddress and ServiceCIDR: nothing (the last two refuse non-canonical values outright)", () => {
    const cidr = obj({
      apiVersion: "networking.k8s.io/v1",
      kind: "ServiceCIDR",
      metadata: { name: "c" },
      spec: { cidrs: ["2001:db8:0:0::/64"] },
    });
    expect(warnings(cidr)).toEqual([]);
    expect(validate(cidr).map((e) => e.field)).toEqual(["spec.cidrs[0]"]);
    expect(warnings(cidr, { old: cidr, subresource: "status" })).toEqual([]);
    const address = obj({
      apiVersion: "networking.k8s.io/v1",
      kind: "IPAddress",
      metadata: { name: "2001:db8:0:0::1" },
      spec: { parentRef: { resource: "services", name: "s", namespace: "d" } },
    });
    expect(warnings(address)).toEqual([]);
    const cls = obj({
      apiVersion: "networking.k8s.io/v1",
      kind: "IngressClass",
      metadata: { name: "c", annotations: { "kubernetes.io/ingress.class": "x" } },
      spec: { controller: "a.io/b" },
    });
    expect(warnings(cls)).toEqual([]);
  });

  it("refuses a list and inconsistent options with a TypeError, as validate() does", () => {
    const list = obj({ apiVersion: "networking.k8s.io/v1", kind: "NetworkPolicyList", items: [] });
    expect(() => warnings(list)).toThrow(TypeError);
    expect(() => warnings(policy([]), { old: ingress({}) })).toThrow(/options.old is a Ingress/);
    expect(() => warnings(policy([]), { old: policy([]), subresource: "status" })).toThrow(/no status subresource/);
    expect(() => warnings(ingress({}), { subresource: "status" })).toThrow(/needs options.old/);
  });
});

// ================================================================= Go oracle
//
// test/support/golden/ip-warnings.json: values and the warnings
// scripts/warnings-oracle gives for them on Go's own net and net/netip
// (regenerate with scripts/warnings-golden.mjs where Go is installed).

interface GoldenWarning {
  readonly kind: "ip" | "cidr";
  readonly value: string;
  readonly warnings: readonly string[];
}

describe("warnings: differential against Go's net and net/netip (golden file)", () => {
  const golden = JSON.parse(
    readFileSync(fileURLToPath(new URL("../../support/golden/ip-warnings.json", import.meta.url)), "utf8"),
  ) as GoldenWarning[];

  it("covers every kind of warning, and values without any", () => {
    const texts = golden.flatMap((g) => g.warnings);
    for (const kind of ["is ambiguous", "non-standard CIDR", "IPv6 CIDR value", "non-standard IP", "IPv6 address"]) {
      expect(texts.filter((t) => t.includes(kind)).length).toBeGreaterThan(20);
    }
    expect(golden.filter((g) => g.warnings.length === 0).length).toBeGreaterThan(100);
  });

  it("agrees on every value", () => {
    const disagreements: string[] = [];
    for (const g of golden) {
      const path = g.kind === "ip" ? "status.loadBalancer.ingress[0]" : CIDR_PATH;
      const expected = g.warnings.map((w) => `${path}${w.slice(1)}`);
      const got = g.kind === "ip" ? statusWarningsOf([g.value]) : cidrWarningsOf(g.value);
      if (JSON.stringify(got) !== JSON.stringify(expected)) {
        disagreements.push(
          `${g.kind} ${JSON.stringify(g.value)}: got ${JSON.stringify(got)}, Go ${JSON.stringify(expected)}`,
        );
      }
    }
    expect(disagreements).toEqual([]);
  });
});

// ============================================================== properties
//
// Each input is built from parts, and the parts say which warnings it must
// draw: the builder knows whether it wrote a leading zero, set a host bit,
// used the IPv4-mapped form or a non-canonical IPv6 spelling. The canonical
// text comes from ip-num (collapseIPv6Number, fed lower case hex).

const { collapseIPv6Number } = ipnum;

interface Built {
  readonly text: string;
  /** The 128-bit value (IPv4 as ::ffff:a.b.c.d, as Go stores it). */
  readonly value: bigint;
  readonly mapped: boolean;
  readonly v4: boolean;
  /** Some octet or hex field is written in a form net/netip refuses. */
  readonly nonStandard: boolean;
}

const V4_PREFIX = 0xffffn << 32n;

const octetText = fc
  .tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 2 }))
  .map(([n, zeros]) => ({ n, text: "0".repeat(zeros) + String(n) }));

const v4Text = fc.array(octetText, { minLength: 4, maxLength: 4 }).map((octets) => ({
  text: octets.map((o) => o.text).join("."),
  n: octets.reduce((acc, o) => acc * 256 + o.n, 0),
  leadingZero: octets.some((o) => o.text.length > 1 && o.text.startsWith("0")),
}));

const built: fc.Arbitrary<Built> = fc.oneof(
  v4Text.map((v) => ({
    text: v.text,
    value: V4_PREFIX | BigInt(v.n),
    mapped: false,
    v4: true,
    nonStandard: v.leadingZero,
  })),
  // IPv4-mapped IPv6 with a dotted tail.
  fc.tuple(v4Text, fc.boolean()).map(([v, upper]) => ({
    text: `::${upper ? "FFFF" : "ffff"}:${v.text}`,
    value: V4_PREFIX | BigInt(v.n),
    mapped: true,
    v4: false,
    nonStandard: true,
  })),
  // IPv6: eight fields, some zero, written in hex of 1 to 5 digits, either case, with or without "::".
  fc
    .tuple(
      fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff })), { minLength: 8, maxLength: 8 }),
      fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.boolean()), { minLength: 8, maxLength: 8 }),
      fc.nat(),
    )
    .filter(([fields]) => !(fields.slice(0, 5).every((f) => f === 0) && fields[5] === 0xffff))
    .map(([fields, styles, pick]) => {
      const written = fields.map((f, i) => {
        const [pad, upper] = styles[i]!;
        const hex = f.toString(16);
        const padded = "0".repeat(Math.min(pad, 5 - hex.length)) + hex;
        return upper ? padded.toUpperCase() : padded;
      });
      // Zero runs that "::" may stand for (one field or more), or none.
      const zeroRuns: [number, number][] = [];
      for (let i = 0; i < 8; i++) {
        if (fields[i] !== 0) continue;
        for (let j = i; j < 8 && fields[j] === 0; j++) zeroRuns.push([i, j + 1]);
      }
      const run = pick % (zeroRuns.length + 1) === zeroRuns.length ? undefined : zeroRuns[pick % (zeroRuns.length + 1)];
      const text =
        run === undefined
          ? written.join(":")
          : `${written.slice(0, run[0]).join(":")}::${written.slice(run[1]).join(":")}`;
      return {
        text,
        value: fields.reduce((acc, f) => (acc << 16n) | BigInt(f), 0n),
        mapped: false,
        v4: false,
        nonStandard: written.some((w) => w.length > 4),
      };
    }),
);

const hex8 = (v: bigint): string[] =>
  Array.from({ length: 8 }, (_, i) => ((v >> BigInt(112 - 16 * i)) & 0xffffn).toString(16));
const dotted = (v: bigint): string => [24n, 16n, 8n, 0n].map((s) => ((v >> s) & 0xffn).toString()).join(".");
const isMapped = (v: bigint): boolean => v >> 32n === 0xffffn;
/** Go's net.IP text: dotted for IPv4 and IPv4-mapped values, RFC 5952 otherwise. */
const goText = (v: bigint): string => (isMapped(v) ? dotted(v) : collapseIPv6Number(hex8(v).join(":")));

describe("warnings: property checks against how each value was written", () => {
  it("IP addresses (Ingress status): non-standard, RFC 5952, or nothing", () => {
    fc.assert(
      fc.property(built, (ip) => {
        const got = statusWarningsOf([ip.text]);
        const canonical = goText(ip.value);
        const path = "status.loadBalancer.ingress[0]";
        if (ip.nonStandard || ip.mapped) {
          expect(got).toEqual([
            `${path}: non-standard IP address "${ip.text}" will be considered invalid in a future Kubernetes release: use "${canonical}"`,
          ]);
        } else if (!ip.v4 && ip.text !== canonical) {
          expect(got).toEqual([
            `${path}: IPv6 address "${ip.text}" should be in RFC 5952 canonical format ("${canonical}")`,
          ]);
        } else {
          expect(got).toEqual([]);
        }
      }),
      { numRuns: propertyRuns(1000) },
    );
  });

  it("CIDRs (NetworkPolicy ipBlock): ambiguous, non-standard, RFC 5952, in upstream's order", () => {
    const cidr = fc.tuple(built, fc.nat(), fc.boolean(), fc.boolean()).map(([ip, p, clearHost, zeroPad]) => {
      // Go reads dotted text against 32 bits, IPv6 text (mapped included) against 128.
      const bits = ip.v4 ? 32 : 128;
      const prefix = p % (bits + 1);
      const hostMask = (1n << BigInt(bits - prefix)) - 1n;
      // Clearing the host bits can change the address, so clear them only in values written canonically.
      const value = clearHost && !ip.nonStandard && !ip.mapped ? ip.value & ~hostMask : ip.value;
      const base = value === ip.value ? ip : { ...ip, text: goText(value), value };
      const prefixText = zeroPad ? `0${prefix}` : String(prefix);
      return { ip: base, prefix, bits, hostMask, text: `${base.text}/${prefixText}`, zeroPad };
    });
    fc.assert(
      fc.property(cidr, (c) => {
        const network = c.ip.value & ~c.hostMask;
        // The network in Go's text: a mapped network of 96 bits or more prints as IPv4.
        const networkText = c.ip.v4
          ? `${dotted(network)}/${c.prefix}`
          : isMapped(network)
            ? `${dotted(network)}/${c.prefix - 96}`
            : `${collapseIPv6Number(hex8(network).join(":"))}/${c.prefix}`;
        const expected: string[] = [];
        if ((c.ip.value & c.hostMask) !== 0n) {
          expected.push(
            `${CIDR_PATH}: CIDR value "${c.text}" is ambiguous in this context (should be "${networkText}" or "${goText(c.ip.value)}/${c.bits}"?)`,
          );
        }
        if (c.ip.nonStandard || c.ip.mapped || c.zeroPad) {
          expected.push(
            `${CIDR_PATH}: non-standard CIDR value "${c.text}" will be considered invalid in a future Kubernetes release: use "${networkText}"`,
          );
        }
        if (expected.length === 0 && !c.ip.v4 && c.text !== networkText) {
          expected.push(
            `${CIDR_PATH}: IPv6 CIDR value "${c.text}" should be in RFC 5952 canonical format ("${networkText}")`,
          );
        }
        expect(cidrWarningsOf(c.text)).toEqual(expected);
      }),
      { numRuns: propertyRuns(1000) },
    );
  });
});
