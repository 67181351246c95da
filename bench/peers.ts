// The peer implementations clusterwire is measured against: protobuf-es, and
// protobufjs both by reflection and as static code that pbjs generates from
// our proto/ files when the bench starts (nothing generated is committed).

import { spawnSync } from "node:child_process";
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { fromBinary, toBinary, type DescMessage, type Message } from "@bufbuild/protobuf";
import protobuf from "protobufjs";
import { repoRoot } from "./fixtures.js";

/** A bare-message codec: raw object bytes in and out, no envelope. */
export interface PeerCodec<M = unknown> {
  readonly name: string;
  readonly decode: (raw: Uint8Array) => M;
  readonly encode: (msg: M) => Uint8Array;
}

/** @bufbuild/protobuf's plain fromBinary/toBinary with default options. */
export function protobufEs(desc: DescMessage): PeerCodec<Message> {
  return {
    name: "protobuf-es",
    decode: (raw) => fromBinary(desc, raw),
    encode: (msg) => toBinary(desc, msg),
  };
}

const PROTO_FILES = [
  "k8s/io/apimachinery/pkg/runtime/runtime.proto",
  "k8s/io/apimachinery/pkg/util/intstr/intstr.proto",
  "k8s/io/apimachinery/pkg/apis/meta/v1/meta.proto",
  "k8s/io/api/core/v1/core.proto",
  "k8s/io/api/networking/v1/networking.proto",
];

let root: protobuf.Root | undefined;

function protobufjsRoot(): protobuf.Root {
  if (root !== undefined) return root;
  const protoDir = resolve(repoRoot(), "proto");
  const r = new protobuf.Root();
  // Imports are written relative to proto/, not to the importing file.
  r.resolvePath = (_origin, target) => (isAbsolute(target) ? target : resolve(protoDir, target));
  r.loadSync(PROTO_FILES, { keepCase: true });
  r.resolveAll();
  root = r;
  return r;
}

/** protobufjs reflection: Type.decode / Type.encode().finish(), used as its docs show. */
export function protobufjsReflect(typeName: string): PeerCodec<protobuf.Message> {
  const type = protobufjsRoot().lookupType(typeName);
  return {
    name: "protobufjs",
    decode: (raw) => type.decode(raw),
    encode: (msg) => type.encode(msg).finish(),
  };
}

interface StaticType {
  decode(raw: Uint8Array): protobuf.Message;
  encode(msg: protobuf.Message): protobuf.Writer;
}

let staticRoot: Record<string, unknown> | undefined;

/**
 * Generates protobufjs static code (pbjs -t static-module -w es6) next to the
 * compiled bench and loads it. Only the codec is generated: no verify,
 * convert or delimited helpers, as a user tuning for speed would.
 */
export async function loadProtobufjsStatic(): Promise<void> {
  const out = fileURLToPath(new URL("./pbjs-static.js", import.meta.url));
  const pbjs = resolve(repoRoot(), "node_modules", "protobufjs-cli", "bin", "pbjs");
  const args = [
    "-t",
    "static-module",
    "-w",
    "es6",
    "--keep-case",
    "--no-comments",
    "--no-verify",
    "--no-convert",
    "--no-delimited",
  ];
  const r = spawnSync(
    process.execPath,
    [pbjs, ...args, "-p", resolve(repoRoot(), "proto"), "-o", out, PROTO_FILES[PROTO_FILES.length - 1] as string],
    {
      encoding: "utf8",
    },
  );
  if (r.status !== 0) throw new Error(`pbjs failed: ${r.stderr || r.error?.message}`);
  staticRoot = (await import(out)) as Record<string, unknown>;
}

/** protobufjs static code: the generated Type.decode / Type.encode().finish(). */
export function protobufjsStatic(typeName: string): PeerCodec<protobuf.Message> {
  if (staticRoot === undefined) throw new Error("call loadProtobufjsStatic() first");
  let node: unknown = staticRoot;
  for (const part of typeName.split(".")) node = (node as Record<string, unknown>)[part];
  const type = node as StaticType | undefined;
  if (type === undefined || typeof type.decode !== "function") throw new Error(`pbjs static code has no ${typeName}`);
  return {
    name: "protobufjs static",
    decode: (raw) => type.decode(raw),
    encode: (msg) => type.encode(msg).finish(),
  };
}
