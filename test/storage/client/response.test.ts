// Reading an answer body (src/storage/client/response.ts): readCapped stops at the limit, before
// reading anything when the declared length is already over it, and cancels the transfer; it
// counts bytes, not characters, and joins chunks before decoding. isJsonContentType is the JSON
// media-type test. The answers here are in-process FetchResponse objects: no socket.
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { StorageClient, StorageProtocolError, type FetchLike } from "../../../src/storage/index.js";
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  ResponseTooLarge,
  isJsonContentType,
  readCapped,
} from "../../../src/storage/client/response.js";
import type { FetchResponse } from "../../../src/storage/client/transport.js";

const PASSWORD = "Hardening-Pa55word!";
const BASIC = Buffer.from(`admin:${PASSWORD}`).toString("base64");
const MAX_RESPONSE = 64 * 1024;
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/** An answer whose body is the given chunks, or only text() when `chunks` is undefined. */
function answer(
  options: { chunks?: readonly Uint8Array[]; text?: string; length?: number; status?: number } = {},
): FetchResponse & { readonly taken: () => number; readonly textCalls: () => number } {
  let taken = 0;
  let textCalls = 0;
  const chunks = options.chunks;
  return {
    status: options.status ?? 200,
    statusText: "OK",
    headers: {
      get: (name: string) =>
        name.toLowerCase() === "content-length" && options.length !== undefined ? String(options.length) : null,
    },
    ...(chunks === undefined
      ? {}
      : {
          body: (async function* () {
            for (const c of chunks) {
              taken++;
              yield c;
            }
          })(),
        }),
    text: async () => {
      textCalls++;
      return options.text ?? "";
    },
    taken: () => taken,
    textCalls: () => textCalls,
  };
}

async function tooLarge(p: Promise<unknown>): Promise<ResponseTooLarge> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  if (e instanceof ResponseTooLarge) return e;
  throw new Error(`expected ResponseTooLarge, got ${String(e)}`);
}

describe("DEFAULT_MAX_RESPONSE_BYTES", () => {
  it("is 64 MiB", () => {
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(64 * 1024 * 1024);
  });
});

describe("readCapped", () => {
  it("reads a streamed body of at most the limit, joining chunks before decoding UTF-8", async () => {
    const bytes = utf8('{"name":"卷🙂"}');
    // Split inside the four bytes of the emoji: decoding chunk by chunk would garble it.
    const cut = bytes.length - 4;
    const res = answer({ chunks: [bytes.slice(0, cut), bytes.slice(cut)] });
    expect(await readCapped(res, bytes.length)).toBe('{"name":"卷🙂"}');
    expect(res.textCalls()).toBe(0);
  });

  it("refuses a streamed body once it passes the limit, without taking the chunks after it", async () => {
    const res = answer({ chunks: [utf8("12345"), utf8("678"), utf8("never read")], status: 200 });
    const e = await tooLarge(readCapped(res, 7));
    expect([e.status, e.limit, e.message]).toEqual([200, 7, "answer larger than 7 bytes"]);
    expect(res.taken()).toBe(2);
  });

  it("counts bytes, not characters", async () => {
    expect(await readCapped(answer({ chunks: [utf8("éé")] }), 4)).toBe("éé");
    await tooLarge(readCapped(answer({ chunks: [utf8("éé")] }), 3));
    expect(await readCapped(answer({ text: "éé" }), 4)).toBe("éé");
    await tooLarge(readCapped(answer({ text: "éé" }), 3));
  });

  it("refuses a declared length over the limit before reading, keeping the status", async () => {
    const res = answer({ chunks: [utf8("x")], length: 1_000_000_000, status: 500 });
    const e = await tooLarge(readCapped(res, 1024));
    expect([e.status, e.limit]).toEqual([500, 1024]);
    expect(res.taken()).toBe(0);
    // One byte over is refused unread too; a declared length at the limit is read.
    const justOver = answer({ chunks: [utf8("abcde")], length: 5 });
    await tooLarge(readCapped(justOver, 4));
    expect(justOver.taken()).toBe(0);
    expect(await readCapped(answer({ chunks: [utf8("abcd")], length: 4 }), 4)).toBe("abcd");
  });

  it("an unreadable declared length is no refusal: the bytes that come are counted", async () => {
    expect(await readCapped(answer({ chunks: [utf8("ok")], length: Number.NaN }), 2)).toBe("ok");
  });

  it("cancels the body it refuses by its declared length: a Node stream is destroyed, a web stream cancelled", async () => {
    const declared = { get: (n: string) => (n.toLowerCase() === "content-length" ? "99" : null) };
    let destroyed = 0;
    const nodeLike = Object.assign((async function* () {})(), { destroy: () => void destroyed++ });
    await tooLarge(
      readCapped({ status: 200, statusText: "", headers: declared, body: nodeLike, text: async () => "" }, 1),
    );
    expect(destroyed).toBe(1);

    let cancelled = 0;
    const webLike = Object.assign((async function* () {})(), {
      cancel: async () => {
        cancelled++;
      },
    });
    await tooLarge(
      readCapped({ status: 200, statusText: "", headers: declared, body: webLike, text: async () => "" }, 1),
    );
    expect(cancelled).toBe(1);

    let returned = 0;
    const plain: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => ({ done: true, value: undefined }),
        return: async () => {
          returned++;
          return { done: true, value: undefined };
        },
      }),
    };
    await tooLarge(
      readCapped({ status: 200, statusText: "", headers: declared, body: plain, text: async () => "" }, 1),
    );
    expect(returned).toBe(1);
  });

  it("without a readable body, reads text() and checks its size afterwards", async () => {
    const noBody = answer({ text: "[1,2,3]" });
    expect(await readCapped(noBody, 7)).toBe("[1,2,3]");
    expect(noBody.textCalls()).toBe(1);
    expect(await readCapped({ ...answer({ text: "{}" }), body: null }, 2)).toBe("{}");
    await tooLarge(readCapped(answer({ text: "[1,2,3]" }), 6));
  });

  it("an empty body is the empty string", async () => {
    expect(await readCapped(answer({ chunks: [] }), 1)).toBe("");
    expect(await readCapped(answer({ text: "" }), 1)).toBe("");
  });
});

describe("isJsonContentType", () => {
  it("accepts application/json and the +json types, in any case, with parameters", () => {
    for (const t of [
      "application/json",
      "application/hal+json",
      "application/problem+json",
      "application/vnd.api+json",
      "APPLICATION/JSON",
      "application/json; charset=utf-8",
      " application/hal+json ;q=0.9",
    ])
      expect(isJsonContentType(t), t).toBe(true);
  });

  it("refuses every other media type", () => {
    for (const t of [
      "",
      "text/json",
      "text/html",
      "text/plain; charset=application/json",
      "application/jsonx",
      "application/json-seq",
      "application/x-json",
      "application/+json+",
      "multipart/form-data",
      "application/octet-stream",
    ])
      expect(isJsonContentType(t), t).toBe(false);
  });
});

describe("through the client", () => {
  const base = {
    baseUrl: "https://cluster.example",
    username: "admin",
    password: PASSWORD,
    requestTimeoutMs: 300,
  } as const;

  /** No secret in the error, its message, cause or any property. */
  function expectClean(err: unknown): void {
    const text = `${String(err)}\n${inspect(err, { depth: 10, showHidden: true })}`;
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(BASIC);
  }

  it("a fetch with only text() is capped after the fact", async () => {
    const big: FetchLike = async () => ({
      status: 200,
      statusText: "OK",
      headers: { get: () => null },
      text: async () => JSON.stringify({ pad: "x".repeat(2 * MAX_RESPONSE) }),
    });
    const client = new StorageClient({ ...base, fetch: big, maxResponseBytes: MAX_RESPONSE });
    const err = await client.request("GET", "/api/x").then(
      () => undefined,
      (e: unknown) => e,
    );
    expectClean(err);
    expect(err).toBeInstanceOf(StorageProtocolError);
  });
});
