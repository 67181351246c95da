// A TCP proxy on loopback that holds back what the upstream sends by `delayMs`, for a webhook
// slower than the API server's timeoutSeconds. It forwards bytes, TLS included, so the API
// server still talks to the webhook's own certificate (its address is 127.0.0.1 too).
import { connect, createServer, type Server, type Socket } from "node:net";

export interface DelayProxy {
  /** https://127.0.0.1:PORT: the webhook's URL with the proxy's port. */
  readonly url: string;
  /** How long each chunk from the upstream is held back; may be changed at any time. */
  delayMs: number;
  /** Connections accepted so far. */
  readonly connections: () => number;
  /** Closes the listener and every connection. */
  close(): Promise<void>;
}

/** Starts a proxy to `upstreamUrl` (https://127.0.0.1:PORT) that delays its answers by `delayMs`. */
export async function startDelayProxy(upstreamUrl: string, delayMs = 0): Promise<DelayProxy> {
  const upstream = new URL(upstreamUrl);
  const sockets = new Set<Socket>();
  let accepted = 0;
  const timers = new Set<NodeJS.Timeout>();
  const proxy: { delayMs: number } = { delayMs };
  const server: Server = createServer((client) => {
    accepted++;
    const target = connect(Number(upstream.port), upstream.hostname);
    for (const s of [client, target]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {
        client.destroy();
        target.destroy();
      });
    }
    client.pipe(target);
    // Chunks leave in order even when delayMs shrinks mid-connection.
    let releaseAt = 0;
    const later = (send: () => void) => {
      releaseAt = Math.max(releaseAt, Date.now() + proxy.delayMs);
      const timer = setTimeout(() => {
        timers.delete(timer);
        send();
      }, releaseAt - Date.now());
      timers.add(timer);
    };
    target.on("data", (chunk: Buffer) => later(() => client.destroyed || client.write(chunk)));
    target.on("end", () => later(() => client.end()));
    client.on("close", () => target.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the proxy has no TCP address");
  return {
    url: `https://127.0.0.1:${address.port}`,
    get delayMs() {
      return proxy.delayMs;
    },
    set delayMs(ms: number) {
      proxy.delayMs = ms;
    },
    connections: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
