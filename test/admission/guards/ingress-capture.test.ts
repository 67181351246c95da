import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IngressCaptureIndex, type CaptureConflict } from "../../../src/admission/guards/ingress-capture.js";
import { fromJson, type Ingress, type IngressClass, type JsonObject } from "../../../src/networking/index.js";
import { arbRoutingInputJson, LARGE_ROUTING, SMALL_ROUTING } from "../../../src/testing/index.js";
import {
  referenceCaptures,
  referenceWorlds,
  type ReferenceScoping,
} from "../../support/admission/capture-reference.js";
import { propertyRuns } from "../../support/property-runs.js";

// biome-ignore lint/suspicious/noExplicitAny: fixtures are read and spoiled through deep paths; unknown would need a cast at every step
type J = Record<string, any>;

const svc = (name: string): J => ({ service: { name, port: { number: 80 } } });
const path = (p: string, pathType = "Prefix", backend = "web"): J => ({ path: p, pathType, backend: svc(backend) });

/** An Ingress as JSON: `rules` as [host, paths]; host "" for none. */
function ingJson(key: string, rules: [string, J[] | null][], extra: { created?: string; spec?: J; meta?: J } = {}): J {
  const [namespace, name] = key.split("/");
  const spec: J = {
    rules: rules.map(([host, paths]) => ({
      ...(host === "" ? {} : { host }),
      ...(paths === null ? {} : { http: { paths } }),
    })),
    ...extra.spec,
  };
  if (spec["rules"].length === 0) delete spec["rules"];
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: { name, namespace, creationTimestamp: extra.created ?? "2024-01-01T00:00:00Z", ...extra.meta },
    spec,
  };
}

const decode = (o: J): Ingress => fromJson(o as JsonObject) as Ingress;

function indexOf(list: J[], defaultClass?: string): IngressCaptureIndex {
  const index = new IngressCaptureIndex(defaultClass === undefined ? {} : { defaultClass });
  index.replaceAll(list.map(decode));
  return index;
}

const victims = (c: readonly CaptureConflict[]): string[] => c.map((x) => x.victim).sort();

describe("IngressCaptureIndex.check: the forms of capture", () => {
  const shop = ingJson("shop/web", [["shop.example.com", [path("/"), path("/api", "Prefix", "api")]]]);

  it("refuses the same host and path in another namespace, even when the existing one is older", () => {
    const index = indexOf([shop]);
    const cand = ingJson("evil/web", [["shop.example.com", [path("/api")]]], { created: "2025-06-01T00:00:00Z" });
    const [c, ...rest] = index.check(decode(cand));
    expect(rest).toEqual([]);
    expect(c).toEqual({
      victim: "shop/web",
      request: { host: "shop.example.com", path: "/api" },
      victimRule: { rule: 0, path: 1, host: "shop.example.com", value: "/api", pathType: "Prefix" },
      candidateRule: { rule: 0, path: 0, host: "shop.example.com", value: "/api", pathType: "Prefix" },
    });
  });

  it("refuses a more specific path on someone else's host; allows it in the same namespace", () => {
    const index = indexOf([shop]);
    const cand = ingJson("evil/web", [["shop.example.com", [path("/api/v2", "Exact")]]]);
    expect(victims(index.check(decode(cand)))).toEqual(["shop/web"]);
    const own = ingJson("shop/other", [["shop.example.com", [path("/api/v2", "Exact")]]]);
    expect(index.check(decode(own))).toEqual([]);
  });

  it("allows a less specific path that loses every request it could match", () => {
    const index = indexOf([ingJson("shop/web", [["shop.example.com", [path("/", "Prefix")]]])]);
    // An Exact "/" beats the Prefix "/" only for the request "/" itself: that is a capture.
    expect(victims(index.check(decode(ingJson("evil/x", [["shop.example.com", [path("/", "Exact")]]]))))).toEqual([
      "shop/web",
    ]);
    // A different host takes nothing.
    expect(index.check(decode(ingJson("evil/x", [["other.example.com", [path("/api")]]])))).toEqual([]);
  });

  it("refuses a wildcard over another namespace's wildcard, never over a precisely named host (R4)", () => {
    const wild = ingJson("team/wild", [["*.example.com", [path("/")]]]);
    const index = indexOf([shop, wild]);
    const cand = ingJson("evil/w", [["*.example.com", [path("/login")]]]);
    const conflicts = index.check(decode(cand));
    expect(victims(conflicts)).toEqual(["team/wild"]);
    expect(conflicts[0]?.request.host.endsWith(".example.com")).toBe(true);
    // Without the other wildcard, *.example.com takes nothing from shop.example.com.
    expect(indexOf([shop]).check(decode(cand))).toEqual([]);
  });

  it("refuses a precise host under another namespace's wildcard, naming the rule that takes the host", () => {
    const wild = ingJson("team/wild", [["*.example.com", [path("/")]]]);
    const cand = ingJson("evil/p", [
      ["other.test", [path("/")]],
      ["pay.example.com", [path("/x", "Exact")]],
    ]);
    const [c] = indexOf([wild]).check(decode(cand));
    expect(c?.victim).toBe("team/wild");
    expect(c?.request.host).toBe("pay.example.com");
    // A request to /x goes to the candidate's path; any other path to the 404 the new tier leaves (R9).
    expect(c?.candidateRule.rule).toBe(1);
  });

  it("does not protect catch-alls: a host taken out of another namespace's host-less rules or global defaultBackend", () => {
    const catchAll = ingJson("infra/catch", [["", [path("/")]]], { spec: { defaultBackend: svc("fallback") } });
    const index = indexOf([catchAll]);
    expect(index.check(decode(ingJson("app/web", [["app.example.com", [path("/")]]])))).toEqual([]);
    // Competing inside the host-less tier is a capture.
    expect(victims(index.check(decode(ingJson("app/web", [["", [path("/app")]]]))))).toEqual(["infra/catch"]);
  });

  it("refuses a defaultBackend that would answer another namespace's host in its place (R9.1)", () => {
    const tierDefault = ingJson("shop/web", [["shop.example.com", [path("/api", "Exact")]]], {
      spec: { defaultBackend: svc("shop-default") },
    });
    const index = indexOf([tierDefault]);
    const cand = ingJson("evil/d", [["shop.example.com", null]], { spec: { defaultBackend: svc("evil") } });
    const [c] = index.check(decode(cand));
    expect(c?.victim).toBe("shop/web");
    expect(c?.victimRule.rule).toBeNull();
    expect(c?.candidateRule.rule).toBeNull();
    // Without rules on that host, the candidate's defaultBackend is only a global catch-all (R9.2): allowed.
    expect(index.check(decode(ingJson("evil/d", [], { spec: { defaultBackend: svc("evil") } })))).toEqual([]);
  });

  it("scopes by class: other classes do not compete; no class means the default class", () => {
    const nginx = ingJson("shop/web", [["shop.example.com", [path("/")]]], { spec: { ingressClassName: "nginx" } });
    const cand = (cls: J): J => ingJson("evil/x", [["shop.example.com", [path("/")]]], cls);
    expect(indexOf([nginx]).check(decode(cand({ spec: { ingressClassName: "traefik" } })))).toEqual([]);
    expect(victims(indexOf([nginx]).check(decode(cand({ spec: { ingressClassName: "nginx" } }))))).toEqual([
      "shop/web",
    ]);
    const annotated = cand({ meta: { annotations: { "kubernetes.io/ingress.class": "nginx" } } });
    expect(victims(indexOf([nginx]).check(decode(annotated)))).toEqual(["shop/web"]);
    expect(indexOf([nginx]).check(decode(cand({})))).toEqual([]);
    expect(victims(indexOf([nginx], "nginx").check(decode(cand({}))))).toEqual(["shop/web"]);
  });

  it("by controller: two classes of one controller compete, and class changes scope the index again", () => {
    const cls = (name: string, controller: string, isDefault = false): IngressClass =>
      fromJson({
        apiVersion: "networking.k8s.io/v1",
        kind: "IngressClass",
        metadata: isDefault
          ? { name, annotations: { "ingressclass.kubernetes.io/is-default-class": "true" } }
          : { name },
        spec: { controller },
      } as JsonObject) as IngressClass;
    const shopNginx = ingJson("shop/web", [["shop.example.com", [path("/")]]], { spec: { ingressClassName: "nginx" } });
    const cand = (cls: J): Ingress => decode(ingJson("evil/x", [["shop.example.com", [path("/")]]], cls));
    const index = new IngressCaptureIndex({ byController: true });
    index.replaceAll([decode(shopNginx)]);
    expect(index.synced).toBe(false);
    index.replaceClasses([cls("nginx", "k8s.io/ingress-nginx"), cls("nginx-internal", "k8s.io/ingress-nginx")]);
    expect(index.synced).toBe(true);
    expect(victims(index.check(cand({ spec: { ingressClassName: "nginx-internal" } })))).toEqual(["shop/web"]);
    // Another controller's class, and no class while no class is the default: no competition.
    index.setClass(cls("traefik", "traefik.io/ingress-controller"));
    expect(index.check(cand({ spec: { ingressClassName: "traefik" } }))).toEqual([]);
    expect(index.check(cand({}))).toEqual([]);
    // Once nginx-internal is the default, an Ingress without a class is nginx's too.
    index.setClass(cls("nginx-internal", "k8s.io/ingress-nginx", true));
    expect(victims(index.check(cand({})))).toEqual(["shop/web"]);
    // A class without an IngressClass object is a scope of its own, not "unguarded".
    index.removeClass("nginx");
    expect(index.check(cand({ spec: { ingressClassName: "nginx-internal" } }))).toEqual([]);
    expect(victims(index.check(cand({ spec: { ingressClassName: "nginx" } })))).toEqual(["shop/web"]);
  });

  it("never conflicts with its own earlier version, and follows updates and deletes", () => {
    const index = indexOf([shop]);
    const update = ingJson("shop/web", [["shop.example.com", [path("/", "Exact")]]]);
    expect(index.check(decode(update))).toEqual([]);
    const cand = decode(ingJson("evil/web", [["shop.example.com", [path("/api")]]]));
    expect(index.check(cand)).toHaveLength(1);
    index.set(decode(ingJson("shop/web", [["moved.example.com", [path("/")]]])));
    expect(index.check(cand)).toEqual([]);
    index.set(decode(shop));
    index.remove("shop", "web");
    expect(index.check(cand)).toEqual([]);
    expect(index.size).toBe(0);
  });

  it("relists: keeps unchanged objects, takes changed ones (new resourceVersion), drops the missing", () => {
    const at = (o: J, rv: string): Ingress => {
      const c = structuredClone(o);
      c.metadata.resourceVersion = rv;
      return decode(c);
    };
    const pay = ingJson("pay/api", [["pay.example.com", [path("/")]]]);
    const index = new IngressCaptureIndex();
    index.replaceAll([at(shop, "1"), at(pay, "2")]);
    const onShop = decode(ingJson("evil/x", [["shop.example.com", [path("/", "Exact")]]]));
    const onMoved = decode(ingJson("evil/x", [["moved.example.com", [path("/", "Exact")]]]));
    const onPay = decode(ingJson("evil/x", [["pay.example.com", [path("/", "Exact")]]]));
    expect(victims(index.check(onShop))).toEqual(["shop/web"]);
    const moved = ingJson("shop/web", [["moved.example.com", [path("/")]]]);
    index.replaceAll([at(moved, "3")]);
    expect(index.check(onShop)).toEqual([]);
    expect(victims(index.check(onMoved))).toEqual(["shop/web"]);
    expect(index.check(onPay)).toEqual([]);
    index.replaceAll([at(moved, "3"), at(pay, "4")]);
    expect(victims(index.check(onMoved))).toEqual(["shop/web"]);
    expect(victims(index.check(onPay))).toEqual(["pay/api"]);
    expect(index.size).toBe(2);
  });

  it("is synced only after a full list, and leaves out Ingresses validate() rejects", () => {
    const index = new IngressCaptureIndex();
    expect(index.synced).toBe(false);
    index.set(decode(shop));
    expect(index.synced).toBe(false);
    const invalid = structuredClone(shop);
    invalid.metadata.name = "bad";
    invalid.spec.rules[0].http.paths[0].path = "relative";
    index.replaceAll([decode(shop), decode(invalid)]);
    expect(index.synced).toBe(true);
    expect(index.size).toBe(1);
  });
});

// ------------------------------------------------------------------ against the reference

/** Checks the fast answer against the routers: the same victims, and each witness request really taken. */
function agree(existing: JsonObject[], candidate: JsonObject, scoping: ReferenceScoping): number {
  const index =
    "defaultClass" in scoping
      ? new IngressCaptureIndex({ defaultClass: scoping.defaultClass })
      : new IngressCaptureIndex({ byController: true });
  if ("classes" in scoping) index.replaceClasses(scoping.classes.map((c) => fromJson(c) as IngressClass));
  index.replaceAll(existing.map(decode));
  expect(index.synced).toBe(true);
  const got = index.check(decode(candidate));
  const want = referenceCaptures(existing, candidate, scoping);
  expect(victims(got), JSON.stringify({ want: [...want.values()].map((l) => l[0]) })).toEqual([...want.keys()].sort());
  const { pairs } = referenceWorlds(existing, candidate, scoping);
  const self = `${(candidate as J)["metadata"]["namespace"]}/${(candidate as J)["metadata"]["name"]}`;
  for (const c of got) {
    // The witness is taken in the world of one of the controllers serving the candidate.
    const witnessed = pairs.some(({ before, after }) => {
      const b = before.route(c.request);
      const a = after.route(c.request);
      if (b?.ingress !== c.victim || (b.rule ?? null) !== c.victimRule.rule || (b.path ?? null) !== c.victimRule.path) {
        return false;
      }
      if (a?.ingress === c.victim) return false;
      if (c.candidateRule.path === null) return true;
      return a?.ingress === self && a.rule === c.candidateRule.rule && a.path === c.candidateRule.path;
    });
    expect(witnessed, JSON.stringify(c)).toBe(true);
  }
  return got.length;
}

describe("IngressCaptureIndex.check agrees with routers built before and after the candidate", () => {
  const arbCase = (sizes: typeof SMALL_ROUTING) =>
    fc.record({
      existing: arbRoutingInputJson(sizes).map((j) => j.ingresses),
      candidate: arbRoutingInputJson(sizes).map((j) => j.ingresses[0]!),
      scoping: fc.oneof(
        fc.constantFrom("ours", "theirs").map((defaultClass): ReferenceScoping => ({ defaultClass })),
        arbRoutingInputJson(SMALL_ROUTING).map((j): ReferenceScoping => ({ classes: j.classes ?? [] })),
      ),
    });

  it("small colliding inputs: wildcards, Exact/Prefix/ImplementationSpecific, default backends, classes, updates", () => {
    let conflicts = 0;
    let updates = 0;
    let byController = 0;
    fc.assert(
      fc.property(arbCase(SMALL_ROUTING), ({ existing, candidate, scoping }) => {
        const key = (o: J) => `${o["metadata"]["namespace"]}/${o["metadata"]["name"]}`;
        if (existing.some((o) => key(o) === key(candidate))) updates++;
        const n = agree(existing, candidate, scoping);
        conflicts += n > 0 ? 1 : 0;
        if (n > 0 && "classes" in scoping && scoping.classes.length > 0) byController++;
      }),
      { numRuns: propertyRuns(500) },
    );
    // The property saw both answers and updates of an existing name.
    expect(conflicts).toBeGreaterThan(20);
    expect(updates).toBeGreaterThan(20);
    expect(byController).toBeGreaterThan(3);
  });

  it("large tiers", () => {
    fc.assert(
      fc.property(arbCase(LARGE_ROUTING), ({ existing, candidate, scoping }) => {
        agree(existing, candidate, scoping);
      }),
      { numRuns: propertyRuns(60) },
    );
  });
});

describe("IngressCaptureIndex kept current by events", () => {
  it("answers after set and remove as an index listed afresh (its per-tier rankings follow every change)", () => {
    let changed = 0;
    fc.assert(
      fc.property(
        arbRoutingInputJson(SMALL_ROUTING).map((j) => j.ingresses),
        arbRoutingInputJson(SMALL_ROUTING).map((j) => j.ingresses),
        arbRoutingInputJson(SMALL_ROUTING).map((j) => j.ingresses[0]!),
        fc.array(fc.nat(), { maxLength: 3 }),
        (first, events, candidate, removals) => {
          const live = new IngressCaptureIndex({ defaultClass: "ours" });
          live.replaceAll(first.map(decode));
          // A check first, so that what it builds on demand is there to go stale.
          const initial = live.check(decode(candidate));
          for (const o of events) live.set(decode(o));
          const byKey = new Map<string, J>();
          for (const o of [...first, ...events] as J[])
            byKey.set(`${o["metadata"]["namespace"]}/${o["metadata"]["name"]}`, o);
          for (const r of removals) {
            const key = [...byKey.keys()][r % Math.max(1, byKey.size)];
            if (key === undefined) continue;
            const [ns, name] = key.split("/") as [string, string];
            live.remove(ns, name);
            byKey.delete(key);
          }
          const fresh = new IngressCaptureIndex({ defaultClass: "ours" });
          fresh.replaceAll([...byKey.values()].map(decode));
          const now = live.check(decode(candidate));
          expect(now).toEqual(fresh.check(decode(candidate)));
          if (JSON.stringify(now) !== JSON.stringify(initial)) changed++;
        },
      ),
      { numRuns: propertyRuns(300) },
    );
    // The events changed the answer often enough for the property to mean something.
    expect(changed).toBeGreaterThan(20);
  });
});

describe("IngressCaptureIndex at cluster scale", () => {
  it("answers a huge Ingress: 5,000 paths against 5,000 on the same host", () => {
    const paths = (n: number, shift: number): J[] =>
      Array.from({ length: n }, (_, i) => path(`/a/${i + shift}/x`, i % 2 === 0 ? "Prefix" : "Exact"));
    const index = indexOf([ingJson("shop/big", [["big.example.com", paths(5000, 0)]])]);
    // The candidate's paths are the victim's shifted by 4998: two overlap (same path and type), the rest are new.
    const [c, ...rest] = index.check(decode(ingJson("evil/big", [["big.example.com", paths(5000, 4998)]])));
    expect(rest).toEqual([]);
    expect(c?.victim).toBe("shop/big");
    expect(c?.request.path).toMatch(/^\/a\/499[89]\/x/);
    // Shifted by 4999, the one shared path is Prefix on one side and Exact on the other: Exact wins (R7.2).
    expect(index.check(decode(ingJson("evil/big", [["big.example.com", paths(5000, 4999)]])))).toEqual([]);
    expect(index.check(decode(ingJson("evil/big", [["big.example.com", paths(5000, 5000)]])))).toEqual([]);
  });

  it("answers from the candidate's tiers among 5,000 Ingresses", () => {
    const existing: J[] = [];
    for (let i = 0; i < 5000; i++) {
      existing.push(
        ingJson(`ns-${i % 500}/ing-${i}`, [
          [`app-${i}.example.com`, [path("/"), path(`/api/${i}`, "Exact")]],
          ...(i % 10 === 0 ? ([["*.zone-" + i + ".example.com", [path("/")]]] as [string, J[]][]) : []),
        ]),
      );
    }
    const index = indexOf(existing, "nginx");
    expect(index.size).toBe(5000);
    const cands = [
      ingJson("evil/a", [["app-42.example.com", [path("/api")]]]),
      ingJson("evil/b", [["x.zone-40.example.com", [path("/")]]]),
      ingJson("evil/c", [["fresh.example.com", [path("/")]]]),
    ];
    // The answers are plain from the layout: app-42 owns app-42.example.com, ing-40 the wildcard zone-40.
    expect(victims(index.check(decode(cands[0]!)))).toEqual(["ns-42/ing-42"]);
    expect(victims(index.check(decode(cands[1]!)))).toEqual(["ns-40/ing-40"]);
    expect(index.check(decode(cands[2]!))).toEqual([]);
  });
});
