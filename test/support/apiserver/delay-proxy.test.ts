// The loopback TCP proxy: it forwards both ways, cut() drops every open connection (with a RST,
// or with a FIN) on both sides and says how many, and connections made afterwards work.
import { connect, createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type DelayProxy, startDelayProxy } from "./delay-proxy.js";

/** An echo server on loopback that counts the connections it has open. */
async function echoServer(): Promise<{ port: number; open: () => number; server: Server }> {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    s.on("error", () => {});
    s.pipe(s);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  return { port: address.port, open: () => sockets.size, server };
}

interface Client {
  readonly socket: Socket;
  /** Resolves once `text` has come back. */
  echo(text: string): Promise<void>;
  /** Resolves when the socket closes, with the error code it saw ("" for none) and whether it got a FIN. */
  readonly closed: Promise<{ code: string; ended: boolean }>;
}

async function client(port: number): Promise<Client> {
  const socket = connect(port, "127.0.0.1");
  let received = "";
  let waiting: { text: string; resolve: () => void } | undefined;
  let code = "";
  let ended = false;
  socket.on("data", (chunk: Buffer) => {
    received += chunk.toString("utf8");
    if (waiting !== undefined && received.endsWith(waiting.text)) waiting.resolve();
  });
  socket.on("error", (e: NodeJS.ErrnoException) => {
    code = e.code ?? e.message;
  });
  socket.on("end", () => {
    ended = true;
  });
  const closed = new Promise<{ code: string; ended: boolean }>((resolve) =>
    socket.on("close", () => resolve({ code, ended })),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  return {
    socket,
    closed,
    echo: (text) =>
      new Promise<void>((resolve) => {
        waiting = { text, resolve };
        socket.write(text);
      }),
  };
}

describe("startDelayProxy", () => {
  let proxy: DelayProxy | undefined;
  let upstream: Server | undefined;
  afterEach(async () => {
    await proxy?.close();
    await new Promise<void>((resolve) => (upstream === undefined ? resolve() : upstream.close(() => resolve())));
  });

  for (const how of ["reset", "close"] as const) {
    it(`cut("${how}") drops every open connection on both sides and keeps accepting`, async () => {
      const echo = await echoServer();
      upstream = echo.server;
      proxy = await startDelayProxy(`https://127.0.0.1:${echo.port}`);
      const port = Number(new URL(proxy.url).port);
      const a = await client(port);
      const b = await client(port);
      // An answer through each means both of its connections are up.
      await a.echo("one");
      await b.echo("two");
      expect(proxy.open()).toBe(2);
      expect(echo.open()).toBe(2);

      expect(await proxy.cut(how)).toBe(2);
      const seen = await Promise.all([a.closed, b.closed]);
      for (const s of seen) {
        if (how === "reset") expect(s.code).toBe("ECONNRESET");
        else expect(s).toEqual({ code: "", ended: true });
      }
      expect(proxy.open()).toBe(0);
      expect(await proxy.cut(how)).toBe(0);

      const c = await client(port);
      await c.echo("three");
      expect(proxy.connections()).toBe(3);
      expect(proxy.open()).toBe(1);
      // The upstream's side of the cut connections is closed too: only c's remains.
      await new Promise<void>((resolve) => {
        const check = (): void => (echo.open() === 1 ? resolve() : void setImmediate(check));
        check();
      });
      c.socket.destroy();
    });
  }
});
