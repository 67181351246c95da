import { describe, expect, it } from "vitest";
import {
  FieldProblem,
  TemplateText,
  booleanAt,
  jsonPath,
  labelsAt,
  listAt,
  objectAt,
  portAt,
  portOrNameAt,
  protocolAt,
  renderPath,
  stringAt,
} from "../../../src/connectivity/topology/fields.js";

/** The FieldProblem `read` throws, as `path: reason`. */
function problem(read: () => unknown): string {
  try {
    read();
  } catch (e) {
    if (e instanceof FieldProblem) return `${renderPath(e.path)}: ${e.reason}`;
    throw e;
  }
  return "no problem";
}

describe("field paths", () => {
  it("render as Kubernetes renders them, map keys in brackets", () => {
    const path = ["spec", "template", "metadata", "labels", { key: "app.kubernetes.io/name" }] as const;
    expect(renderPath(path)).toBe("spec.template.metadata.labels[app.kubernetes.io/name]");
    expect(renderPath(["spec", "containers", 0, "ports", 1])).toBe("spec.containers[0].ports[1]");
    expect(jsonPath(path)).toEqual(["spec", "template", "metadata", "labels", "app.kubernetes.io/name"]);
  });
});

describe("field readers", () => {
  it("take absent and null as the field's default", () => {
    expect(objectAt(undefined, ["a"])).toBeUndefined();
    expect(objectAt(null, ["a"])).toBeUndefined();
    expect(listAt(null, ["a"])).toEqual([]);
    expect(stringAt("", ["a"])).toBeUndefined();
    expect(booleanAt(null, ["a"])).toBe(false);
    expect(labelsAt(null, ["a"])).toEqual({});
    expect(portAt(undefined, ["a"])).toBeUndefined();
    expect(portOrNameAt(0, ["a"])).toBeUndefined();
    expect(protocolAt("", ["a"])).toBe("TCP");
  });

  it("refuse a value of the wrong type, naming the field", () => {
    expect(problem(() => objectAt([1], ["spec"]))).toBe("spec: must be an object");
    expect(problem(() => listAt({}, ["spec", "containers"]))).toBe("spec.containers: must be a list");
    expect(problem(() => stringAt(5, ["metadata", "name"]))).toBe("metadata.name: must be a string");
    expect(problem(() => booleanAt("true", ["spec", "hostNetwork"]))).toBe("spec.hostNetwork: must be true or false");
    expect(problem(() => labelsAt("a=b", ["metadata", "labels"]))).toBe("metadata.labels: must be a map of strings");
    expect(problem(() => labelsAt({ ok: "1", n: 1 }, ["metadata", "labels"]))).toBe(
      "metadata.labels[n]: must be a string",
    );
    expect(problem(() => portAt(0, ["port"]))).toBe("port: 0 is not a port number (1-65535)");
    expect(problem(() => portAt(80.5, ["port"]))).toBe("port: 80.5 is not a port number (1-65535)");
    expect(problem(() => portAt(2n ** 70n, ["port"]))).toBe(
      "port: 1180591620717411303424 is not a port number (1-65535)",
    );
    expect(problem(() => portOrNameAt(true, ["targetPort"]))).toBe("targetPort: true is not a port number (1-65535)");
    expect(problem(() => protocolAt("tcp", ["protocol"]))).toBe('protocol: "tcp" is not a protocol (TCP, UDP or SCTP)');
  });

  it("read labels as own properties, a null value as the empty string", () => {
    const labels = labelsAt(JSON.parse('{"__proto__": "x", "a": null}'), ["labels"]);
    expect(Object.getPrototypeOf(labels)).toBe(Object.prototype);
    expect(Object.entries(labels)).toEqual([
      ["__proto__", "x"],
      ["a", ""],
    ]);
  });

  it("throw TemplateText for a string holding {{ }}, key or value", () => {
    expect(() => stringAt("{{ .Release.Name }}", ["metadata", "name"])).toThrow(TemplateText);
    expect(() => labelsAt({ "{{ .Values.key }}": "v" }, ["labels"])).toThrow(TemplateText);
    expect(() => portOrNameAt("{{ .Values.port }}", ["targetPort"])).toThrow(TemplateText);
    expect(stringAt("a {{ b", ["x"])).toBe("a {{ b");
  });
});
