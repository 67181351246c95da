// The client scenario (test/support/client/scenario.ts) live against each real kube-apiserver
// this repository builds, through the recording proxy: the scenario's assertions hold on the real
// server, the recording holds no token, and it replays at once with no request left unanswered
// and no answer left unasked. With CLUSTERWIRE_CLIENT_RECORD=1 (`npm run client-record`) the
// recording is also written to test/fixtures/client/<version>.json.gz, which npm test replays
// (test/suites/client-recorded.test.ts). Skipped when the control plane is not built
// (`npm run apiserver` builds it), except when recording.
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  apiRequest,
  type ControlPlane,
  controlPlaneBuilt,
  startControlPlane,
  VERSIONS,
} from "../../support/controlplane/start.js";
import { encodeRecording, type Recording } from "../../support/client/recording.js";
import {
  clientFixturePath,
  recordClientScenario,
  replayClientScenario,
  SCENARIO_FORMATS,
  scenarioNamespace,
  secretIn,
} from "../../support/client/scenario.js";
import { certProblem } from "../../support/storage/cert.js";
import { skipWithout } from "../../support/tools.js";

const RECORD = process.env["CLUSTERWIRE_CLIENT_RECORD"] === "1";

for (const version of Object.keys(VERSIONS)) {
  const built = controlPlaneBuilt(version);
  if (!built && !RECORD) {
    console.warn(
      `test/suites/apiserver/client-scenario.test.ts: ${version} skipped, the control plane is not built; \`npm run apiserver -- --version ${version}\` builds it`,
    );
  }

  describe.skipIf(!built && !RECORD)(`the client scenario against kube-apiserver ${version}`, () => {
    let plane: ControlPlane | undefined;

    beforeAll(async () => {
      plane = await startControlPlane({ version });
      for (const format of SCENARIO_FORMATS) {
        const made = await apiRequest(plane, "POST", "/api/v1/namespaces", {
          apiVersion: "v1",
          kind: "Namespace",
          metadata: { name: scenarioNamespace(format) },
        });
        expect(made.status).toBe(201);
      }
    }, 120_000);
    afterAll(async () => {
      await plane?.stop();
    });

    it("holds live, records without the token, and replays from that recording", async (t) => {
      if (plane === undefined) throw new Error("the control plane did not start");
      const recording: Recording | undefined = await recordClientScenario(plane, plane.version);
      if (recording === undefined) return skipWithout(t, "openssl", certProblem());
      expect(recording.server).toBe(version);
      expect(secretIn(recording, plane.token)).toEqual([]);
      // The watch ended on the server's side (timeoutSeconds): every answer is whole.
      expect(recording.exchanges.filter((e) => !e.complete).map((e) => `${e.method} ${e.url}`)).toEqual([]);

      const replayed = await replayClientScenario(recording);
      expect(replayed).toEqual({ unmatched: [], remaining: 0 });

      if (RECORD) {
        const path = clientFixturePath(version);
        const bytes = encodeRecording(recording);
        writeFileSync(path, bytes);
        console.log(`${path}: ${recording.exchanges.length} exchanges, ${bytes.length} bytes`);
      }
    }, 60_000);
  });
}
