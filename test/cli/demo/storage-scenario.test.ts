import { describe, expect, it } from "vitest";
import { loadExpectations } from "../../../src/cli/demo/expectations.js";
import { STORAGE_STEPS, runStorageScenario } from "../../../src/cli/demo/storage-scenario.js";

// The demo's storage scenario, against the answers in examples/demo/expected.yaml.

/** Runs the scenario, capturing its output. */
async function scenario(
  options: Parameters<typeof runStorageScenario>[1] = {},
): Promise<{ ok: boolean; lines: string[] }> {
  let out = "";
  const ok = await runStorageScenario(
    { stdout: { write: (c) => (out += String(c)) }, stderr: { write: () => {} } },
    options,
  );
  return { ok, lines: out.split("\n").slice(0, -1) };
}

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

describe("demo: the storage scenario", () => {
  it("prints one line per step and a summary, every step as the spec says", async () => {
    // No wall-clock budget: time on the server is a manual clock that only the steps move, so
    // waiting in real time could not make the jobs progress; the lines below (PT1H → PT50M
    // 10 minutes later, queued → running → success) show the manual clock did.
    const { ok, lines } = await scenario();
    expect(ok).toBe(true);
    // Everything but the uuids is the same on every run (the server's clock moves with the jobs).
    const shape = lines.map((l) => l.replace(new RegExp(UUID, "g"), "UUID"));
    expect(shape).toEqual([
      "",
      "clusterwire demo: storage scenario with StorageClient against a reference server on loopback (steps: clone-token, cache, namespace, quota-rules, software-validate)",
      "clone-token        created UUID on node1: reserve_size 41943040 (sent as 40M), expiry_time.limit PT1H, left PT1H → PT50M 10 minutes later",
      "cache              POST 202, job UUID queued → running → success; cache UUID shop_cache on svm2 from svm1:vol1, size 10737418240 (sent as 10G), path /shop_cache, guarantee.type none",
      "namespace          created UUID /vol/vol1/shop_ns (linux): space.size 1073741824 (sent as 1G), space.block_size 4096 (the default)",
      "quota-rules        created UUID user alice on vol1/q1: space.hard_limit 10737418240, soft_limit 8589934592; vol1 now has 2 rules",
      '      added by the server: UUID user rule for user "" on qtree "" (the default rule)',
      "software-validate  installed 9.14.1; 9.15.1 job queued → running → success: ok (1 warning, 0 errors); 9.16.1 job queued → running → failure: refused (0 warnings, 1 error)",
      "      9.15.1 warning Manual checks: Manual validation checks need to be performed. → Review the upgrade documentation.",
      "      9.16.1 error Disk status: Some disks are broken. → Replace the broken disks.",
      expect.stringMatching(/^ok: storage scenario 5\/5 steps ok; \d+ requests to the reference server$/),
    ]);
  });

  it("fails when the server does not behave as expected, and still runs the other steps", async () => {
    // A validation without the expected warning, and an inventory without vol1.
    const { ok, lines } = await scenario({
      server: {
        software: {
          packages: [
            { version: "9.15.1" },
            { version: "9.16.1", checks: [{ update_check: "Disk status", status: "error", issue: "Broken." }] },
          ],
        },
        inventory: { volumes: [{ name: "other", svm: "svm1" }] },
      },
    });
    expect(ok).toBe(false);
    const text = lines.join("\n");
    expect(text).toMatch(/\nclone-token +created /);
    expect(text).toMatch(
      /\ncache +FAILED: the step threw\n {4}- StorageApiError: POST \/api\/storage\/cache\/caches: HTTP 400/,
    );
    expect(text).toMatch(/\nnamespace +FAILED: the step threw\n {4}- StorageApiError: /);
    expect(text).toMatch(
      /\nsoftware-validate +FAILED: installed 9\.14\.1; 9\.15\.1 job .*: ok \(0 warnings, 0 errors\)/,
    );
    expect(text).toContain("\n    - 9.15.1: expected a warning from validation\n");
    expect(lines.at(-1)).toMatch(/^FAILED: storage scenario 1\/5 steps ok; \d+ requests to the reference server$/);
  });

  it("runs the steps it is given", async () => {
    const { ok, lines } = await scenario({ steps: STORAGE_STEPS.slice(0, 1) });
    expect(ok).toBe(true);
    expect(lines.at(-1)).toMatch(/^ok: storage scenario 1\/1 steps ok;/);
  });

  it("fails when an expected answer in examples/demo/expected.yaml changes", async () => {
    const expected = (await loadExpectations({})).storage;
    const { ok, lines } = await scenario({
      expected: {
        ...expected,
        namespace: { ...expected.namespace, blockSize: 512 },
        softwareValidate: [{ version: "9.16.1", passes: true }],
      },
    });
    expect(ok).toBe(false);
    const text = lines.join("\n");
    expect(text).toContain("\n    - space.block_size 4096, expected the default 512\n");
    expect(text).toContain("\n    - 9.16.1: validation failed, expected it to pass\n");
    expect(lines.at(-1)).toMatch(/^FAILED: storage scenario 3\/5 steps ok;/);
  });
});
