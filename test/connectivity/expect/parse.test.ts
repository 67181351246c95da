import { describe, expect, it } from "vitest";
import { placeOf } from "./place.js";
import { ExpectationFileError } from "../../../src/connectivity/expect/errors.js";
import { parseExpectations } from "../../../src/connectivity/expect/parse.js";
import type { ExpectationProblem, ReachExpectation } from "../../../src/connectivity/expect/types.js";

function problemsOf(text: string, file = "expect.yaml"): ExpectationProblem[] {
  try {
    parseExpectations(text, file);
  } catch (e) {
    if (e instanceof ExpectationFileError) return [...e.problems];
    throw e;
  }
  throw new Error("the file was accepted");
}

/** The single problem of a file: where it is and what it says. */
function onlyProblem(text: string): ExpectationProblem {
  const problems = problemsOf(text);
  expect(problems).toHaveLength(1);
  return problems[0] as ExpectationProblem;
}

const FOUR = [
  "expectations:",
  "  - name: frontend reaches the api",
  "    allow: {from: shop/frontend, to: shop/api, port: 8080}",
  "  - deny: {from: '*', to: shop/db, port: 5432, except: [shop/api]}",
  "  - isolated: {namespace: payments, from: dev}",
  "  - deny: {from: 0.0.0.0/0, to: '*', port: 22}",
  "",
].join("\n");

describe("parseExpectations: the issue's four examples", () => {
  const [allow, deny, isolated, ssh] = parseExpectations(FOUR, "expect.yaml");

  it("reads an allow with its name", () => {
    expect(allow).toMatchObject({
      kind: "allow",
      name: "frontend reaches the api",
      text: "allow shop/frontend => shop/api on TCP 8080",
      from: [{ type: "workloads", text: "shop/frontend", namespace: "shop", kind: "*", name: "frontend", labels: {} }],
      to: [{ type: "workloads", namespace: "shop", kind: "*", name: "api" }],
      except: [],
      port: { type: "range", protocol: "TCP", from: 8080, to: 8080 },
    });
    expect({ ...allow?.at }).toEqual({
      file: "expect.yaml",
      path: "expectations[0]",
      ...placeOf(FOUR, "name: frontend"),
    });
    const from = (allow as ReachExpectation).from[0];
    expect({ line: from?.at.line, column: from?.at.column }).toEqual(placeOf(FOUR, "shop/frontend"));
    expect(from?.at.path).toBe("expectations[0].allow.from");
  });

  it("reads a deny with an exception, named by its text", () => {
    expect(deny).toMatchObject({
      kind: "deny",
      name: "deny * => shop/db on TCP 5432 except shop/api",
      from: [{ type: "workloads", namespace: "*", kind: "*", name: "*" }],
      except: [{ type: "workloads", namespace: "shop", name: "api" }],
    });
    expect({ line: deny?.at.line, column: deny?.at.column }).toEqual(placeOf(FOUR, "deny:"));
  });

  it("reads an isolation between two namespaces", () => {
    expect(isolated).toMatchObject({
      kind: "isolated",
      name: "isolated payments <=> dev",
      namespace: { name: "payments" },
      from: [{ name: "dev" }],
    });
  });

  it("reads a block of addresses", () => {
    expect(ssh).toMatchObject({
      kind: "deny",
      text: "deny 0.0.0.0/0 => * on TCP 22",
      from: [
        {
          type: "addresses",
          text: "0.0.0.0/0",
          range: { family: 4, first: "0.0.0.0", last: "255.255.255.255", cidrs: ["0.0.0.0/0"] },
        },
      ],
    });
  });
});

describe("parseExpectations: ports", () => {
  const port = (value: string) => {
    const [e] = parseExpectations(`expectations:\n  - allow: {from: a/b, to: a/c, ${value}}\n`);
    return (e as ReachExpectation).port;
  };

  it("reads numbers, quoted numbers, ranges and names", () => {
    expect(port("port: 80")).toEqual({ type: "range", protocol: "TCP", from: 80, to: 80 });
    expect(port("port: '80'")).toEqual({ type: "range", protocol: "TCP", from: 80, to: 80 });
    expect(port("port: 8000-8080, protocol: UDP")).toEqual({ type: "range", protocol: "UDP", from: 8000, to: 8080 });
    expect(port("port: http")).toEqual({ type: "named", name: "http" });
    expect(port("port: dns, protocol: UDP")).toEqual({ type: "named", name: "dns", protocol: "UDP" });
  });

  it("reads no port as any connection, of one protocol when given", () => {
    expect(port("protocol: SCTP")).toEqual({ type: "any", protocol: "SCTP" });
    const [e] = parseExpectations("expectations:\n  - allow: {from: a/b, to: a/c}\n");
    expect((e as ReachExpectation).port).toEqual({ type: "any" });
    expect(e?.text).toBe("allow a/b => a/c");
  });

  it.each([
    ["0", "must be a port number from 1 to 65535"],
    ["65536", "must be a port number from 1 to 65535"],
    ["8080-80", "the range 8080-80 ends before it starts"],
    ["1-70000", "must be a port number"],
    ["Http", "must be a port number"],
    ["a--b", "must be a port number"],
    ["this-name-is-too-long", "must be a port number"],
    ["1.5", "must be a port number"],
    ["[80]", "must be a port number"],
  ])("refuses port %s, at the value", (value, message) => {
    const text = `expectations:\n  - allow: {from: a/b, to: a/c, port: ${value}}\n`;
    const p = onlyProblem(text);
    expect(p.message).toContain(message);
    expect(p.path).toBe("expectations[0].allow.port");
    expect({ line: p.line, column: p.column }).toEqual(placeOf(text, value));
  });

  it("refuses a protocol other than TCP, UDP and SCTP (upper case, as in a Pod)", () => {
    const text = "expectations:\n  - deny: {from: a/b, to: a/c, port: 53, protocol: udp}\n";
    const p = onlyProblem(text);
    expect(p).toMatchObject({ path: "expectations[0].deny.protocol", ...placeOf(text, "udp") });
    expect(p.message).toBe('must be one of TCP, UDP, SCTP, got "udp"');
  });

  it("refuses a named port towards addresses only", () => {
    const text = "expectations:\n  - deny: {from: a/b, to: 10.0.0.0/8, port: http}\n";
    expect(onlyProblem(text).message).toContain("a named port is looked up on the destination workloads");
  });
});

describe("parseExpectations: peer patterns", () => {
  const ends = (value: string) => {
    const [e] = parseExpectations(`expectations:\n  - deny: {from: ${value}, to: a/c}\n`);
    return (e as ReachExpectation).from;
  };

  it("reads namespace/kind/name, globs, lists and label maps", () => {
    expect(ends("shop/Deployment/api")).toMatchObject([{ namespace: "shop", kind: "Deployment", name: "api" }]);
    expect(ends("shop/*")).toMatchObject([{ namespace: "shop", kind: "*", name: "*" }]);
    expect(ends("'*/api-*'")).toMatchObject([{ namespace: "*", kind: "*", name: "api-*" }]);
    expect(ends("[a/x, b/y]").map((p) => p.text)).toEqual(["a/x", "b/y"]);
    expect(ends("{namespace: shop, labels: {app: api, tier: '1'}}")).toMatchObject([
      {
        type: "workloads",
        text: "{namespace: shop, labels: {app: api, tier: 1}}",
        namespace: "shop",
        kind: "*",
        name: "*",
        labels: { app: "api", tier: "1" },
      },
    ]);
    expect(ends("{labels: {app: api}}")).toMatchObject([{ namespace: "*", labels: { app: "api" } }]);
  });

  it("reads IPs and CIDRs of both families, dropping host bits", () => {
    expect(ends("10.1.2.3")).toMatchObject([
      { range: { first: "10.1.2.3", last: "10.1.2.3", cidrs: ["10.1.2.3/32"] } },
    ]);
    expect(ends("10.1.2.3/16")).toMatchObject([{ range: { first: "10.1.0.0", last: "10.1.255.255" } }]);
    expect(ends("'fd00::1/64'")).toMatchObject([
      { range: { family: 6, first: "fd00::", last: "fd00::ffff:ffff:ffff:ffff", cidrs: ["fd00::/64"] } },
    ]);
    expect(ends("'::/0'")).toMatchObject([{ range: { family: 6, first: "::", cidrs: ["::/0"] } }]);
  });

  it.each([
    ["api", "is not a pattern"],
    ["shop//api", "is not a pattern"],
    ["a/b/c/d", "is not a pattern"],
    ["10.0.0.0/33", "the prefix length must be a number from 0 to 32"],
    ["300.0.0.1", "is not an IPv4 address"],
    ["010.0.0.1", "is not an IPv4 address"],
    ["'fd00:::1'", "is not an IPv6 address"],
    ["'1:2:3:4:5:6:7:8:9'", "is not an IPv6 address"],
    ["'fd00::1/129'", "from 0 to 128"],
    ["12", "must be a workload pattern"],
    ["{}", "an empty map"],
    ["{labels: {app: 1}}", "a label value must be a string, got 1 (quote it)"],
    ["{namespace: 'a b'}", "cannot match"],
    ["{selector: x}", 'unknown field "selector"'],
  ])("refuses %s", (value, message) => {
    const text = `expectations:\n  - deny: {from: ${value}, to: a/c}\n`;
    const p = onlyProblem(text);
    expect(p.message).toContain(message);
    expect(p.line).toBe(2);
  });

  it("refuses two ends of addresses: one end must be workloads", () => {
    const text = "expectations:\n  - deny: {from: 10.0.0.0/8, to: [1.2.3.4, '::1']}\n";
    expect(onlyProblem(text).message).toBe(
      "from and to are both addresses outside the cluster: one end must be workloads",
    );
  });
});

describe("parseExpectations: isolation", () => {
  it("reads a list of namespaces, and none as every other one", () => {
    const [a, b] = parseExpectations(
      "expectations:\n  - isolated: {namespace: pay, from: [dev, test]}\n  - isolated: {namespace: pay}\n",
    );
    expect(a).toMatchObject({ text: "isolated pay <=> dev, test", from: [{ name: "dev" }, { name: "test" }] });
    expect(b).toMatchObject({ text: "isolated pay from every other namespace", from: [] });
  });

  it.each([
    ["{namespace: pay, from: pay}", "a namespace is not isolated from itself", "pay}"],
    ["{namespace: Pay}", "is not a namespace name", "Pay"],
    ["{from: dev}", "missing required field `namespace`", "{from"],
    ["{namespace: pay, from: []}", "the list is empty", "[]"],
    ["{namespace: pay, port: 80}", 'unknown field "port"', "port"],
  ])("refuses %s", (value, message, where) => {
    const text = `expectations:\n  - isolated: ${value}\n`;
    const p = onlyProblem(text);
    expect(p.message).toContain(message);
    expect({ line: p.line, column: p.column }).toEqual(placeOf(text, where));
  });
});

describe("parseExpectations: the file's shape", () => {
  it.each([
    ["", "the file is empty"],
    ["expectations: []\n", "the list is empty"],
    ["expectations: {a: 1}\n", "must be a list"],
    ["- allow: {from: a/b, to: a/c}\n", "must be a map with an `expectations` list"],
    ["expectation: []\n", 'unknown field "expectation"'],
    ["expectations:\n  - {from: a/b, to: a/c}\n", "needs one of allow, deny or isolated"],
    ["expectations:\n  - allow: {from: a/b, to: a/c}\n    deny: {from: a/b, to: a/c}\n", "has allow and deny"],
    ["expectations:\n  - allow: {to: a/c}\n", "missing required field `from`"],
    ["expectations:\n  - allow: {from: a/b, to: []}\n", "the list is empty"],
    ["expectations:\n  - name: 5\n    allow: {from: a/b, to: a/c}\n", "must be a string, got 5 (quote it)"],
    ["expectations:\n  - allow: a/b\n", "must be a map {from, to, port, protocol, except}"],
  ])("refuses %j", (text, message) => {
    const problems = problemsOf(text);
    expect(problems.map((p) => p.message).join("\n")).toContain(message);
  });

  it("places a YAML syntax error", () => {
    const text = "expectations:\n  - allow: {from: a/b, to: a/c\n";
    const p = onlyProblem(text);
    expect(p.message).toMatch(/^yaml: /);
    expect(p.line).toBeGreaterThanOrEqual(2);
  });

  it("refuses a repeated key, as the API server does", () => {
    const text = "expectations:\n  - allow: {from: a/b, from: a/c, to: a/d}\n";
    expect(onlyProblem(text).message).toMatch(/^yaml: .*from/);
  });

  it("refuses a second document at its start", () => {
    const text = "expectations:\n  - allow: {from: a/b, to: a/c}\n---\nexpectations: []\n";
    const p = onlyProblem(text);
    expect(p).toMatchObject({ line: 4, column: 1, message: "2 YAML documents; an expectations file is one" });
  });

  it("lists problems in file order, whatever order they are found in", () => {
    const text = "expectations:\n  - allow: {from: a/b, to: a/c, port: 0}\n    because: reasons\n";
    expect(problemsOf(text).map((p) => [p.line, p.path])).toEqual([
      [2, "expectations[0].allow.port"],
      [3, "expectations[0].because"],
    ]);
  });

  it("points an unknown field at its key", () => {
    const text = "expectations:\n  - allow: {from: a/b, to: a/c}\n    because: reasons\n";
    expect(onlyProblem(text)).toMatchObject({ path: "expectations[0].because", ...placeOf(text, "because") });
  });

  it("lists every problem at once, in a message of FILE:LINE:COLUMN lines", () => {
    const text = [
      "expectations:",
      "  - allow: {from: api, to: a/c}",
      "  - deny: {from: a/b, to: a/c, port: 0}",
      "  - isolated: {namespace: x, from: x}",
      "",
    ].join("\n");
    let error: unknown;
    try {
      parseExpectations(text, "ci/expect.yaml");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ExpectationFileError);
    const e = error as ExpectationFileError;
    expect(e.file).toBe("ci/expect.yaml");
    expect(e.problems.map((p) => [p.line, p.path])).toEqual([
      [2, "expectations[0].allow.from"],
      [3, "expectations[1].deny.port"],
      [4, "expectations[2].isolated.from"],
    ]);
    const api = placeOf(text, "api");
    expect(e.message.split("\n")).toEqual([
      "ci/expect.yaml: 3 errors in the expectations:",
      `  ci/expect.yaml:${api.line}:${api.column}: expectations[0].allow.from: "api" is not a pattern: write namespace/name, namespace/kind/name, namespace/*, * or an IP or CIDR`,
      `  ci/expect.yaml:3:38: expectations[1].deny.port: must be a port number from 1 to 65535, a range such as 8000-8080, or a port name, got 0`,
      `  ci/expect.yaml:4:36: expectations[2].isolated.from: a namespace is not isolated from itself`,
    ]);
  });

  it("counts the problems beyond the twenty it lists", () => {
    const items = Array.from({ length: 23 }, () => "  - allow: {from: a/b, to: a/c, port: 0}");
    const e = (() => {
      try {
        parseExpectations(["expectations:", ...items].join("\n"));
      } catch (err) {
        return err as ExpectationFileError;
      }
      throw new Error("accepted");
    })();
    expect(e.problems).toHaveLength(23);
    expect(e.message.split("\n")).toHaveLength(22);
    expect(e.message).toMatch(/\.\.\. and 3 more$/);
  });

  it("refuses what is not text with the typed error", () => {
    expect(() => parseExpectations(42 as unknown as string)).toThrow(ExpectationFileError);
  });
});
