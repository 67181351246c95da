// The webhook server's own /metrics, read by the benches to see inside the server.

import * as https from "node:https";

/** The server's /metrics text, over TLS trusting `ca`. */
export function metricsText(url: string, ca: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    https
      .get(new URL("/metrics", url), { ca }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

/** The server's /metrics as series name -> value (all label sets summed per name and `le`). */
export async function scrape(url: string, ca: string): Promise<Map<string, number>> {
  const text = await metricsText(url, ca);
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (m === null) continue;
    const labels = m[2] ?? "";
    const kind = /kind="(major|minor|incremental|weakcb)"/.exec(labels);
    const le = /le="([^"]+)"/.exec(labels);
    const key =
      m[1]!.startsWith("nodejs_gc_") && kind !== null
        ? `${m[1]}{${kind[1]}}`
        : le !== null
          ? `${m[1]}{le=${le[1]}}`
          : m[1]!;
    out.set(key, (out.get(key) ?? 0) + Number(m[3]));
  }
  return out;
}
