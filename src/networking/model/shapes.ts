import type { DescMessage } from "@bufbuild/protobuf";
import { file_k8s_io_api_networking_v1_networking } from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { file_k8s_io_apimachinery_pkg_apis_meta_v1_meta } from "../../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";
import { file_k8s_io_apimachinery_pkg_runtime_runtime } from "../../../gen/k8s/io/apimachinery/pkg/runtime/runtime_pb.js";
import { SHAPES, buildShape, type MessageShape } from "./go-shapes.js";

export {
  FIELDS_V1_TYPE,
  GO_ZERO_TIME_SECONDS,
  INT_OR_STRING_TYPE,
  TIME_TYPE,
  type FieldShape,
  type MessageShape,
} from "./go-shapes.js";

/*
 * The Go shapes of go-shapes.ts joined with the descriptors in gen/, built
 * once on first use.
 */

let shapes: Map<string, MessageShape> | undefined;

/** Builds every shape on first use (and checks SHAPES against the descriptors). */
function allShapes(): Map<string, MessageShape> {
  if (shapes !== undefined) return shapes;
  const built = new Map<string, MessageShape>();
  for (const file of [
    file_k8s_io_apimachinery_pkg_runtime_runtime,
    file_k8s_io_apimachinery_pkg_apis_meta_v1_meta,
    file_k8s_io_api_networking_v1_networking,
  ]) {
    for (const desc of allMessages(file.messages)) registerShape(built, desc);
  }
  shapes = built;
  return built;
}

function allMessages(messages: readonly DescMessage[]): DescMessage[] {
  const out: DescMessage[] = [];
  for (const m of messages) out.push(m, ...allMessages(m.nestedMessages));
  return out;
}

function registerShape(shapes: Map<string, MessageShape>, desc: DescMessage): void {
  if (shapes.has(desc.typeName)) return;
  const spec = SHAPES[desc.typeName];
  if (spec === undefined) throw new Error(`shapes: no Go shape for ${desc.typeName}`);
  shapes.set(desc.typeName, buildShape(desc, spec));
  for (const f of desc.fields) if (f.message !== undefined) registerShape(shapes, f.message);
}

/** The Go shape of a message. Every message reachable from the served kinds has one. */
export function shapeOf(desc: DescMessage): MessageShape {
  const s = allShapes().get(desc.typeName);
  if (s === undefined) throw new Error(`shapes: no Go shape for ${desc.typeName}`);
  return s;
}
