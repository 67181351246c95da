// clusterwire/client against recorded answers of real kube-apiservers, without Go: the client
// scenario (test/support/client/scenario.ts) replayed from test/fixtures/client/<version>.json.gz,
// which `npm run client-record` wrote from each control plane this repository builds. Every
// request must find its recorded answer and every answer must be asked for; the same assertions
// hold live in .ci/run (test/suites/apiserver/client-scenario.test.ts).
import { readdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { decodeRecording, type Exchange, type Recording } from "../support/client/recording.js";
import { clientFixturePath, replayClientScenario, secretIn } from "../support/client/scenario.js";
import { VERSIONS } from "../support/controlplane/start.js";
import { nonEmpty } from "../support/non-empty.js";
import { certProblem, makeCert } from "../support/storage/cert.js";
import { eachNeeds } from "../support/tools.js";

const folder = dirname(clientFixturePath("any"));
const files = nonEmpty(
  readdirSync(folder).filter((f) => f.endsWith(".json.gz")),
  `${folder}: recorded client scenarios (npm run client-record)`,
).sort();
const load = (file: string): Recording => decodeRecording(readFileSync(`${folder}/${file}`));

/** `recording` with `change` made to the exchanges `pick` chooses; fails unless one is chosen. */
function altered(recording: Recording, pick: (e: Exchange) => boolean, change: (e: Exchange) => Exchange): Recording {
  let changed = 0;
  const exchanges = recording.exchanges.map((e) => {
    if (!pick(e)) return e;
    changed++;
    return change(e);
  });
  expect(changed).toBeGreaterThan(0);
  return { ...recording, exchanges };
}

describe("the client scenario replayed from real kube-apiservers' recorded answers", () => {
  // The replay server is HTTPS with a certificate from openssl.
  const probe = makeCert();
  probe?.dispose();
  const opensslProblem = probe === undefined ? certProblem() : undefined;
  eachNeeds("openssl", () => opensslProblem);

  it("has a recording for each kube-apiserver the repository builds", () => {
    expect(files).toEqual(
      Object.keys(VERSIONS)
        .map((v) => `${v}.json.gz`)
        .sort(),
    );
  });

  for (const file of files) {
    it(`${file}: every assertion holds, every request is answered, every answer is used`, async () => {
      const recording = load(file);
      expect(`${recording.server}.json.gz`).toBe(file);
      expect(secretIn(recording, "Bearer")).toEqual([]);
      expect(await replayClientScenario(recording)).toEqual({ unmatched: [], remaining: 0 });
    });
  }

  // The scenario is a test that can fail: a server that answers otherwise is caught.
  const first = files[0] ?? "";
  it(`${first} without the deprecated annotation's Warning: the scenario fails`, async () => {
    const recording = altered(
      load(first),
      (e) => e.warnings.length > 0,
      (e) => ({ ...e, warnings: [] }),
    );
    await expect(replayClientScenario(recording)).rejects.toThrow(/length of 1/);
  });

  it(`${first} with a watch that saw nothing: the scenario fails`, async () => {
    const recording = altered(
      load(first),
      (e) => new URL(e.url, "https://x").searchParams.get("watch") === "1",
      (e) => ({ ...e, responseBody: "" }),
    );
    await expect(replayClientScenario(recording)).rejects.toThrow(/ADDED/);
  });

  it(`${first} without one answer: the scenario fails and names the request left unanswered`, async () => {
    const recording = load(first);
    const missing = "/namespaces/scenario-protobuf/ingresses/missing";
    const exchanges = recording.exchanges.filter((e) => !e.url.endsWith(missing));
    expect(recording.exchanges.length - exchanges.length).toBe(1);
    await expect(replayClientScenario({ ...recording, exchanges })).rejects.toThrow(
      `no answer for (the client sends something else now? npm run client-record):\nGET /apis/networking.k8s.io/v1${missing}`,
    );
  });

  it(`${first} with a create answered before the duplicate's refusal, in the wrong order: the scenario fails`, async () => {
    const recording = load(first);
    // The two POSTs of web-2 share a key; served in the other order, the first create is refused.
    const same = recording.exchanges.filter(
      (e) =>
        e.method === "POST" &&
        e.url.endsWith("/namespaces/scenario-protobuf/ingresses") &&
        (e.status === 409 || Buffer.from(e.requestBody, "base64").includes("web-2")),
    );
    expect(same.map((e) => e.status)).toEqual([201, 409]);
    const swapped = recording.exchanges.map((e) => (e === same[0] ? same[1] : e === same[1] ? same[0] : e));
    await expect(replayClientScenario({ ...recording, exchanges: swapped as Exchange[] })).rejects.toThrow(
      /AlreadyExists/,
    );
  });
});
