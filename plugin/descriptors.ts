import type { DescMessage } from "@bufbuild/protobuf";
import { SHAPES, buildShape, type MessageShape } from "../src/networking/model/go-shapes.js";

/*
 * What every emitter reads of the request: its messages, nested ones
 * included, and the Go struct behind each (go-shapes.ts, joined with the
 * request's own descriptors rather than the ones compiled into gen/).
 */

/** A file's messages and, after each, the messages nested in it. */
export function allMessages(messages: readonly DescMessage[]): DescMessage[] {
  const out: DescMessage[] = [];
  for (const m of messages) out.push(m, ...allMessages(m.nestedMessages));
  return out;
}

/** The Go shape of a message of the request; every message the plugin sees must have one. */
export function shapeOf(desc: DescMessage): MessageShape {
  const spec = SHAPES[desc.typeName];
  if (spec === undefined) throw new Error(`no Go shape for ${desc.typeName} in go-shapes.ts`);
  return buildShape(desc, spec);
}
