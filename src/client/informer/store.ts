// The informer's cache: the objects by namespace and name, with an index by label and the
// caller's own indexes, kept right through adds, updates, deletes and whole relists. Each change
// returns the InformerEvent it makes; the informer hands those to its handlers.

import { decode, encode } from "../../networking/index.js";
import type { ClientObject } from "../types.js";

/**
 * A change of an informer's store: an object added, updated (its resourceVersion changed) or
 * deleted. A delete has `object`: the DELETED event's object or, when a relist found the
 * object gone (`finalStateUnknown: true`), the cached one; `old` is always the cached one.
 * With `InformerOptions.compact`, `old` is decoded from the cached bytes the first time it is
 * read (a handler that never reads it costs no decode), then the same object on each read.
 *
 * @example
 * ```ts
 * import type { InformerEvent } from "clusterwire/client";
 * import type { Ingress } from "clusterwire/networking";
 *
 * function describe(event: InformerEvent<Ingress>): string {
 *   const name = event.object.metadata?.name ?? "";
 *   if (event.type === "update") return `${name}: ${event.old.metadata?.resourceVersion} -> ${event.object.metadata?.resourceVersion}`;
 *   if (event.type === "delete") return `${name} deleted${event.finalStateUnknown ? " (seen by a relist)" : ""}`;
 *   return `${name} added`;
 * }
 * ```
 */
export type InformerEvent<T> =
  | {
      /** A new object. */
      readonly type: "add";
      /** The object. */
      readonly object: T;
    }
  | {
      /** An object whose resourceVersion changed. */
      readonly type: "update";
      /** The object now. */
      readonly object: T;
      /** The object as it was cached before. */
      readonly old: T;
    }
  | {
      /** An object gone. */
      readonly type: "delete";
      /** The DELETED event's object, or the cached one when `finalStateUnknown`. */
      readonly object: T;
      /** The object as it was cached. */
      readonly old: T;
      /** True when a relist found the object gone: its final state was not seen. */
      readonly finalStateUnknown: boolean;
    };

/**
 * The objects an informer has seen, as the API server last showed them. The objects are the
 * decoded messages themselves, not copies: treat them as read-only. With
 * `InformerOptions.compact` the store keeps each object's protobuf bytes instead and every
 * lookup decodes a new object: equal from call to call, but not the same object (compare by
 * namespace, name and resourceVersion, not with `===`), and still to be treated as read-only.
 *
 * @example
 * ```ts
 * import { createInformer, type ListWatcher } from "clusterwire/client";
 * import type { Ingress } from "clusterwire/networking";
 *
 * declare const ingresses: ListWatcher<Ingress>;
 * const informer = createInformer(ingresses, {
 *   indexes: { className: (ingress) => (ingress.spec?.ingressClassName ? [ingress.spec.ingressClassName] : []) },
 * }).start();
 * await informer.store.synced();
 * const { store } = informer;
 * console.log(store.size, store.hasSynced, store.get("web", "shop")?.metadata?.resourceVersion);
 * console.log(store.list("web").length, store.byLabel("app", "shop").length, store.byIndex("className", "nginx").length);
 * await informer.stop();
 * ```
 */
export interface Store<T> {
  /** The object with that namespace ("" for cluster-scoped kinds) and name, if any. */
  get(namespace: string, name: string): T | undefined;
  /** Every object, or those of one namespace ("" for the cluster-scoped ones). */
  list(namespace?: string): T[];
  /** The objects with label `key`, and with that `value` when one is given. */
  byLabel(key: string, value?: string): T[];
  /** The objects whose `InformerOptions.indexes[index]` function gave `value`; an unknown index is a RangeError. */
  byIndex(index: string, value: string): T[];
  /** How many objects there are. */
  readonly size: number;
  /** True once the first full list is in (and stays true). */
  readonly hasSynced: boolean;
  /** Resolves once the first full list is in; rejects (an AbortError) if the informer stops before. */
  synced(): Promise<void>;
}

/**
 * A store entry: the object (or, in a compact store, its protobuf bytes), and what it is indexed
 * under (as it was when the object went in). An update changes the entry in place, so the
 * postings that hold it stay as they are for each label and index value that did not change.
 */
interface Entry<T> {
  held: T | Uint8Array;
  readonly namespace: string;
  readonly name: string;
  resourceVersion: string;
  /** The labels, flat: key, value, key, value, ... */
  labels: readonly string[];
  /** The distinct values each index function gave, in the order of the functions. */
  indexed: readonly (readonly string[])[];
}

/** value -> entries, for one label key or one index. */
type Postings<T> = Map<string, Set<Entry<T>>>;

/** One of the caller's indexes. */
interface Index<T> {
  readonly name: string;
  readonly fn: (object: T) => readonly string[];
  readonly postings: Postings<T>;
}

const NO_LABELS: readonly string[] = [];
const NO_VALUES: readonly (readonly string[])[] = [];

/** An object's labels, flat (key, value, ...), in their own order. */
function flatLabels(labels: Readonly<Record<string, string>> | undefined): readonly string[] {
  if (labels === undefined || labels === null) return NO_LABELS;
  let out: string[] | undefined;
  for (const key in labels) {
    if (!Object.hasOwn(labels, key)) continue;
    out ??= [];
    out.push(key, labels[key] as string);
  }
  return out ?? NO_LABELS;
}

/** Whether `labels` holds exactly the pairs of `flat`, in the same order (no allocation). */
function sameLabels(flat: readonly string[], labels: Readonly<Record<string, string>> | undefined): boolean {
  let i = 0;
  if (labels !== undefined && labels !== null) {
    for (const key in labels) {
      if (!Object.hasOwn(labels, key)) continue;
      if (i >= flat.length || flat[i] !== key || flat[i + 1] !== labels[key]) return false;
      i += 2;
    }
  }
  return i === flat.length;
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function addPosting<T>(postings: Postings<T>, value: string, entry: Entry<T>): void {
  let set = postings.get(value);
  if (set === undefined) {
    set = new Set();
    postings.set(value, set);
  }
  set.add(entry);
}

function removePosting<T>(postings: Postings<T>, value: string, entry: Entry<T>): void {
  const set = postings.get(value);
  if (set === undefined) return;
  set.delete(entry);
  if (set.size === 0) postings.delete(value);
}

/** What went wrong with one index function, for the informer's log. */
export type IndexErrorReporter = (index: string, namespace: string, name: string, error: unknown) => void;

/** `object`'s protobuf bytes in an array of their own, exactly their size. */
function compactBytes(object: ClientObject): Uint8Array {
  const bytes = encode(object);
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
}

/** An update whose `old` is decoded from `bytes` when first read, and then kept. */
function lazyUpdate<T extends ClientObject>(object: T, bytes: Uint8Array): InformerEvent<T> {
  let old: T | undefined;
  return {
    type: "update",
    object,
    get old(): T {
      old ??= decode(bytes) as T;
      return old;
    },
  };
}

/** A watch's delete whose `old` is decoded from `bytes` when first read, and then kept. */
function lazyDelete<T extends ClientObject>(object: T, bytes: Uint8Array): InformerEvent<T> {
  let old: T | undefined;
  return {
    type: "delete",
    object,
    get old(): T {
      old ??= decode(bytes) as T;
      return old;
    },
    finalStateUnknown: false,
  };
}

/**
 * The informer's store: the read side is {@link Store} (`view`), the write side (`replace`,
 * `apply`) is the informer's alone. Not exported from clusterwire/client.
 */
export class ObjectStore<T extends ClientObject> {
  readonly #byNamespace = new Map<string, Map<string, Entry<T>>>();
  /** label key -> label value -> entries. */
  readonly #labels = new Map<string, Postings<T>>();
  /** The caller's indexes, in the order of their names in the options. */
  readonly #indexes: readonly Index<T>[];
  /** index name -> its postings. */
  readonly #indexByName = new Map<string, Postings<T>>();
  readonly #onIndexError: IndexErrorReporter;
  /** Entries hold protobuf bytes, decoded on each read, instead of the objects. */
  readonly #compact: boolean;
  #size = 0;
  #hasSynced = false;
  #settled = false;
  #resolveSynced: () => void = () => {};
  #rejectSynced: (reason: unknown) => void = () => {};
  readonly #synced: Promise<void>;
  /** The read-only face handed to users. */
  readonly view: Store<T>;

  constructor(
    indexes: Readonly<Record<string, (object: T) => readonly string[]>> = {},
    onIndexError: IndexErrorReporter = () => {},
    compact = false,
  ) {
    this.#compact = compact;
    this.#indexes = Object.entries(indexes).map(([name, fn]) => ({ name, fn, postings: new Map() }));
    for (const index of this.#indexes) this.#indexByName.set(index.name, index.postings);
    this.#onIndexError = onIndexError;
    this.#synced = new Promise<void>((resolve, reject) => {
      this.#resolveSynced = resolve;
      this.#rejectSynced = reject;
    });
    // Nobody may ever ask: a stop before the first list must not be an unhandled rejection.
    this.#synced.catch(() => {});
    const store = this;
    this.view = {
      get: (namespace, name) => store.get(namespace, name),
      list: (namespace) => store.list(namespace),
      byLabel: (key, value) => store.byLabel(key, value),
      byIndex: (index, value) => store.byIndex(index, value),
      get size() {
        return store.size;
      },
      get hasSynced() {
        return store.hasSynced;
      },
      synced: () => store.#synced,
    };
  }

  get size(): number {
    return this.#size;
  }

  get hasSynced(): boolean {
    return this.#hasSynced;
  }

  /** The object an entry holds: itself, or in a compact store decoded anew from its bytes. */
  #read(entry: Entry<T>): T {
    return this.#compact ? (decode(entry.held as Uint8Array) as T) : (entry.held as T);
  }

  /** What an entry holds for `object`. */
  #hold(object: T): T | Uint8Array {
    return this.#compact ? compactBytes(object) : object;
  }

  get(namespace: string, name: string): T | undefined {
    const entry = this.#byNamespace.get(namespace)?.get(name);
    return entry === undefined ? undefined : this.#read(entry);
  }

  list(namespace?: string): T[] {
    const out: T[] = [];
    if (namespace !== undefined) {
      for (const entry of this.#byNamespace.get(namespace)?.values() ?? []) out.push(this.#read(entry));
      return out;
    }
    for (const names of this.#byNamespace.values()) for (const entry of names.values()) out.push(this.#read(entry));
    return out;
  }

  byLabel(key: string, value?: string): T[] {
    const postings = this.#labels.get(key);
    if (postings === undefined) return [];
    const out: T[] = [];
    if (value !== undefined) {
      for (const entry of postings.get(value) ?? []) out.push(this.#read(entry));
      return out;
    }
    for (const set of postings.values()) for (const entry of set) out.push(this.#read(entry));
    return out;
  }

  byIndex(index: string, value: string): T[] {
    const postings = this.#indexByName.get(index);
    if (postings === undefined) {
      const known = [...this.#indexByName.keys()].map((k) => JSON.stringify(k)).join(", ");
      throw new RangeError(
        `byIndex: no index ${JSON.stringify(index)}; the informer's indexes are: ${known === "" ? "(none)" : known}`,
      );
    }
    const out: T[] = [];
    for (const entry of postings.get(value) ?? []) out.push(this.#read(entry));
    return out;
  }

  /** Marks the store synced (after the first full list); later calls do nothing. */
  markSynced(): void {
    this.#hasSynced = true;
    if (this.#settled) return;
    this.#settled = true;
    this.#resolveSynced();
  }

  /** Rejects `synced()` with `reason` unless it has resolved already. */
  abandon(reason: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#rejectSynced(reason);
  }

  /**
   * The store after a watch event: ADDED or MODIFIED put the object in (an add, or an update
   * of the cached one); DELETED takes it out (a delete; nothing when it was not cached). In a
   * compact store the event's `old` is decoded from the cached bytes only when it is read.
   */
  apply(type: "ADDED" | "MODIFIED" | "DELETED", object: T): InformerEvent<T> | undefined {
    const m = object.metadata;
    const namespace = m?.namespace ?? "";
    const name = m?.name ?? "";
    const old = this.#byNamespace.get(namespace)?.get(name);
    if (type === "DELETED") {
      if (old === undefined) return undefined;
      this.#remove(old);
      const held = old.held;
      if (this.#compact) return lazyDelete(object, held as Uint8Array);
      return { type: "delete", object, old: held as T, finalStateUnknown: false };
    }
    if (old === undefined) {
      this.#insert(object, namespace, name);
      return { type: "add", object };
    }
    return this.#update(old, object);
  }

  /**
   * The store after a full list: each listed object not cached is an add, each cached with
   * another resourceVersion an update (one with the same resourceVersion stays as cached, with
   * no event), and each cached object not listed a delete with `finalStateUnknown`.
   */
  replace(items: readonly T[]): InformerEvent<T>[] {
    const events: InformerEvent<T>[] = [];
    const listed = new Map<string, Set<string>>();
    for (const object of items) {
      const m = object.metadata;
      const namespace = m?.namespace ?? "";
      const name = m?.name ?? "";
      let names = listed.get(namespace);
      if (names === undefined) {
        names = new Set();
        listed.set(namespace, names);
      }
      names.add(name);
      const old = this.#byNamespace.get(namespace)?.get(name);
      if (old === undefined) {
        this.#insert(object, namespace, name);
        events.push({ type: "add", object });
      } else if (old.resourceVersion !== (m?.resourceVersion ?? "")) {
        events.push(this.#update(old, object));
      }
    }
    const gone: Entry<T>[] = [];
    for (const [namespace, names] of this.#byNamespace) {
      const kept = listed.get(namespace);
      for (const [name, entry] of names) if (kept?.has(name) !== true) gone.push(entry);
    }
    for (const entry of gone) {
      this.#remove(entry);
      const cached = this.#read(entry);
      events.push({ type: "delete", object: cached, old: cached, finalStateUnknown: true });
    }
    return events;
  }

  /** The distinct values of each index function for `object` (none where one throws, reported). */
  #indexValues(object: T, namespace: string, name: string): readonly (readonly string[])[] {
    const indexes = this.#indexes;
    if (indexes.length === 0) return NO_VALUES;
    const out: (readonly string[])[] = [];
    for (const { name: index, fn } of indexes) {
      let values: readonly string[] = [];
      try {
        const got = fn(object);
        if (!Array.isArray(got) || !got.every((v) => typeof v === "string"))
          throw new TypeError(`the index function returned ${describe(got)}, not an array of strings`);
        values = got.length < 2 ? [...got] : [...new Set(got)];
      } catch (e) {
        this.#onIndexError(index, namespace, name, e);
      }
      out.push(values);
    }
    return out;
  }

  #insert(object: T, namespace: string, name: string): void {
    const m = object.metadata;
    const entry: Entry<T> = {
      held: this.#hold(object),
      namespace,
      name,
      resourceVersion: m?.resourceVersion ?? "",
      labels: flatLabels(m?.labels),
      indexed: this.#indexValues(object, namespace, name),
    };
    let names = this.#byNamespace.get(namespace);
    if (names === undefined) {
      names = new Map();
      this.#byNamespace.set(namespace, names);
    }
    names.set(name, entry);
    this.#size++;
    this.#postLabels(entry);
    const indexes = this.#indexes;
    for (let i = 0; i < indexes.length; i++) {
      const postings = indexes[i]!.postings;
      for (const value of entry.indexed[i]!) addPosting(postings, value, entry);
    }
  }

  /**
   * `entry` now holds `object` (same namespace and name): only the label and index values that
   * changed move. Returns the update, with the object the entry held before as `old`.
   */
  #update(entry: Entry<T>, object: T): InformerEvent<T> {
    const m = object.metadata;
    const previous = entry.held;
    entry.held = this.#hold(object);
    entry.resourceVersion = m?.resourceVersion ?? "";
    const labels = m?.labels;
    if (!sameLabels(entry.labels, labels)) {
      this.#unpostLabels(entry);
      entry.labels = flatLabels(labels);
      this.#postLabels(entry);
    }
    const event: InformerEvent<T> = this.#compact
      ? lazyUpdate(object, previous as Uint8Array)
      : { type: "update", object, old: previous as T };
    const indexes = this.#indexes;
    if (indexes.length === 0) return event;
    const before = entry.indexed;
    const after = this.#indexValues(object, entry.namespace, entry.name);
    for (let i = 0; i < indexes.length; i++) {
      const was = before[i]!;
      const now = after[i]!;
      if (sameValues(was, now)) continue;
      const postings = indexes[i]!.postings;
      for (const value of was) removePosting(postings, value, entry);
      for (const value of now) addPosting(postings, value, entry);
    }
    entry.indexed = after;
    return event;
  }

  #postLabels(entry: Entry<T>): void {
    const labels = entry.labels;
    for (let i = 0; i < labels.length; i += 2) {
      const key = labels[i]!;
      let postings = this.#labels.get(key);
      if (postings === undefined) {
        postings = new Map();
        this.#labels.set(key, postings);
      }
      addPosting(postings, labels[i + 1]!, entry);
    }
  }

  #unpostLabels(entry: Entry<T>): void {
    const labels = entry.labels;
    for (let i = 0; i < labels.length; i += 2) {
      const key = labels[i]!;
      const postings = this.#labels.get(key);
      if (postings === undefined) continue;
      removePosting(postings, labels[i + 1]!, entry);
      if (postings.size === 0) this.#labels.delete(key);
    }
  }

  #remove(entry: Entry<T>): void {
    const names = this.#byNamespace.get(entry.namespace);
    if (names?.get(entry.name) !== entry) return;
    names.delete(entry.name);
    if (names.size === 0) this.#byNamespace.delete(entry.namespace);
    this.#size--;
    this.#unpostLabels(entry);
    const indexes = this.#indexes;
    for (let i = 0; i < indexes.length; i++) {
      const postings = indexes[i]!.postings;
      for (const value of entry.indexed[i]!) removePosting(postings, value, entry);
    }
  }
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "an array holding a non-string";
  return value === null ? "null" : typeof value;
}
