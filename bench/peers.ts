// The peer implementations clusterwire is measured against.
// protobufjs uses run-time reflection over our proto/ files: its static code
// generator lives in protobufjs-cli, which is not installed.

import { isAbsolute, resolve } from "node:path";
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
