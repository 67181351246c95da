// The informer bench's figures, on samples worked out by hand (no timing involved).
import { describe, expect, it } from "vitest";
import { figures, type Group, groupText, perSecond } from "../../../bench/client/report.js";

const group: Group = {
  id: "list:Ingress",
  title: ["list:Ingress — a title"],
  unit: "objects",
  items: 1000,
  contenders: [
    {
      name: "client-node",
      samples: [
        { ms: 1000, cpuUs: 2_000_000 },
        { ms: 500, cpuUs: 1_000_000 },
        { ms: 250, cpuUs: 500_000 },
      ],
      heapBytes: [3_000_000, 4_000_000, 5_000_000],
    },
    {
      name: "clusterwire (protobuf)",
      peer: "client-node",
      samples: [
        { ms: 250, cpuUs: 300_000 },
        { ms: 250, cpuUs: 200_000 },
        { ms: 125, cpuUs: 100_000 },
      ],
      heapBytes: [1_000_000, 1_000_000, 2_000_000],
    },
  ],
};

describe("figures", () => {
  it("gives items/s with its spread, CPU per item, heap per item, and per-round ratios to the peer", () => {
    expect(perSecond(1000, { ms: 250, cpuUs: 0 })).toBe(4000);
    const [peer, ours] = figures(group);
    expect(peer).toMatchObject({ name: "client-node", cpuUsPerItem: 1000, heapBytesPerItem: 4000 });
    expect(peer!.perSecond).toMatchObject({ median: 2000, min: 1000, max: 4000, n: 3 });
    expect(peer!.speedup).toBeUndefined();
    expect(ours).toMatchObject({ name: "clusterwire (protobuf)", cpuUsPerItem: 200, heapBytesPerItem: 1000 });
    expect(ours!.perSecond).toMatchObject({ median: 4000, min: 4000, max: 8000 });
    // Round by round: 4000/1000, 4000/2000, 8000/4000.
    expect(ours!.speedup).toMatchObject({ peer: "client-node", median: 2, min: 2, max: 4 });
    expect(ours!.heapRatio).toEqual({ peer: "client-node", ratio: 0.25 });
  });

  it("leaves out the heap when a group has none, and prints each contender with its ratio", () => {
    const live: Group = {
      ...group,
      id: "live:Ingress",
      unit: "events",
      contenders: group.contenders.map(({ heapBytes: _, ...c }) => c),
    };
    const [peer, ours] = figures(live);
    expect(peer!.heapBytesPerItem).toBeUndefined();
    expect(ours!.heapRatio).toBeUndefined();
    const text = groupText(live).join("\n");
    expect(text).toContain("median events/s");
    expect(text).toContain("CPU µs/event");
    expect(text).not.toContain("heap");
    expect(text).toMatch(
      /clusterwire \(protobuf\)\s+4,000 .* clusterwire \(protobuf\)\/client-node 2\.00× \(2\.00×–4\.00×\)/,
    );
    const listText = groupText(group).join("\n");
    expect(listText).toContain("heap B/object");
    expect(listText).toMatch(/client-node\s+2,000\s+1,500–3,000\s+1,000–4,000\s+1000\.00\s+4,000\s*$/m);
    expect(listText).toContain("heap 0.25×");
  });
});
