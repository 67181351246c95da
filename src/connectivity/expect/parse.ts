// Reading an expectations file (docs/connectivity.md, "Expectations that fail CI"):
//
//   expectations:
//     - name: the api is reachable        # optional
//       allow: {from: shop/web, to: shop/api, port: 8080}
//     - deny: {from: "*", to: shop/db, port: 5432, except: [shop/api]}
//     - isolated: {namespace: payments, from: dev}
//     - deny: {from: 0.0.0.0/0, to: "*", port: 22}
//
// Values are read as the API server reads YAML, and every mistake is an ExpectationFileError
// naming FILE:LINE:COLUMN and the field, all of them at once. Whether a pattern matches any
// workload is only known against an analysis: checkExpectations reports those.

import {
  DecodeError,
  type JsonObject,
  type JsonValue,
  PROTOCOLS,
  type Protocol,
  locateYamlPath,
  parseYamlDocuments,
} from "../../networking/index.js";
import { cidrsOf, formatIp, looksLikeAddress, parseAddressBlock } from "./addresses.js";
import { ExpectationFileError } from "./errors.js";
import type {
  Expectation,
  ExpectationPosition,
  ExpectationProblem,
  ExpectedPort,
  IsolationExpectation,
  NamespaceReference,
  PeerPattern,
  ReachExpectation,
} from "./types.js";

type Path = readonly (string | number)[];

const ITEM_FIELDS = ["name", "allow", "deny", "isolated"] as const;
const KINDS = ["allow", "deny", "isolated"] as const;
const REACH_FIELDS = ["from", "to", "port", "protocol", "except"] as const;
const ISOLATED_FIELDS = ["namespace", "from"] as const;
const LABEL_PATTERN_FIELDS = ["namespace", "kind", "name", "labels"] as const;

/**
 * Reads an expectations file: a YAML map whose `expectations` list holds `allow`, `deny` and
 * `isolated` items (the format is in docs/connectivity.md). `fileName` names the file in
 * positions and messages (default `expectations.yaml`).
 *
 * Throws {@link ExpectationFileError} listing every mistake with its line and column. Whether
 * each pattern matches a workload is checked by {@link checkExpectations}.
 *
 * @example
 * ```ts
 * import { parseExpectations } from "clusterwire/connectivity";
 *
 * const expectations = parseExpectations(
 *   [
 *     "expectations:",
 *     "  - name: the web reaches the api",
 *     "    allow: {from: shop/web, to: shop/api, port: 8080}",
 *     "  - deny: {from: '*', to: shop/db, port: 5432, except: [shop/api]}",
 *     "  - isolated: {namespace: payments, from: dev}",
 *     "  - deny: {from: 0.0.0.0/0, to: '*', port: 22}",
 *   ].join("\n"),
 *   "expect.yaml",
 * );
 * for (const e of expectations) console.log(`${e.at.line}: ${e.name}`);
 * // 2: the web reaches the api
 * // 4: deny * => shop/db on TCP 5432 except shop/api
 * // 5: isolated payments <=> dev
 * // 6: deny 0.0.0.0/0 => * on TCP 22
 * ```
 */
export function parseExpectations(text: string, fileName = "expectations.yaml"): Expectation[] {
  if (typeof text !== "string") {
    throw new ExpectationFileError(fileName, [problem(fileName, 1, 1, "", "the expectations file is not text")]);
  }
  let docs: JsonValue[];
  try {
    docs = parseYamlDocuments(text, { uniqueKeys: true });
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    throw new ExpectationFileError(fileName, [problem(fileName, e.line ?? 1, e.column ?? 1, "", `yaml: ${e.reason}`)]);
  }
  if (docs.length === 0) {
    throw new ExpectationFileError(fileName, [
      problem(fileName, 1, 1, "", "the file is empty; it needs a list of expectations under `expectations:`"),
    ]);
  }
  if (docs.length > 1) {
    const at = locateYamlPath(text, 1, []);
    throw new ExpectationFileError(fileName, [
      problem(fileName, at.line ?? 1, at.column ?? 1, "", `${docs.length} YAML documents; an expectations file is one`),
    ]);
  }
  const reader = new Reader(fileName, text);
  const out = reader.file(docs[0] ?? null);
  if (reader.problems.length > 0) throw new ExpectationFileError(fileName, reader.problems);
  return out;
}

function problem(file: string, line: number, column: number, path: string, message: string): ExpectationProblem {
  return { file, line, column, path, message };
}

/** `expectations[3].allow.from`, for messages. */
export function fieldPath(path: Path): string {
  let s = "";
  for (const seg of path) {
    if (typeof seg === "number") s += `[${seg}]`;
    else s += s === "" ? seg : /^[A-Za-z_][\w-]*$/.test(seg) ? `.${seg}` : `[${JSON.stringify(seg)}]`;
  }
  return s;
}

class Reader {
  readonly problems: ExpectationProblem[] = [];
  readonly #file: string;
  readonly #text: string;

  constructor(file: string, text: string) {
    this.#file = file;
    this.#text = text;
  }

  /**
   * Where `path` is. Line and column are found on first read: locating a path reads the whole
   * text again, so doing it for every pattern of a long file would take seconds, while only the
   * places of failures and problems are ever shown.
   */
  at(path: Path, atKey = false): ExpectationPosition {
    const text = this.#text;
    let where: { line: number; column: number } | undefined;
    const find = () => {
      if (where === undefined) {
        const found = locateYamlPath(text, 0, path, { atKey });
        where = { line: found.line ?? 1, column: found.column ?? 1 };
      }
      return where;
    };
    return {
      file: this.#file,
      path: fieldPath(path),
      get line() {
        return find().line;
      },
      get column() {
        return find().column;
      },
    };
  }

  issue(path: Path, message: string, atKey = false): void {
    const at = this.at(path, atKey);
    this.problems.push(problem(this.#file, at.line, at.column, fieldPath(path), message));
  }

  file(v: JsonValue): Expectation[] {
    if (!isMap(v)) {
      this.issue([], `must be a map with an \`expectations\` list, got ${show(v)}`);
      return [];
    }
    this.fields(v, [], ["expectations"]);
    const list = v["expectations"];
    if (isAbsent(list)) {
      this.issue([], "missing required field `expectations`");
      return [];
    }
    if (!Array.isArray(list)) {
      this.issue(["expectations"], `must be a list, got ${show(list)}`);
      return [];
    }
    if (list.length === 0) {
      this.issue(["expectations"], "the list is empty: a file that expects nothing would always pass");
      return [];
    }
    const out: Expectation[] = [];
    list.forEach((item, i) => {
      const e = this.item(item, ["expectations", i]);
      if (e !== undefined) out.push(e);
    });
    return out;
  }

  item(v: JsonValue, at: Path): Expectation | undefined {
    if (!isMap(v)) {
      this.issue(at, `must be a map with one of allow, deny or isolated, got ${show(v)}`);
      return undefined;
    }
    this.fields(v, at, ITEM_FIELDS);
    const kinds = KINDS.filter((k) => !isAbsent(v[k]));
    const name = this.string(v, "name", at);
    if (kinds.length !== 1) {
      this.issue(
        at,
        kinds.length === 0
          ? "needs one of allow, deny or isolated"
          : `has ${kinds.join(" and ")}: write each as its own list item`,
      );
      return undefined;
    }
    const kind = kinds[0] ?? "allow";
    const where = this.at(at);
    if (kind === "isolated") return this.isolated(v["isolated"] ?? null, [...at, kind], name, where);
    return this.reach(kind, v[kind] ?? null, [...at, kind], name, where);
  }

  reach(
    kind: "allow" | "deny",
    v: JsonValue,
    at: Path,
    name: string | undefined,
    where: ExpectationPosition,
  ): ReachExpectation | undefined {
    if (!isMap(v)) {
      this.issue(at, `must be a map {from, to, port, protocol, except}, got ${show(v)}`);
      return undefined;
    }
    const before = this.problems.length;
    this.fields(v, at, REACH_FIELDS);
    const from = this.peers(v, "from", at, true);
    const to = this.peers(v, "to", at, true);
    const except = this.peers(v, "except", at, false);
    const port = this.port(v, at);
    if (from.length > 0 && to.length > 0) {
      if (from.every((p) => p.type === "addresses") && to.every((p) => p.type === "addresses")) {
        this.issue(at, "from and to are both addresses outside the cluster: one end must be workloads");
      }
      if (port?.type === "named" && to.every((p) => p.type === "addresses")) {
        this.issue([...at, "port"], "a named port is looked up on the destination workloads; to names only addresses");
      }
    }
    if (this.problems.length > before || port === undefined) return undefined;
    const text = `${kind} ${patternsText(from)} => ${patternsText(to)}${portText(port)}${
      except.length > 0 ? ` except ${patternsText(except)}` : ""
    }`;
    const portAt = isAbsent(v["port"]) ? where : this.at([...at, "port"]);
    return { kind, name: name ?? text, text, at: where, from, to, except, port, portAt };
  }

  isolated(
    v: JsonValue,
    at: Path,
    name: string | undefined,
    where: ExpectationPosition,
  ): IsolationExpectation | undefined {
    if (!isMap(v)) {
      this.issue(at, `must be a map {namespace, from}, got ${show(v)}`);
      return undefined;
    }
    const before = this.problems.length;
    this.fields(v, at, ISOLATED_FIELDS);
    let namespace: NamespaceReference | undefined;
    const ns = v["namespace"];
    if (isAbsent(ns)) this.issue(at, "missing required field `namespace`");
    else namespace = this.namespaceName(ns, [...at, "namespace"]);
    const from: NamespaceReference[] = [];
    const raw = v["from"];
    if (!isAbsent(raw)) {
      const items = Array.isArray(raw) ? raw : [raw];
      if (items.length === 0)
        this.issue([...at, "from"], "the list is empty; leave `from` out to mean every other namespace");
      items.forEach((item, i) => {
        const r = this.namespaceName(item, Array.isArray(raw) ? [...at, "from", i] : [...at, "from"]);
        if (r === undefined) return;
        if (namespace !== undefined && r.name === namespace.name)
          this.issue(
            Array.isArray(raw) ? [...at, "from", i] : [...at, "from"],
            "a namespace is not isolated from itself",
          );
        else from.push(r);
      });
    }
    if (this.problems.length > before || namespace === undefined) return undefined;
    const text =
      from.length === 0
        ? `isolated ${namespace.name} from every other namespace`
        : `isolated ${namespace.name} <=> ${from.map((f) => f.name).join(", ")}`;
    return { kind: "isolated", name: name ?? text, text, at: where, namespace, from };
  }

  namespaceName(v: JsonValue, at: Path): NamespaceReference | undefined {
    if (typeof v !== "string" || v === "") {
      this.issue(at, `must be a namespace name, got ${show(v)}`);
      return undefined;
    }
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(v)) {
      this.issue(at, `${JSON.stringify(v)} is not a namespace name (lower-case letters, digits and '-')`);
      return undefined;
    }
    return { name: v, at: this.at(at) };
  }

  /** A peer, or a list of them. */
  peers(m: JsonObject, key: string, at: Path, required: boolean): PeerPattern[] {
    const v = m[key];
    if (isAbsent(v)) {
      if (required) this.issue(at, `missing required field \`${key}\``);
      return [];
    }
    const items = Array.isArray(v) ? v : [v];
    if (items.length === 0) {
      this.issue([...at, key], "the list is empty");
      return [];
    }
    const out: PeerPattern[] = [];
    items.forEach((item, i) => {
      const p = this.peer(item, Array.isArray(v) ? [...at, key, i] : [...at, key]);
      if (p !== undefined) out.push(p);
    });
    return out;
  }

  peer(v: JsonValue, at: Path): PeerPattern | undefined {
    if (isMap(v)) return this.labelPattern(v, at);
    if (typeof v !== "string") {
      this.issue(
        at,
        `must be a workload pattern (namespace/name, namespace/kind/name, namespace/*, *), {namespace, labels} or an IP or CIDR, got ${show(v)}`,
      );
      return undefined;
    }
    const where = this.at(at);
    if (looksLikeAddress(v)) {
      const block = parseAddressBlock(v);
      if (typeof block === "string") {
        this.issue(at, block);
        return undefined;
      }
      const range = {
        family: block.family,
        first: formatIp(block.family, block.first),
        last: formatIp(block.family, block.last),
        cidrs: cidrsOf(block),
      };
      return { type: "addresses", text: v, range, at: where };
    }
    if (v === "*") return { type: "workloads", text: v, namespace: "*", kind: "*", name: "*", labels: {}, at: where };
    const parts = v.split("/");
    if ((parts.length !== 2 && parts.length !== 3) || parts.some((s) => s === "" || /\s/.test(s))) {
      this.issue(
        at,
        `${JSON.stringify(v)} is not a pattern: write namespace/name, namespace/kind/name, namespace/*, * or an IP or CIDR`,
      );
      return undefined;
    }
    const [namespace = "", kind, name = ""] = parts.length === 3 ? parts : [parts[0], "*", parts[1]];
    return { type: "workloads", text: v, namespace, kind: kind ?? "*", name, labels: {}, at: where };
  }

  labelPattern(m: JsonObject, at: Path): PeerPattern | undefined {
    const before = this.problems.length;
    this.fields(m, at, LABEL_PATTERN_FIELDS);
    if (Object.keys(m).length === 0) this.issue(at, "an empty map: give namespace, kind, name or labels");
    const namespace = this.string(m, "namespace", at) ?? "*";
    const kind = this.string(m, "kind", at) ?? "*";
    const name = this.string(m, "name", at) ?? "*";
    const labels: Record<string, string> = {};
    const raw = m["labels"];
    if (!isAbsent(raw)) {
      if (!isMap(raw)) this.issue([...at, "labels"], `must be a map of strings, got ${show(raw)}`);
      else {
        for (const [k, value] of Object.entries(raw)) {
          if (typeof value === "string") labels[k] = value;
          else this.issue([...at, "labels", k], `a label value must be a string, got ${show(value)} (quote it)`);
        }
      }
    }
    for (const key of ["namespace", "kind", "name"] as const) {
      const s = m[key];
      if (typeof s === "string" && (s === "" || /[\s/]/.test(s)))
        this.issue([...at, key], `${JSON.stringify(s)} cannot match: no spaces or '/'`);
    }
    if (this.problems.length > before) return undefined;
    const fields = [
      ...(m["namespace"] !== undefined ? [`namespace: ${namespace}`] : []),
      ...(m["kind"] !== undefined ? [`kind: ${kind}`] : []),
      ...(m["name"] !== undefined ? [`name: ${name}`] : []),
      ...(raw !== undefined
        ? [
            `labels: {${Object.entries(labels)
              .map(([k, val]) => `${k}: ${val}`)
              .join(", ")}}`,
          ]
        : []),
    ];
    return { type: "workloads", text: `{${fields.join(", ")}}`, namespace, kind, name, labels, at: this.at(at) };
  }

  port(m: JsonObject, at: Path): ExpectedPort | undefined {
    const rawProtocol = m["protocol"];
    let protocol: Protocol | undefined;
    if (!isAbsent(rawProtocol)) {
      if (typeof rawProtocol === "string" && isProtocol(rawProtocol)) protocol = rawProtocol;
      else {
        this.issue([...at, "protocol"], `must be one of ${PROTOCOLS.join(", ")}, got ${show(rawProtocol)}`);
        return undefined;
      }
    }
    const raw = m["port"];
    if (isAbsent(raw)) return protocol === undefined ? { type: "any" } : { type: "any", protocol };
    const bad = () => {
      this.issue(
        [...at, "port"],
        `must be a port number from 1 to 65535, a range such as 8000-8080, or a port name, got ${show(raw)}`,
      );
      return undefined;
    };
    const number = (s: string) => (/^[1-9]\d{0,4}$/.test(s) && Number(s) <= 65535 ? Number(s) : undefined);
    if (typeof raw === "number") {
      const n = number(String(raw));
      return n === undefined ? bad() : { type: "range", protocol: protocol ?? "TCP", from: n, to: n };
    }
    if (typeof raw !== "string") return bad();
    const single = number(raw);
    if (single !== undefined) return { type: "range", protocol: protocol ?? "TCP", from: single, to: single };
    const range = /^(\d+)-(\d+)$/.exec(raw);
    if (range !== null) {
      const from = number(range[1] ?? "");
      const to = number(range[2] ?? "");
      if (from === undefined || to === undefined) return bad();
      if (from > to) {
        this.issue([...at, "port"], `the range ${raw} ends before it starts`);
        return undefined;
      }
      return { type: "range", protocol: protocol ?? "TCP", from, to };
    }
    // A port name, as a container port names it (IANA_SVC_NAME): at most 15 lower-case letters,
    // digits and '-', with a letter, no '--', not starting or ending with '-'.
    if (/^[a-z0-9]([a-z0-9-]{0,13}[a-z0-9])?$/.test(raw) && /[a-z]/.test(raw) && !raw.includes("--")) {
      return protocol === undefined ? { type: "named", name: raw } : { type: "named", name: raw, protocol };
    }
    return bad();
  }

  // -------------------------------------------------------------- helpers

  fields(m: JsonObject, at: Path, known: readonly string[]): void {
    for (const key of Object.keys(m)) {
      if (!known.includes(key))
        this.issue([...at, key], `unknown field ${JSON.stringify(key)}; known fields: ${known.join(", ")}`, true);
    }
  }

  string(m: JsonObject, key: string, at: Path): string | undefined {
    const v = m[key];
    if (isAbsent(v)) return undefined;
    if (typeof v === "string") return v;
    this.issue(
      [...at, key],
      `must be a string, got ${show(v)}${typeof v === "number" || typeof v === "boolean" ? " (quote it)" : ""}`,
    );
    return undefined;
  }
}

const isProtocol = (s: string): s is Protocol => (PROTOCOLS as readonly string[]).includes(s);

function isAbsent(v: JsonValue | undefined): v is null | undefined {
  return v === undefined || v === null;
}

function isMap(v: JsonValue | undefined): v is JsonObject {
  return v !== null && v !== undefined && typeof v === "object" && !Array.isArray(v);
}

function show(v: JsonValue | undefined): string {
  if (v === undefined || v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "a map";
  if (typeof v === "bigint") return v.toString();
  return JSON.stringify(v);
}

function patternsText(patterns: readonly PeerPattern[]): string {
  return patterns.map((p) => p.text).join(", ");
}

/** ` on TCP 8080`, ` on UDP 53-54`, ` on port http`, ` on UDP`, or nothing. */
export function portText(port: ExpectedPort): string {
  if (port.type === "any") return port.protocol === undefined ? "" : ` on ${port.protocol}`;
  if (port.type === "named") return ` on ${port.protocol === undefined ? "" : `${port.protocol} `}port ${port.name}`;
  return ` on ${port.protocol} ${port.from === port.to ? port.from : `${port.from}-${port.to}`}`;
}
