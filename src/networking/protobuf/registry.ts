import type { DescMessage } from "@bufbuild/protobuf";
import { WatchEventSchema } from "../../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";
import { KINDS } from "../model/kinds.js";

/**
 * The message types a codec can encode from their `$typeName`: a value you
 * create and pass (as protobuf-es `createRegistry`), never filled as a side
 * effect of importing a module.
 */
export interface Registry {
  /** The descriptor of a registered message type, or undefined. */
  getMessage(typeName: string): DescMessage | undefined;
  /** Every registered type name, in registration order. */
  typeNames(): readonly string[];
}

/** A registry of `descs` and every message type their fields reach. */
export function createRegistry(...descs: DescMessage[]): Registry {
  const byName = new Map<string, DescMessage>();
  const add = (d: DescMessage): void => {
    if (byName.has(d.typeName)) return;
    byName.set(d.typeName, d);
    for (const f of d.fields) if (f.message !== undefined) add(f.message);
  };
  for (const d of descs) add(d);
  return {
    getMessage: (typeName) => byName.get(typeName),
    typeNames: () => [...byName.keys()],
  };
}

let networking: Registry | undefined;

/** The registry of every networking kind (and WatchEvent), created on first use. */
export function networkingRegistry(): Registry {
  networking ??= createRegistry(...KINDS.map((i) => i.desc), WatchEventSchema);
  return networking;
}
