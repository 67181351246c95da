// The API server's watch stream, recorded as it arrives: the bytes of the first N events of a
// watch, in the chunks the socket delivered them, JSON (newline-delimited events) or protobuf
// (4-byte big-endian length frames). The informer bench replays them in-process, so the server's
// speed is out of the comparison. EventBoundaries (pure, tested in test/bench/client/record.test.ts)
// finds where each event ends without decoding it. --save-recordings writes each stream's bytes to
// a file (KIND-EVENT.json, KIND-EVENT.pb) and --recordings reads them back (recordingOf, also pure
// and tested), cut into chunks of RECORDED_CHUNK bytes: the files keep the bytes, not the
// socket's chunking.

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:https";
import { join } from "node:path";
import type { ControlPlane } from "../../test/support/controlplane/start.js";

export type WireFormat = "json" | "protobuf";

/** The Accept header of a watch in each format. */
export const WATCH_ACCEPT: Readonly<Record<WireFormat, string>> = {
  json: "application/json",
  protobuf: "application/vnd.kubernetes.protobuf;stream=watch",
};

/** Finds the ends of events in a watch stream fed chunk by chunk. */
export class EventBoundaries {
  /** Events ended so far. */
  events = 0;
  // protobuf: bytes of the length prefix read so far, its value, and the frame bytes still to come.
  private header = 0;
  private headerBytes = 0;
  private remaining = -1;

  constructor(readonly format: WireFormat) {}

  /** Feeds the next chunk; returns the offsets in it just past each event that ends inside it. */
  push(chunk: Uint8Array): number[] {
    const ends: number[] = [];
    if (this.format === "json") {
      // The API server ends every JSON watch event with a newline, and a newline inside a JSON
      // text is always escaped, so each 0x0a ends an event.
      for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, i + 1)) ends.push(i + 1);
    } else {
      let i = 0;
      while (i < chunk.length) {
        if (this.remaining < 0) {
          this.header = this.header * 256 + chunk[i]!;
          this.headerBytes++;
          i++;
          if (this.headerBytes === 4) {
            this.remaining = this.header;
            this.header = 0;
            this.headerBytes = 0;
          }
          if (this.remaining !== 0) continue;
        }
        const take = Math.min(this.remaining, chunk.length - i);
        i += take;
        this.remaining -= take;
        if (this.remaining === 0) {
          ends.push(i);
          this.remaining = -1;
        }
      }
    }
    this.events += ends.length;
    return ends;
  }
}

/** A recorded watch stream. */
export interface Recording {
  readonly format: WireFormat;
  /** The chunks as received, the last one cut just after the last event kept. */
  readonly chunks: readonly Buffer[];
  readonly bytes: number;
  readonly events: number;
}

/**
 * Opens a watch of `path` (a collection, e.g. /apis/networking.k8s.io/v1/ingresses) from
 * `resourceVersion` in `format`, and records it until `events` events have come, then cuts it.
 * `onOpen` runs once the response headers are in (the watch is established): start the writes
 * that should show up in it there. Rejects on a status other than 200, on an early end, or after
 * `timeoutMs`.
 */
export function recordWatch(
  plane: Pick<ControlPlane, "url" | "token" | "caPem">,
  path: string,
  format: WireFormat,
  resourceVersion: string,
  events: number,
  onOpen: () => Promise<unknown> = async () => {},
  timeoutMs = 600_000,
): Promise<Recording> {
  const url = new URL(path, plane.url);
  url.searchParams.set("watch", "1");
  url.searchParams.set("resourceVersion", resourceVersion);
  const agent = new Agent({ keepAlive: false, ca: plane.caPem });
  return new Promise<Recording>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | undefined, recording?: Recording): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      agent.destroy();
      if (error !== undefined) reject(error);
      else resolve(recording!);
    };
    const timer = setTimeout(
      () => finish(new Error(`watch ${path} (${format}): fewer than ${events} events in ${timeoutMs} ms`)),
      timeoutMs,
    );
    const req = request(
      url,
      { agent, headers: { Authorization: `Bearer ${plane.token}`, Accept: WATCH_ACCEPT[format] } },
      (res) => {
        if (res.statusCode !== 200) {
          let body = "";
          res.on("data", (c: Buffer) => {
            body += c.toString("utf8");
          });
          res.on("end", () =>
            finish(new Error(`watch ${path} (${format}): HTTP ${res.statusCode}: ${body.slice(0, 500)}`)),
          );
          return;
        }
        const boundaries = new EventBoundaries(format);
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on("data", (chunk: Buffer) => {
          const before = boundaries.events;
          const ends = boundaries.push(chunk);
          if (boundaries.events < events) {
            chunks.push(chunk);
            bytes += chunk.length;
            return;
          }
          const cut = chunk.subarray(0, ends[events - before - 1]!);
          chunks.push(cut);
          bytes += cut.length;
          finish(undefined, { format, chunks, bytes, events });
        });
        res.on("end", () =>
          finish(new Error(`watch ${path} (${format}) ended after ${boundaries.events} of ${events} events`)),
        );
        res.on("error", (e) => finish(e));
        onOpen().catch((e: unknown) => finish(e instanceof Error ? e : new Error(String(e))));
      },
    );
    req.on("error", (e) => finish(e));
    req.end();
  });
}

/** The size of the chunks a saved recording is cut into when it is read back. */
export const RECORDED_CHUNK = 16 * 1024;

/** The file a stream of `kind` and `event` (ADDED, MODIFIED) is saved in. */
export function recordingFile(dir: string, kind: string, event: string, format: WireFormat): string {
  return join(dir, `${kind}-${event}.${format === "json" ? "json" : "pb"}`);
}

/** Writes a recording's bytes, as the API server sent them, to `file` (its folder made if need be). */
export function saveRecording(file: string, recording: Recording): void {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, Buffer.concat(recording.chunks));
}

/**
 * A saved stream's bytes as a recording cut into chunks of `chunkSize` bytes; a RangeError when
 * they do not hold exactly `events` whole events.
 */
export function recordingOf(bytes: Buffer, format: WireFormat, events: number, chunkSize = RECORDED_CHUNK): Recording {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += chunkSize) chunks.push(bytes.subarray(at, at + chunkSize));
  const boundaries = new EventBoundaries(format);
  let end = 0;
  let offset = 0;
  for (const chunk of chunks) {
    const ends = boundaries.push(chunk);
    if (ends.length > 0) end = offset + ends[ends.length - 1]!;
    offset += chunk.length;
  }
  if (boundaries.events !== events || end !== bytes.length) {
    const tail = end === bytes.length ? "" : ` and ${bytes.length - end} bytes of an unfinished one`;
    throw new RangeError(`a ${format} recording of ${boundaries.events} events${tail}, not ${events} events`);
  }
  return { format, chunks, bytes: bytes.length, events };
}

/** Reads the recording saved in `file`; see recordingOf. */
export function readRecording(file: string, format: WireFormat, events: number): Recording {
  try {
    return recordingOf(readFileSync(file), format, events);
  } catch (e) {
    throw new Error(`${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
