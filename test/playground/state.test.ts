// The URL-hash state: a round trip, and a hash that cannot be trusted (mangled,
// wrong types, a deflate bomb) opens the default page instead.
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  HASH_PREFIX,
  MAX_STATE_BYTES,
  decodeState,
  encodeState,
  type PlaygroundState,
} from "../../src/playground/state.js";

const DEFAULTS: PlaygroundState = {
  input: "kind: Ingress\n",
  old: "",
  operation: "create",
  namespace: "default",
  gates: { StrictIPCIDRValidation: false, RelaxedServiceNameValidation: false },
  host: "",
  path: "/",
  controller: "",
  tab: "json",
  cluster: "",
  reachProtocol: "TCP",
  reachPort: "80",
};

const hashOf = (value: unknown) =>
  HASH_PREFIX + deflateRawSync(Buffer.from(JSON.stringify(value))).toString("base64url");

describe("URL hash state", () => {
  it("round-trips the whole state, text of any kind included", async () => {
    const state: PlaygroundState = {
      input: "a: \u00e9\u{1F600}\n---\nb: [1, 2]\n".repeat(200),
      old: "old: 1",
      operation: "status",
      namespace: "shop",
      gates: { StrictIPCIDRValidation: true, RelaxedServiceNameValidation: false },
      host: "Shop.Example.com:8443",
      path: "/cart?x=1#y",
      controller: "k8s.io/ingress-nginx",
      tab: "wire",
      cluster: "namespaces: []\n",
      reachProtocol: "UDP",
      reachPort: "53",
    };
    const hash = await encodeState(state);
    expect(hash.startsWith(HASH_PREFIX)).toBe(true);
    expect(hash).toMatch(/^#s=[A-Za-z0-9_-]+$/);
    expect(hash.length).toBeLessThan(JSON.stringify(state).length / 4); // it is compressed
    expect(await decodeState(hash, DEFAULTS)).toEqual(state);
    // Node's zlib reads what the page wrote: it is plain deflate-raw in base64url.
    expect(JSON.parse(inflated(hash))).toEqual(state);
  });

  it("ignores a hash it cannot read", async () => {
    for (const hash of ["", "#", "#other", "#s=", "#s=%%%", "#s=AAAA", hashOf([1, 2]), hashOf("text"), hashOf(null)])
      expect(await decodeState(hash, DEFAULTS)).toBeUndefined();
  });

  it("takes each field only when it has the right type and value", async () => {
    const got = await decodeState(
      hashOf({
        input: 3,
        operation: "delete",
        tab: "__proto__",
        reachProtocol: "ICMP",
        gates: { StrictIPCIDRValidation: "yes", Extra: true },
        host: "h",
      }),
      DEFAULTS,
    );
    expect(got).toEqual({ ...DEFAULTS, host: "h" });
  });

  it("refuses a state that inflates past the limit", async () => {
    const bomb = HASH_PREFIX + deflateRawSync(Buffer.alloc(MAX_STATE_BYTES + 1, 0x20)).toString("base64url");
    expect(await decodeState(bomb, DEFAULTS)).toBeUndefined();
  });
});

function inflated(hash: string): string {
  return inflateRawSync(Buffer.from(hash.slice(HASH_PREFIX.length), "base64url")).toString("utf8");
}
