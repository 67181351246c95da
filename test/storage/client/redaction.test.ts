// Scrubbing secrets (src/storage/client/redaction.ts): every occurrence of each secret of at least
// MIN_SECRET_LENGTH characters becomes REDACTED, in a text or anywhere in a JSON value, names of
// members included; the copy keeps the value's shape and never takes a prototype from a
// `__proto__` member of the server's JSON.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type FetchLike, StorageClient, StorageJobError } from "../../../src/storage/index.js";
import { MIN_SECRET_LENGTH, REDACTED, redactDeep, redactString } from "../../../src/storage/client/redaction.js";
import { propertyRuns } from "../../support/property-runs.js";

const PASSWORD = "Redaction-Pa55word!";

describe("redactString", () => {
  it("replaces every occurrence of every secret", () => {
    expect(REDACTED).toBe("<redacted>");
    expect(redactString(`user admin:${PASSWORD} at ${PASSWORD}`, [PASSWORD])).toBe(
      "user admin:<redacted> at <redacted>",
    );
    expect(redactString("Basic YWRtaW46cHc= and pw2-remote", ["YWRtaW46cHc=", "pw2-remote"])).toBe(
      "Basic <redacted> and <redacted>",
    );
  });

  it("takes each secret literally, unicode and pattern characters included", () => {
    expect(redactString("a.b*c and axbbc", ["a.b*c"])).toBe("<redacted> and axbbc");
    expect(redactString("mot de passe: pässwörd🔑!", ["pässwörd🔑"])).toBe("mot de passe: <redacted>!");
    expect(redactString("$& $1 $$", ["$& $1"])).toBe("<redacted> $$");
  });

  it("leaves secrets shorter than MIN_SECRET_LENGTH alone: scrubbing one letter would scrub everything", () => {
    expect(MIN_SECRET_LENGTH).toBe(3);
    expect(redactString("an answer", ["", "a", "an"])).toBe("an answer");
    expect(redactString("an answer", ["ans"])).toBe("an <redacted>wer");
  });

  it("applies the secrets in order: one inside another is scrubbed by whichever comes first", () => {
    expect(redactString("xx-secret-yy", ["secret", "xx-secret-yy"])).toBe("xx-<redacted>-yy");
    expect(redactString("xx-secret-yy", ["xx-secret-yy", "secret"])).toBe("<redacted>");
  });

  it("leaves no secret in its output (secrets that share no character with the marker)", () => {
    const marker = new Set(REDACTED);
    const secret = fc
      .string({ unit: fc.constantFrom("a", "b", "c", "x", "1", "é", "🔑", "."), minLength: MIN_SECRET_LENGTH })
      .filter((s) => ![...s].some((ch) => marker.has(ch)));
    fc.assert(
      fc.property(
        fc.array(fc.oneof(secret, fc.string({ maxLength: 4 })), { maxLength: 8 }),
        fc.array(secret, { minLength: 1, maxLength: 3 }),
        (parts, secrets) => {
          // The text is built from the secrets themselves, so they do occur in it.
          const out = redactString([...parts, ...secrets].join(""), secrets);
          for (const s of secrets) expect(out).not.toContain(s);
        },
      ),
      { numRuns: propertyRuns(100) },
    );
  });
});

describe("redactDeep", () => {
  it("scrubs every string of a JSON value, at any depth, and keeps its shape", () => {
    const job = {
      uuid: "j-1",
      state: "failure",
      code: 2228331,
      done: false,
      node: null,
      message: `login with ${PASSWORD} refused`,
      error: { code: "2228331", message: `remote said: ${PASSWORD}`, arguments: [{ message: PASSWORD }, 1] },
    };
    expect(redactDeep(job, [PASSWORD])).toEqual({
      uuid: "j-1",
      state: "failure",
      code: 2228331,
      done: false,
      node: null,
      message: "login with <redacted> refused",
      error: { code: "2228331", message: "remote said: <redacted>", arguments: [{ message: "<redacted>" }, 1] },
    });
  });

  it("scrubs the names of members too: a server may put anything in a key", () => {
    const scrubbed = redactDeep({ details: { [`user:${PASSWORD}`]: "denied" } }, [PASSWORD]);
    expect(JSON.stringify(scrubbed)).not.toContain(PASSWORD);
    expect(scrubbed).toEqual({ details: { "user:<redacted>": "denied" } });
  });

  it("returns a copy and leaves what it was given as it was", () => {
    const given = { message: PASSWORD, list: [PASSWORD] };
    const out = redactDeep(given, [PASSWORD]);
    expect(given).toEqual({ message: PASSWORD, list: [PASSWORD] });
    expect(out).not.toBe(given);
    expect(out.list).not.toBe(given.list);
  });

  it("passes values without strings through unchanged", () => {
    for (const v of [0, -1.5, true, null, undefined]) expect(redactDeep(v, [PASSWORD])).toBe(v);
    expect(redactDeep("plain", [])).toBe("plain");
  });

  it("keeps a parsed `__proto__` member an own member instead of the copy's prototype", () => {
    const parsed = JSON.parse(`{"state":"failure","__proto__":{"state":"success","polluted":"${PASSWORD}"}}`);
    const out = redactDeep(parsed, [PASSWORD]) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out["state"]).toBe("failure");
    expect(out["polluted"]).toBeUndefined();
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(out, "__proto__")?.value).toEqual({
      state: "success",
      polluted: "<redacted>",
    });
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
});

describe("hostile JSON in answers", () => {
  it("a job record with a __proto__ member does not change the prototype of what waitForJob returns", async () => {
    const uuid = "11111111-2222-4333-8444-555555555555";
    // The answer as the wire carries it: the client parses this text itself.
    const fetch: FetchLike = async (url) =>
      url.endsWith(uuid)
        ? {
            status: 200,
            statusText: "OK",
            headers: { get: (n: string) => (n.toLowerCase() === "content-type" ? "application/json" : null) },
            text: async () => `{"uuid":"${uuid}","state":"success","__proto__":{"polluted":true,"state":"failure"}}`,
          }
        : {
            status: 404,
            statusText: "Not Found",
            headers: { get: () => "application/json" },
            text: async () => JSON.stringify({ error: { message: "no", code: "4" } }),
          };
    const client = new StorageClient({
      baseUrl: "https://cluster.example",
      username: "admin",
      password: PASSWORD,
      fetch,
      codecs: {},
      jobs: { initialIntervalMs: 1, timeoutMs: 2_000 },
    });
    const job = await client.waitForJob(uuid);
    expect(Object.getPrototypeOf(job)).toBe(Object.prototype);
    expect((job as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(job.state).toBe("success");
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("a failed job whose record names the password in a key raises an error without it", async () => {
    const fetch: FetchLike = async () => ({
      status: 200,
      statusText: "OK",
      headers: { get: () => "application/json" },
      text: async () => JSON.stringify({ uuid: "j", state: "failure", arguments: { [PASSWORD]: "refused" } }),
    });
    const client = new StorageClient({
      baseUrl: "https://cluster.example",
      username: "admin",
      password: PASSWORD,
      fetch,
    });
    const e = await client.waitForJob("j").catch((x: unknown) => x);
    expect(e).toBeInstanceOf(StorageJobError);
    expect(JSON.stringify((e as StorageJobError).job)).not.toContain(PASSWORD);
    expect((e as StorageJobError).job).toMatchObject({ arguments: { "<redacted>": "refused" } });
  });
});
