// A TCP proxy on loopback that holds back what the upstream sends by `delayMs`, for a webhook
// slower than the API server's timeoutSeconds. It forwards bytes, TLS included, so the API
// server still talks to the webhook's own certificate (its address is 127.0.0.1 too). `cut()`
// drops every connection open through it at once, for a client that must survive a dropped
// connection (a watch to kube-apiserver, for instance); it keeps accepting new ones.
import { connect, createServer, type Server, type Socket } from "node:net";

export interface DelayProxy {
  /** https://127.0.0.1:PORT: the webhook's URL with the proxy's port. */
  readonly url: string;
  /** How long each chunk from the upstream is held back; may be changed at any time. */
  delayMs: number;
  /** Connections accepted so far. */
  readonly connections: () => number;
  /** Connections open now (accepted and not yet closed by either side or cut). */
  readonly open: () => number;
  /**
   * Drops every open connection, on both sides, and resolves with how many it dropped once their
   * sockets have closed. "reset" (the default) ends each with a TCP RST, as a crashed peer or a
   * middlebox would; "close" with a FIN, mid-stream (inside TLS, an end without close_notify).
   * New connections are still accepted.
   */
  cut(how?: "reset" | "close"): Promise<number>;
  /** Closes the listener and every connection. */
  close(): Promise<void>;
}

/** Starts a proxy to `upstreamUrl` (https://127.0.0.1:PORT) that delays its answers by `delayMs`. */
export async function startDelayProxy(upstreamUrl: string, delayMs = 0): Promise<DelayProxy> {
  const upstream = new URL(upstreamUrl);
  const sockets = new Set<Socket>();
  /** Each open connection: the accepted socket and the one to the upstream. */
  const pairs = new Set<readonly [Socket, Socket]>();
  let accepted = 0;
  const timers = new Set<NodeJS.Timeout>();
  const proxy: { delayMs: number } = { delayMs };
  const server: Server = createServer((client) => {
    accepted++;
    const target = connect(Number(upstream.port), upstream.hostname);
    const pair = [client, target] as const;
    pairs.add(pair);
    client.on("close", () => pairs.delete(pair));
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
    open: () => pairs.size,
    cut: async (how = "reset") => {
      const cutting = [...pairs];
      const closed = cutting.flat().map(
        (s) =>
          new Promise<void>((resolve) => {
            if (s.closed) resolve();
            else s.once("close", () => resolve());
          }),
      );
      for (const [client, target] of cutting) {
        for (const s of [client, target]) {
          // resetAndDestroy needs a connected socket; one still connecting is just destroyed.
          if (how === "reset" && !s.connecting && !s.destroyed) s.resetAndDestroy();
          else s.destroy();
        }
      }
      await Promise.all(closed);
      return cutting.length;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
