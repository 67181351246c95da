// NVMe namespaces (/api/storage/namespaces): models and request bodies.

import fc from "fast-check";
import {
  METRIC_DURATIONS,
  METRIC_STATUSES,
  NAMESPACE_BLOCK_SIZES,
  NAMESPACE_CONTAINER_STATES,
  NAMESPACE_MAX_SIZE,
  NAMESPACE_OS_TYPES,
  NAMESPACE_STATES,
  type NvmeNamespace,
  type NvmeNamespacePatchInput,
  type NvmeNamespacePostInput,
  type ReferenceInput,
} from "../../storage/index.js";
import type { StorageModelOptions, StorageBodyOptions } from "./options.js";
import {
  KiB,
  GiB,
  REF_FORMS,
  all,
  some,
  maybe,
  isEmpty,
  refTo,
  selfLink,
  halOrPlain,
  enumOf,
  withNewer,
  need,
  targetVolumes,
  NAMESPACES,
  SVMS,
  VOLUMES,
} from "./shared.js";
import {
  arbStorageSize,
  arbStorageSizeInput,
  arbStorageName,
  arbStorageUuid,
  arbStorageReference,
  arbNvmeNamespaceName,
  namespaceBase,
  namespacePath,
  arbStorageDateTime,
  modelRef,
} from "./building-blocks.js";

const comment = fc.oneof(
  fc.constantFrom(
    "",
    "database",
    "boot LUN of esx07",
    "scratch for CI",
    "migrated from LUN",
    "Datenbank für Team Ω",
    "本番データベース",
  ),
  fc.string({ maxLength: 80 }),
  // Any Unicode text; 20 graphemes stay well within the 254-character limit.
  fc.string({ unit: "grapheme", maxLength: 20 }),
);
// Operations per second and microseconds (averages), bytes per second.
const count = fc.nat({ max: 1_000_000 });
const ioCounters = all({ other: count, total: count, read: count, write: count });
const rate = fc.integer({ min: 0, max: 10 * GiB });
const throughput = all({ total: rate, read: rate, write: rate });
const hexId = fc.nat({ max: 0xffff }).map((n) => `${n.toString(16).padStart(8, "0")}h`);

/**
 * NVMe namespaces as a server returns them: `uuid` and `name` (`/vol/<volume>[/<qtree>]/<ns>`)
 * always; `location` agrees with `name`; `space.size` 4096 .. 128 TiB, `space.used` ≤ `size`,
 * `block_size` 512 or 4096; `comment` ≤ 254 characters; status, subsystem map and the
 * performance objects optional. `nvmeNamespace.decode` returns each value unchanged.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbNvmeNamespaceModel } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbNvmeNamespaceModel({ newerServer: true }), 2));
 * ```
 */
export function arbNvmeNamespaceModel(o: StorageModelOptions = {}): fc.Arbitrary<NvmeNamespace> {
  const space = fc
    .tuple(
      arbStorageSize({ min: 4 * KiB, max: NAMESPACE_MAX_SIZE }),
      fc.constantFrom(...NAMESPACE_BLOCK_SIZES),
      fc.nat(),
      maybe(fc.boolean()),
    )
    .map(([size, block_size, k, thick]) => ({
      size,
      block_size,
      used: k % (size + 1),
      ...(thick === undefined ? {} : { guarantee: { requested: thick, reserved: thick } }),
    }));
  const metricStatus = enumOf(METRIC_STATUSES, o);
  const ns = fc
    .tuple(
      arbStorageUuid(),
      fc.tuple(modelRef(VOLUMES), maybe(fc.tuple(arbStorageName(), fc.integer({ min: 1, max: 30 }))), namespaceBase),
      fc.boolean(),
      some({
        svm: modelRef(SVMS),
        os_type: enumOf(NAMESPACE_OS_TYPES, o),
        space,
        comment,
        enabled: fc.boolean(),
        create_time: arbStorageDateTime(),
        auto_delete: fc.boolean(),
        status: some({
          state: enumOf(NAMESPACE_STATES, o),
          container_state: enumOf(NAMESPACE_CONTAINER_STATES, o),
          read_only: fc.boolean(),
          mapped: fc.boolean(),
        }),
        subsystem_map: fc
          .tuple(hexId, hexId, modelRef("/api/protocols/nvme/subsystems"))
          .map(([nsid, anagrpid, subsystem]) => ({
            nsid,
            anagrpid,
            subsystem,
            _links: selfLink(`/api/protocols/nvme/subsystem-maps/${subsystem.uuid}`),
          })),
        metric: all({
          timestamp: arbStorageDateTime(),
          status: metricStatus,
          duration: enumOf(METRIC_DURATIONS, o),
          throughput,
          iops: ioCounters,
          latency: ioCounters,
        }),
        statistics: all({
          timestamp: arbStorageDateTime(),
          status: metricStatus,
          iops_raw: ioCounters,
          latency_raw: ioCounters,
          throughput_raw: throughput,
        }),
      }),
    )
    .map(
      ([uuid, [volume, qtree, base], located, rest]): NvmeNamespace => ({
        uuid,
        name: namespacePath(volume.name, qtree?.[0], base),
        ...(located
          ? {
              location: {
                volume,
                ...(qtree === undefined ? {} : { qtree: { name: qtree[0], id: qtree[1] } }),
                namespace: base,
              },
            }
          : {}),
        ...rest,
        _links: selfLink(`${NAMESPACES}/${uuid}`),
      }),
    );
  return withNewer(halOrPlain(ns), o);
}

const NAME_FORMS = ["path", "path+location", "base+location", "location"] as const;
type NameForm = (typeof NAME_FORMS)[number];

/** `name` / `location` of a new namespace in one of the four ways the spec allows. */
function placement(
  volume: ReferenceInput & { name: string },
  qtree: string | undefined,
  base: string,
  form: NameForm,
  volumeRef: ReferenceInput,
): Pick<NvmeNamespacePostInput, "name" | "location"> {
  const qt = qtree === undefined ? {} : { qtree: { name: qtree } };
  switch (form) {
    case "path":
      return { name: namespacePath(volume.name, qtree, base) };
    case "path+location":
      return { name: namespacePath(volume.name, qtree, base), location: { volume: volumeRef } };
    case "base+location":
      return { name: base, location: { volume: volumeRef, ...qt } };
    case "location":
      return { location: { volume: volumeRef, ...qt, namespace: base } };
  }
}

/**
 * Options of {@link arbNvmeNamespacePost}: the targets, and which kinds of POST to draw (create, clone, convert).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbNvmeNamespacePost } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbNvmeNamespacePost({ kinds: ["clone"] }), 2));
 * ```
 */
export interface ArbNvmeNamespacePostOptions extends StorageBodyOptions {
  /**
   * Which POSTs: create, clone (`clone.source`) or convert (`convert.lun`). Default: all three
   * without targets; with targets, create, plus convert when `targets.luns` holds a LUN that
   * can be converted (unmapped, not a protocol endpoint, no foreign import, not bound, a
   * namespace os_type). Clone needs sources that exist, which an inventory does not list.
   */
  readonly kinds?: readonly ("create" | "clone" | "convert")[];
}

/**
 * NVMe namespace POST bodies that `nvmeNamespace.encodePost` accepts. Create: `svm`, the
 * volume and base name through full-path `name`, `name` + `location.volume`, or
 * `location.volume` + `location.namespace` (optionally in a qtree), `os_type`, `space.size`
 * 4096 .. 128 TiB, optional `space.block_size`, `comment`, `auto_delete`. Clone: a source by
 * name (live or snapshot path in the same volume) or uuid, no `os_type` or `space`. Convert: a
 * LUN by name or uuid, no `os_type` or `space`. With targets every volume (online), qtree and
 * LUN exists there, the volume in the SVM named.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { nvmeNamespace } from "clusterwire/storage";
 * import { arbNvmeNamespacePost } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbNvmeNamespacePost(), (input) => typeof nvmeNamespace.encodePost(input) === "object"));
 * ```
 */
export function arbNvmeNamespacePost(options: ArbNvmeNamespacePostOptions = {}): fc.Arbitrary<NvmeNamespacePostInput> {
  const t = options.targets;
  const fn = "arbNvmeNamespacePost";
  const convertibleLuns = (t?.luns ?? []).filter(
    (l) =>
      l.mapped !== true &&
      l.protocol_endpoint !== true &&
      l.foreign_import !== true &&
      l.vvol_bound !== true &&
      (NAMESPACE_OS_TYPES as readonly string[]).includes(l.os_type),
  );
  const kinds =
    options.kinds ??
    (t === undefined
      ? ["create", "clone", "convert"]
      : convertibleLuns.length > 0
        ? ["create", "convert"]
        : ["create"]);
  if (kinds.length === 0) throw new Error(`${fn}: kinds must not be empty`);
  if (t !== undefined && kinds.includes("clone"))
    throw new Error(`${fn}: clone needs existing source namespaces, which targets do not list`);

  // Where: a volume (with its SVM), maybe a qtree of it, and how the body names it.
  const where =
    t === undefined
      ? fc
          .tuple(
            arbStorageReference(),
            arbStorageName(),
            arbStorageUuid(),
            fc.constantFrom(...REF_FORMS),
            maybe(arbStorageName()),
          )
          .map(([svm, vol, uuid, form, qtree]) => ({
            svm,
            volume: { name: vol, uuid },
            volumeRef: refTo({ name: vol, uuid }, form),
            qtree,
          }))
      : fc
          .tuple(
            fc.constantFrom(
              ...need(
                targetVolumes(t).filter((v) => v.online),
                "online volume",
                fn,
              ),
            ),
            fc.constantFrom(...REF_FORMS),
            fc.constantFrom(...REF_FORMS),
            fc.nat(),
          )
          .map(([v, svmForm, volForm, q]) => ({
            svm: refTo(v.svm, svmForm),
            volume: { name: v.name },
            volumeRef: refTo(v, volForm),
            qtree: q % (v.qtrees.length + 1) === 0 ? undefined : v.qtrees[(q % (v.qtrees.length + 1)) - 1],
          }));
  const extras = some({ comment, auto_delete: fc.boolean() });

  const create = fc
    .tuple(
      where,
      namespaceBase,
      fc.constantFrom(...NAME_FORMS),
      fc.constantFrom(...NAMESPACE_OS_TYPES),
      some(
        {
          size: arbStorageSizeInput({ min: 4 * KiB, max: NAMESPACE_MAX_SIZE }),
          block_size: fc.constantFrom(...NAMESPACE_BLOCK_SIZES),
        },
        ["size"],
      ),
      extras,
    )
    .map(
      ([w, base, form, os_type, space, rest]): NvmeNamespacePostInput => ({
        svm: w.svm,
        ...placement(w.volume, w.qtree, base, form, w.volumeRef),
        os_type,
        space,
        ...rest,
      }),
    );

  const clone = fc
    .tuple(
      where,
      namespaceBase,
      namespaceBase,
      fc.constantFrom("name", "snapshot", "uuid"),
      arbStorageUuid(),
      fc.constantFrom("daily.0", "hourly.3", "weekly.1"),
      fc.boolean(),
      extras,
    )
    .map(
      ([w, base, source, how, uuid, snap, byPath, rest]): NvmeNamespacePostInput => ({
        svm: w.svm,
        // The clone lives in its source's volume.
        ...(byPath
          ? { name: namespacePath(w.volume.name, undefined, base) }
          : { name: base, location: { volume: w.volumeRef } }),
        clone: {
          source:
            how === "uuid"
              ? { uuid }
              : {
                  name:
                    how === "name"
                      ? namespacePath(w.volume.name, undefined, source)
                      : `/vol/${w.volume.name}/.snapshot/${snap}/${source}`,
                },
        },
        ...rest,
      }),
    );

  const lun =
    t === undefined
      ? fc
          .tuple(arbStorageReference(), arbNvmeNamespaceName(), arbStorageUuid(), fc.boolean())
          .map(([svm, name, uuid, byName]) => ({ svm, lun: byName ? { name } : { uuid } }))
      : fc
          .tuple(
            fc.constantFrom(...need(convertibleLuns, "convertible LUN", fn)),
            fc.constantFrom(...REF_FORMS),
            fc.constantFrom(...REF_FORMS),
          )
          .map(([l, svmForm, lunForm]) => ({
            svm: refTo({ name: l.svm, uuid: t.svms?.find((s) => s.name === l.svm)?.uuid }, svmForm),
            lun: refTo(l, lunForm),
          }));
  const convert = fc
    .tuple(lun, extras)
    .map(([l, rest]): NvmeNamespacePostInput => ({ svm: l.svm, convert: { lun: l.lun }, ...rest }));

  const byKind = { create, clone, convert } as const;
  const [first, ...others] = kinds.map((k) => byKind[k]);
  return others.length === 0
    ? (first as fc.Arbitrary<NvmeNamespacePostInput>)
    : fc.oneof(first as fc.Arbitrary<NvmeNamespacePostInput>, ...others);
}

/**
 * NVMe namespace PATCH bodies that `nvmeNamespace.encodePatch` accepts: at least one of
 * `comment`, `auto_delete`, `svm`, and either `space.size` (4096 .. 128 TiB) or `clone.source`
 * (by uuid or full name), never both; never `name`, `location`, `os_type` or `block_size`.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { nvmeNamespace } from "clusterwire/storage";
 * import { arbNvmeNamespacePatch } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbNvmeNamespacePatch(), (input) => typeof nvmeNamespace.encodePatch(input) === "object"));
 * ```
 */
export function arbNvmeNamespacePatch(): fc.Arbitrary<NvmeNamespacePatchInput> {
  const change = fc.oneof(
    arbStorageSizeInput({ min: 4 * KiB, max: NAMESPACE_MAX_SIZE }).map(
      (size): NvmeNamespacePatchInput => ({ space: { size } }),
    ),
    fc
      .tuple(arbStorageUuid(), arbNvmeNamespaceName(), fc.boolean())
      .map(([uuid, name, byUuid]): NvmeNamespacePatchInput => ({ clone: { source: byUuid ? { uuid } : { name } } })),
  );
  return fc
    .tuple(some({ comment, auto_delete: fc.boolean(), svm: arbStorageReference() }), maybe(change))
    .map(([rest, c]): NvmeNamespacePatchInput => {
      const body = { ...rest, ...c };
      return isEmpty(body) ? { auto_delete: false } : body;
    });
}
