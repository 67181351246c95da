// An HTTPS gate between `clusterwire webhook serve --ingress-capture` and a real kube-apiserver,
// on loopback, for tests of the capture guard's list and watch: it forwards every request as is
// (the webhook's bearer token included) and records what the webhook asked for (method, path,
// Accept) and what the API server answered (status, Content-Type). A test can hold requests
// (the API server looks unreachable: nothing answers until release()), and cut the watches open
// through it (a dropped connection, so the guard opens its watch again from the last
// resourceVersion it saw). It serves the control plane's own certificate, which names
// 127.0.0.1, so the kubeconfig it writes is the control plane's with only the server changed.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, request } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ControlPlane } from "../controlplane/start.js";

/** One request through the gate. */
export interface GateRequest {
  readonly method: string;
  /** Path and query, as sent. */
  readonly path: string;
  readonly accept: string;
  readonly userAgent: string;
  /** When it reached the gate (Date.now()). */
  readonly at: number;
  /** The API server's status and Content-Type, once its headers came back. */
  status?: number;
  contentType?: string;
}

export interface ApiServerGate {
  /** https://127.0.0.1:PORT */
  readonly url: string;
  /** The control plane's kubeconfig with its server set to the gate. */
  readonly kubeconfigPath: string;
  /** Every request so far, oldest first. */
  readonly requests: readonly GateRequest[];
  /** How many requests wait for release(). */
  readonly waiting: number;
  /** From now on, requests wait (unanswered) until release(). */
  hold(): void;
  /** Forwards the waiting requests, and every later one. */
  release(): void;
  /** Drops every watch open through the gate, both sides; returns how many. */
  cutWatches(): number;
  close(): Promise<void>;
}

/** Starts a gate in front of `plane`; it holds requests from the start when `held`. */
export async function startGate(plane: ControlPlane, held = false): Promise<ApiServerGate> {
  const dir = mkdtempSync(join(tmpdir(), "clusterwire-gate-"));
  const requests: GateRequest[] = [];
  let waiting: Array<() => void> = [];
  let holding = held;
  const watches = new Set<{ client: ServerResponse; upstream: IncomingMessage }>();
  const upstreamUrl = new URL(plane.url);

  const forward = (req: IncomingMessage, res: ServerResponse, entry: GateRequest): void => {
    if (res.destroyed) return;
    const headers = { ...req.headers, host: upstreamUrl.host };
    const up = request(
      new URL(req.url ?? "/", plane.url),
      { method: req.method ?? "GET", headers, ca: plane.caPem, agent: false },
      (upstream) => {
        entry.status = upstream.statusCode ?? 0;
        entry.contentType = String(upstream.headers["content-type"] ?? "");
        res.writeHead(upstream.statusCode ?? 502, upstream.headers);
        res.flushHeaders();
        const watch = { client: res, upstream };
        if (/[?&]watch=(1|true)/.test(entry.path)) watches.add(watch);
        upstream.pipe(res);
        res.on("close", () => {
          watches.delete(watch);
          upstream.destroy();
        });
      },
    );
    up.on("error", () => res.destroy());
    res.on("close", () => up.destroy());
    req.pipe(up);
  };

  const server = createServer(
    { cert: readFileSync(join(plane.dir, "serving.crt")), key: readFileSync(join(plane.dir, "serving.key")) },
    (req, res) => {
      const entry: GateRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        accept: String(req.headers.accept ?? ""),
        userAgent: String(req.headers["user-agent"] ?? ""),
        at: Date.now(),
      };
      requests.push(entry);
      if (holding) waiting.push(() => forward(req, res, entry));
      else forward(req, res, entry);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const kubeconfigPath = join(dir, "kubeconfig");
  const original = readFileSync(plane.kubeconfigPath, "utf8");
  if (!original.includes(`server: ${plane.url}\n`)) throw new Error("the control plane's kubeconfig names no server");
  writeFileSync(kubeconfigPath, original.replace(`server: ${plane.url}\n`, `server: ${url}\n`), { mode: 0o600 });

  return {
    url,
    kubeconfigPath,
    requests,
    get waiting() {
      return waiting.length;
    },
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      const go = waiting;
      waiting = [];
      for (const f of go) f();
    },
    cutWatches() {
      const open = [...watches];
      for (const w of open) {
        w.upstream.destroy();
        w.client.destroy();
      }
      watches.clear();
      return open.length;
    },
    async close() {
      holding = false;
      waiting = [];
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
