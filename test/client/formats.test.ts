import { describe, expect, it } from "vitest";
import { decodeBody, decodeEvents, formatOf } from "../../src/client/formats.js";
import {
  create,
  decode,
  encode,
  encodeJsonWatchEvent,
  encodeWatchEvent,
  fromJson,
  IngressClassSchema,
  toJsonString,
} from "../../src/networking/index.js";

const nginx = create(IngressClassSchema, { metadata: { name: "nginx" }, spec: { controller: "k8s.io/ingress-nginx" } });

describe("formatOf", () => {
  it("protobuf asks for and writes protobuf, its watch the protobuf stream", () => {
    const f = formatOf("protobuf");
    expect([f.name, f.accept, f.watchAccept, f.contentType]).toEqual([
      "protobuf",
      "application/vnd.kubernetes.protobuf",
      "application/vnd.kubernetes.protobuf;stream=watch",
      "application/vnd.kubernetes.protobuf",
    ]);
    expect(f.encode(nginx)).toEqual(encode(nginx));
  });

  it("json asks for and writes JSON, its watch too", () => {
    const f = formatOf("json");
    expect([f.name, f.accept, f.watchAccept, f.contentType]).toEqual([
      "json",
      "application/json",
      "application/json",
      "application/json",
    ]);
    expect(Buffer.from(f.encode(nginx)).toString()).toBe(toJsonString(nginx));
  });

  it("refuses another name with a RangeError", () => {
    expect(() => formatOf("yaml")).toThrow(new RangeError('format must be "protobuf" or "json", got "yaml"'));
  });
});

describe("decodeBody", () => {
  it("reads by the media type the answer names", () => {
    expect(decodeBody("application/vnd.kubernetes.protobuf", encode(nginx))).toEqual(decode(encode(nginx)));
    expect(decodeBody("application/json;charset=utf-8", Buffer.from(toJsonString(nginx)))).toEqual(
      fromJson(toJsonString(nginx)),
    );
    expect(decodeBody("text/html", Buffer.from("<html/>"))).toBeUndefined();
    expect(decodeBody("", encode(nginx))).toBeUndefined();
  });

  it("drops JSON fields it does not know (a newer API server's)", () => {
    const text =
      '{"apiVersion":"networking.k8s.io/v1","kind":"IngressClass","metadata":{"name":"nginx","futureField":1},"spec":{"controller":"k8s.io/ingress-nginx","added":{"x":[1]}},"later":true}';
    expect(decodeBody("application/json", Buffer.from(text))).toEqual(fromJson(toJsonString(nginx)));
  });

  it("reads a body that is a view into a larger buffer", () => {
    const json = Buffer.from(`xx${toJsonString(nginx)}yy`);
    expect(decodeBody("application/json", json.subarray(2, json.length - 2))).toEqual(fromJson(toJsonString(nginx)));
    const pb = encode(nginx);
    const bigger = new Uint8Array(pb.length + 4);
    bigger.set(pb, 2);
    expect(decodeBody("application/vnd.kubernetes.protobuf", bigger.subarray(2, 2 + pb.length))).toEqual(decode(pb));
  });

  it("throws networking's DecodeError for a malformed body", () => {
    expect(() => decodeBody("application/json", Buffer.from("{"))).toThrow(
      expect.objectContaining({ name: "DecodeError" }),
    );
    expect(() => decodeBody("application/vnd.kubernetes.protobuf", Buffer.from("nope"))).toThrow(
      expect.objectContaining({ name: "DecodeError" }),
    );
  });
});

describe("decodeEvents", () => {
  async function all(events: AsyncIterable<{ type: string }> | undefined): Promise<string[]> {
    const out: string[] = [];
    for await (const e of events ?? []) out.push(e.type);
    return out;
  }
  async function* chunks(...c: Uint8Array[]): AsyncIterable<Uint8Array> {
    yield* c;
  }

  it("reads a protobuf stream or a JSON stream by the media type", async () => {
    const added = encodeWatchEvent({ type: "ADDED", object: nginx });
    const deleted = encodeWatchEvent({ type: "DELETED", object: nginx });
    expect(await all(decodeEvents("application/vnd.kubernetes.protobuf;stream=watch", chunks(added, deleted)))).toEqual(
      ["ADDED", "DELETED"],
    );
    const json = Buffer.from(encodeJsonWatchEvent({ type: "MODIFIED", object: nginx }));
    expect(await all(decodeEvents("application/json", chunks(json.subarray(0, 7), json.subarray(7))))).toEqual([
      "MODIFIED",
    ]);
    expect(await all(decodeEvents("application/json;stream=watch", chunks(json)))).toEqual(["MODIFIED"]);
    expect(decodeEvents("text/plain", chunks(json))).toBeUndefined();
  });
});
