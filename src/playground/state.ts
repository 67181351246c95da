// The page's whole state, kept in the URL hash so that a link reproduces it:
// JSON, deflated (CompressionStream "deflate-raw", built into browsers and
// Node 18+), in base64url. Reading a hash never trusts it: every field is
// checked and anything unexpected falls back to the default.
import type { Operation } from "./analyze.js";

export const TABS = ["json", "yaml", "wire"] as const;
export type Tab = (typeof TABS)[number];

export interface PlaygroundState {
  readonly input: string;
  readonly old: string;
  readonly operation: Operation;
  readonly namespace: string;
  readonly gates: Readonly<Record<string, boolean>>;
  readonly host: string;
  readonly path: string;
  readonly controller: string;
  readonly tab: Tab;
  /** The Reach pane: the cluster description, protocol and port. */
  readonly cluster: string;
  readonly reachProtocol: string;
  readonly reachPort: string;
}

/** The prefix of the hash that holds the state. */
export const HASH_PREFIX = "#s=";

/** The largest state a hash may inflate to: a link cannot make the page allocate without bound. */
export const MAX_STATE_BYTES = 4 << 20;

function toBase64Url(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array {
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** CompressionStream and DecompressionStream, as both Node's and the DOM's types can name them. */
interface ByteTransform {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
}

async function pipe(bytes: Uint8Array, stream: ByteTransform, limit: number): Promise<Uint8Array> {
  const writer = stream.writable.getWriter();
  void writer.write(bytes).catch(() => undefined);
  void writer.close().catch(() => undefined);
  const reader = stream.readable.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      throw new RangeError(`the shared state inflates past ${limit} bytes`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** The state as a hash (`#s=...`). */
export async function encodeState(state: PlaygroundState): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(state));
  const packed = await pipe(
    json,
    new CompressionStream("deflate-raw") as unknown as ByteTransform,
    Number.MAX_SAFE_INTEGER,
  );
  return HASH_PREFIX + toBase64Url(packed);
}

function str(v: unknown, fallback: string): string {
  return typeof v === "string" ? v : fallback;
}

/**
 * The state in `hash` over `defaults`, or undefined when the hash holds none
 * or cannot be read (a mangled link opens the default page).
 */
export async function decodeState(hash: string, defaults: PlaygroundState): Promise<PlaygroundState | undefined> {
  if (!hash.startsWith(HASH_PREFIX)) return undefined;
  let raw: unknown;
  try {
    const bytes = await pipe(
      fromBase64Url(hash.slice(HASH_PREFIX.length)),
      new DecompressionStream("deflate-raw") as unknown as ByteTransform,
      MAX_STATE_BYTES,
    );
    raw = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return undefined;
  const r = raw as Record<string, unknown>;
  const gates: Record<string, boolean> = {};
  for (const name of Object.keys(defaults.gates)) {
    const v = (r["gates"] as Record<string, unknown> | undefined)?.[name];
    gates[name] = typeof v === "boolean" ? v : (defaults.gates[name] ?? false);
  }
  const op = r["operation"];
  const tab = r["tab"];
  return {
    input: str(r["input"], defaults.input),
    old: str(r["old"], defaults.old),
    operation: op === "create" || op === "update" || op === "status" ? op : defaults.operation,
    namespace: str(r["namespace"], defaults.namespace),
    gates,
    host: str(r["host"], defaults.host),
    path: str(r["path"], defaults.path),
    controller: str(r["controller"], defaults.controller),
    tab: TABS.includes(tab as Tab) ? (tab as Tab) : defaults.tab,
    cluster: str(r["cluster"], defaults.cluster),
    reachProtocol: ["TCP", "UDP", "SCTP"].includes(r["reachProtocol"] as string)
      ? (r["reachProtocol"] as string)
      : defaults.reachProtocol,
    reachPort: str(r["reachPort"], defaults.reachPort),
  };
}
