// NetworkPolicy mutations: one violation each of the NetworkPolicy rules.

import fc from "fast-check";
import { defaultFeatureGates } from "../../networking/index.js";
import { familyBits, formatCidr, hostMask, isV4Mapped, maskAddress, type IPNet } from "../addresses.js";
import { arbIPBlock, arbIPNet, type IPBlockOptions, MAX_V6 } from "../building-blocks/ip.js";
import { arbLabelKey, arbLabelSelector, arbLabelValue } from "../building-blocks/labels.js";
import { arbPortName, arbPortNumber } from "../building-blocks/ports.js";
import type { ValidatedKind, ValidObjectOptions } from "../valid-objects.js";
import {
  type Mutation,
  type Obj,
  REQUIRED,
  INVALID,
  NOT_SUPPORTED,
  FORBIDDEN,
  mutation,
  err,
  ensureObj,
  ensureArr,
  pick,
} from "./mutation.js";
import { metaMutations } from "./metadata.js";
import { BAD_LABEL_KEYS, BAD_LABEL_VALUES, BAD_PORT_NAMES } from "./bad-values.js";

interface ListSite {
  readonly at: string;
  readonly list: Obj[];
  readonly index: number;
}

function policyRules(o: Obj): { dir: "ingress" | "egress"; peers: "from" | "to"; rule: Obj; i: number }[] {
  const spec = ensureObj(o, "spec");
  const out: { dir: "ingress" | "egress"; peers: "from" | "to"; rule: Obj; i: number }[] = [];
  for (const [dir, peers] of [
    ["ingress", "from"],
    ["egress", "to"],
  ] as const) {
    const rules = spec[dir];
    if (Array.isArray(rules)) {
      rules.forEach((rule: Obj, i: number) => {
        out.push({ dir, peers, rule, i });
      });
    }
  }
  return out;
}

/** A port entry chosen by `n` (added to a new ingress rule when there is none). */
/** A policy port whose `port` is one of `values` (numbers out of range or bad names), without endPort. */
function badPolicyPort(name: string, description: string, values: readonly (number | string)[]): Mutation {
  return mutation(name, "NetworkPolicy", description, fc.tuple(fc.nat(), fc.constantFrom(...values)), (o, [n, p]) => {
    const site = policyPortSite(o, n);
    const port = site.list[site.index] as Obj;
    port["port"] = p;
    delete port["endPort"];
    return err(INVALID, `${site.at}.port`);
  });
}

function policyPortSite(o: Obj, n: number): ListSite {
  const sites: ListSite[] = [];
  for (const { dir, rule, i } of policyRules(o)) {
    const ports = rule["ports"];
    if (Array.isArray(ports))
      ports.forEach((_p, k) => {
        sites.push({ at: `spec.${dir}[${i}].ports[${k}]`, list: ports as Obj[], index: k });
      });
  }
  if (sites.length > 0) return pick(sites, n);
  const ingress = ensureArr(ensureObj(o, "spec"), "ingress");
  ingress.push({ ports: [{ port: 80 }] });
  return {
    at: `spec.ingress[${ingress.length - 1}].ports[0]`,
    list: ingress[ingress.length - 1]!["ports"] as Obj[],
    index: 0,
  };
}

/** A peer entry chosen by `n` (added to a new egress rule when there is none). */
function policyPeerSite(o: Obj, n: number): ListSite {
  const sites: ListSite[] = [];
  for (const { dir, peers, rule, i } of policyRules(o)) {
    const list = rule[peers];
    if (Array.isArray(list))
      list.forEach((_p, k) => {
        sites.push({ at: `spec.${dir}[${i}].${peers}[${k}]`, list: list as Obj[], index: k });
      });
  }
  if (sites.length > 0) return pick(sites, n);
  const egress = ensureArr(ensureObj(o, "spec"), "egress");
  egress.push({ to: [{ podSelector: {} }] });
  return { at: `spec.egress[${egress.length - 1}].to[0]`, list: egress[egress.length - 1]!["to"] as Obj[], index: 0 };
}

interface SelectorSite {
  readonly at: string;
  readonly selector: Obj;
}

/** spec.podSelector or a peer's podSelector/namespaceSelector, chosen by `n`. */
function policySelectorSite(o: Obj, n: number): SelectorSite {
  const spec = ensureObj(o, "spec");
  const sites: SelectorSite[] = [{ at: "spec.podSelector", selector: ensureObj(spec, "podSelector") }];
  for (const { dir, peers, rule, i } of policyRules(o)) {
    const list = rule[peers];
    if (!Array.isArray(list)) continue;
    list.forEach((peer: Obj, k: number) => {
      for (const key of ["podSelector", "namespaceSelector"]) {
        const s = peer[key];
        if (s !== null && typeof s === "object")
          sites.push({ at: `spec.${dir}[${i}].${peers}[${k}].${key}`, selector: s as Obj });
      }
    });
  }
  return pick(sites, n);
}

function pushRequirement(site: SelectorSite, req: Obj): string {
  const exprs = ensureArr(site.selector, "matchExpressions");
  exprs.push(req);
  return `${site.at}.matchExpressions[${exprs.length - 1}]`;
}

const BAD_PROTOCOLS = ["", "tcp", "udp", "ICMP", "HTTP", "sctp"];
const BAD_POLICY_PORTS = [0, -1, 65536, 70000, 2147483647, -2147483648];
const BAD_OPERATORS = ["in", "notin", "exists", "Equals", "", "!="];
const BAD_CIDRS = [
  "10.0.0.0/33",
  "192.168.5.6",
  "fd00::",
  "abc",
  "10.0.0.0/-1",
  "fd00::/129",
  "10.0.0/8",
  " 10.0.0.0/8",
  "300.0.0.0/8",
];
const UNPARSEABLE_CIDRS = ["", " ", "300.300.300.300/32", "10.0.0.0", "abc", "::/", "10.0.0.0/8/8"];

/** Legacy CIDR spellings in a valid ipBlock only where the release still accepts them (up to 1.35). */
function legacyFor(options: ValidObjectOptions): IPBlockOptions {
  return { legacy: !defaultFeatureGates(options.version).StrictIPCIDRValidation };
}

/** A network with prefix >= 1 (so an address outside it exists). */
function arbNonRootNet(): fc.Arbitrary<IPNet> {
  return arbIPNet().map((net) =>
    net.prefix > 0 ? net : { ...net, prefix: 1, address: maskAddress(net.family, net.address, 1) },
  );
}

function setIpBlockPeer(o: Obj, n: number, ipBlock: Obj): string {
  const site = policyPeerSite(o, n);
  site.list[site.index] = { ipBlock };
  return `${site.at}.ipBlock`;
}

export function networkPolicyMutations(): Mutation[] {
  const K: ValidatedKind = "NetworkPolicy";
  return [
    mutation(
      "networkpolicy.port.protocol",
      K,
      'protocol NotSupported ("" not defaulted)',
      fc.tuple(fc.nat(), fc.constantFrom(...BAD_PROTOCOLS)),
      (o, [n, p]) => {
        const site = policyPortSite(o, n);
        (site.list[site.index] as Obj)["protocol"] = p;
        return err(NOT_SUPPORTED, `${site.at}.protocol`);
      },
    ),
    badPolicyPort("networkpolicy.port.number-range", "port outside 1-65535", BAD_POLICY_PORTS),
    badPolicyPort("networkpolicy.port.name", 'named port, one failed sub-rule ("80" is a string)', BAD_PORT_NAMES),
    mutation(
      "networkpolicy.port.endPort-with-named-port",
      K,
      "endPort with non-numeric port",
      fc.tuple(fc.nat(), arbPortName(), fc.integer({ min: -5, max: 70000 })),
      (o, [n, name, end]) => {
        const site = policyPortSite(o, n);
        const port = site.list[site.index] as Obj;
        port["port"] = name;
        port["endPort"] = end;
        return err(INVALID, `${site.at}.endPort`);
      },
    ),
    mutation(
      "networkpolicy.port.endPort-without-port",
      K,
      "endPort without port",
      fc.tuple(fc.nat(), fc.integer({ min: -5, max: 70000 })),
      (o, [n, end]) => {
        const site = policyPortSite(o, n);
        const port = site.list[site.index] as Obj;
        delete port["port"];
        port["endPort"] = end;
        return err(INVALID, `${site.at}.endPort`);
      },
    ),
    mutation(
      "networkpolicy.port.endPort-below-port",
      K,
      "endPort < port",
      fc.tuple(fc.nat(), fc.integer({ min: 2, max: 65535 }), fc.nat()),
      (o, [n, p, k]) => {
        const site = policyPortSite(o, n);
        const port = site.list[site.index] as Obj;
        port["port"] = p;
        port["endPort"] = 1 + (k % (p - 1));
        return err(INVALID, `${site.at}.endPort`);
      },
    ),
    mutation(
      "networkpolicy.port.endPort-range",
      K,
      "endPort > 65535 (and >= port)",
      fc.tuple(fc.nat(), arbPortNumber(), fc.integer({ min: 65536, max: 2147483647 })),
      (o, [n, p, end]) => {
        const site = policyPortSite(o, n);
        const port = site.list[site.index] as Obj;
        port["port"] = p;
        port["endPort"] = end;
        return err(INVALID, `${site.at}.endPort`);
      },
    ),
    mutation("networkpolicy.peer.empty", K, "empty peer Required", fc.nat(), (o, n) => {
      const site = policyPeerSite(o, n);
      site.list[site.index] = {};
      return err(REQUIRED, site.at);
    }),
    mutation(
      "networkpolicy.peer.ipBlock-with-selector",
      K,
      "ipBlock with a selector: Forbidden on the peer",
      (v) => fc.tuple(fc.nat(), arbIPBlock(legacyFor(v)), arbLabelSelector(), arbLabelSelector(), fc.nat(2)),
      (o, [n, ipBlock, a, b, which]) => {
        const site = policyPeerSite(o, n);
        const peer: Obj = { ipBlock };
        if (which !== 1) peer["podSelector"] = a;
        if (which !== 0) peer["namespaceSelector"] = b;
        site.list[site.index] = peer;
        return err(FORBIDDEN, site.at);
      },
    ),
    mutation(
      "networkpolicy.ipBlock.cidr-missing",
      K,
      "cidr Required (except not examined)",
      fc.tuple(fc.nat(), fc.array(fc.constantFrom(...UNPARSEABLE_CIDRS), { maxLength: 2 }), fc.boolean()),
      (o, [n, except, explicit]) => {
        const at = setIpBlockPeer(o, n, explicit ? { cidr: "", except } : { except });
        return err(REQUIRED, `${at}.cidr`);
      },
    ),
    mutation(
      "networkpolicy.ipBlock.cidr-invalid",
      K,
      "cidr unparseable (except not examined)",
      fc.tuple(
        fc.nat(),
        fc.constantFrom(...BAD_CIDRS),
        fc.array(fc.constantFrom(...UNPARSEABLE_CIDRS), { maxLength: 2 }),
      ),
      (o, [n, cidr, except]) => {
        const at = setIpBlockPeer(o, n, { cidr, except });
        return err(INVALID, `${at}.cidr`);
      },
    ),
    mutation(
      "networkpolicy.ipBlock.except-unparseable",
      K,
      "except unparseable",
      (v) => fc.tuple(fc.nat(), arbIPBlock(legacyFor(v)), fc.constantFrom(...UNPARSEABLE_CIDRS), fc.nat()),
      (o, [n, block, bad, pos]) => {
        const except = [...((block["except"] as string[] | undefined) ?? [])];
        const k = pos % (except.length + 1);
        except.splice(k, 0, bad);
        const at = setIpBlockPeer(o, n, { cidr: block["cidr"] as string, except });
        return err(INVALID, `${at}.except[${k}]`);
      },
    ),
    mutation(
      "networkpolicy.ipBlock.except-outside",
      K,
      "except outside cidr",
      fc.tuple(fc.nat(), arbNonRootNet(), fc.nat(), fc.nat(), fc.bigInt({ min: 0n, max: MAX_V6 })),
      (o, [n, net, flip, q, raw]) => {
        const bits = familyBits(net.family);
        const bit = flip % net.prefix; // a bit inside the prefix
        const prefix = net.prefix + (q % (bits - net.prefix + 1));
        const outside = maskAddress(
          net.family,
          (net.address | (raw & hostMask(net.family, net.prefix))) ^ (1n << BigInt(bits - 1 - bit)),
          prefix,
        );
        // An IPv4-mapped except would be a different rule in disguise; practically never drawn, replaced by a fixed pair.
        const block =
          net.family === 6 && isV4Mapped(outside)
            ? { cidr: "2001:db8::/32", except: ["2001:db9::/48"] }
            : { cidr: formatCidr(net), except: [formatCidr({ family: net.family, prefix, address: outside })] };
        const at = setIpBlockPeer(o, n, block);
        return err(INVALID, `${at}.except[0]`);
      },
    ),
    mutation(
      "networkpolicy.ipBlock.except-not-narrower",
      K,
      "except prefix <= cidr prefix (equal fails)",
      fc.tuple(fc.nat(), arbIPNet(), fc.nat()),
      (o, [n, net, k]) => {
        const prefix = k % (net.prefix + 1); // 0..cidr prefix: the same network or a supernet
        const except = formatCidr({
          family: net.family,
          prefix,
          address: maskAddress(net.family, net.address, prefix),
        });
        const at = setIpBlockPeer(o, n, { cidr: formatCidr(net), except: [except] });
        return err(INVALID, `${at}.except[0]`);
      },
    ),
    mutation(
      "networkpolicy.ipBlock.except-other-family",
      K,
      "except of the other IP family",
      fc.tuple(fc.nat(), arbIPNet(4), arbIPNet(6), fc.boolean()),
      (o, [n, v4, v6, v4cidr]) => {
        const [cidr, except] = v4cidr ? [v4, v6] : [v6, v4];
        const at = setIpBlockPeer(o, n, { cidr: formatCidr(cidr), except: [formatCidr(except)] });
        return err(INVALID, `${at}.except[0]`);
      },
    ),
    mutation(
      "networkpolicy.selector.operator",
      K,
      "operator Invalid (not NotSupported)",
      fc.tuple(fc.nat(), fc.constantFrom(...BAD_OPERATORS), arbLabelKey(), fc.array(arbLabelValue(), { maxLength: 2 })),
      (o, [n, op, key, values]) => {
        const at = pushRequirement(policySelectorSite(o, n), { key, operator: op, values });
        return err(INVALID, `${at}.operator`);
      },
    ),
    mutation(
      "networkpolicy.selector.values-required",
      K,
      "In/NotIn without values",
      fc.tuple(fc.nat(), fc.constantFrom("In", "NotIn"), arbLabelKey(), fc.boolean()),
      (o, [n, op, key, explicit]) => {
        const at = pushRequirement(
          policySelectorSite(o, n),
          explicit ? { key, operator: op, values: [] } : { key, operator: op },
        );
        return err(REQUIRED, `${at}.values`);
      },
    ),
    mutation(
      "networkpolicy.selector.values-forbidden",
      K,
      "Exists/DoesNotExist with values",
      fc.tuple(
        fc.nat(),
        fc.constantFrom("Exists", "DoesNotExist"),
        arbLabelKey(),
        fc.array(arbLabelValue(), { minLength: 1, maxLength: 2 }),
      ),
      (o, [n, op, key, values]) => {
        const at = pushRequirement(policySelectorSite(o, n), { key, operator: op, values });
        return err(FORBIDDEN, `${at}.values`);
      },
    ),
    mutation(
      "networkpolicy.selector.value",
      K,
      "values[v] label value (1.26+)",
      fc.tuple(
        fc.nat(),
        fc.constantFrom("In", "NotIn"),
        arbLabelKey(),
        fc.array(arbLabelValue(), { maxLength: 2 }),
        fc.constantFrom(...BAD_LABEL_VALUES),
      ),
      (o, [n, op, key, good, bad]) => {
        const values = [...good, bad];
        const at = pushRequirement(policySelectorSite(o, n), { key, operator: op, values });
        return err(INVALID, `${at}.values[${values.length - 1}]`);
      },
    ),
    mutation(
      "networkpolicy.selector.key",
      K,
      "key label-key rule",
      fc.tuple(fc.nat(), fc.constantFrom(...BAD_LABEL_KEYS), fc.constantFrom("Exists", "DoesNotExist")),
      (o, [n, key, op]) => {
        const at = pushRequirement(policySelectorSite(o, n), { key, operator: op });
        return err(INVALID, `${at}.key`);
      },
    ),
    mutation(
      "networkpolicy.selector.matchLabels-value",
      K,
      "matchLabels value (on the map path)",
      fc.tuple(fc.nat(), arbLabelKey(), fc.constantFrom(...BAD_LABEL_VALUES)),
      (o, [n, key, v]) => {
        const site = policySelectorSite(o, n);
        ensureObj(site.selector, "matchLabels")[key] = v;
        return err(INVALID, `${site.at}.matchLabels`);
      },
    ),
    mutation(
      "networkpolicy.selector.matchLabels-key",
      K,
      "matchLabels key (on the map path)",
      fc.tuple(fc.nat(), fc.constantFrom(...BAD_LABEL_KEYS), arbLabelValue()),
      (o, [n, key, v]) => {
        const site = policySelectorSite(o, n);
        ensureObj(site.selector, "matchLabels")[key] = v;
        return err(INVALID, `${site.at}.matchLabels`);
      },
    ),
    mutation(
      "networkpolicy.policyTypes.too-many",
      K,
      "more than 2 policyTypes (entries not checked)",
      fc.array(fc.constantFrom("Ingress", "Egress", "ingress", "", "Both"), { minLength: 3, maxLength: 5 }),
      (o, types) => {
        ensureObj(o, "spec")["policyTypes"] = types;
        return err(INVALID, "spec.policyTypes");
      },
    ),
    mutation(
      "networkpolicy.policyTypes.unsupported",
      K,
      "policyTypes[k] NotSupported",
      fc.tuple(
        fc.option(fc.constantFrom("Ingress", "Egress"), { nil: undefined }),
        fc.constantFrom("ingress", "EGRESS", "", "Both", "All"),
        fc.boolean(),
      ),
      (o, [good, bad, badFirst]) => {
        const types = good === undefined ? [bad] : badFirst ? [bad, good] : [good, bad];
        ensureObj(o, "spec")["policyTypes"] = types;
        return err(NOT_SUPPORTED, `spec.policyTypes[${types.indexOf(bad)}]`);
      },
    ),
    ...metaMutations(K),
  ];
}
