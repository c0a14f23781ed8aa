/**
 * The JSON shapes the dashboard reads (stored Kubernetes objects, stream frames, the Clock)
 * and small typed accessors over them. Objects arrive as parsed JSON with no schema, so every
 * read goes through `at()`/`str()`/… which check the type instead of trusting a cast.
 *
 * @module
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface OwnerReference {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly name?: string;
  readonly uid?: string;
  readonly controller?: boolean;
}

export interface ObjectMeta {
  readonly name: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly ownerReferences?: readonly OwnerReference[];
  readonly creationTimestamp?: string;
  readonly deletionTimestamp?: string;
  readonly resourceVersion?: string;
  readonly finalizers?: readonly string[];
}

/** A stored object as the stream sends it. `spec`/`status` are read with the accessors. */
export interface KubeObject {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: ObjectMeta;
  readonly spec?: JsonObject;
  readonly status?: JsonObject;
  readonly [key: string]: unknown;
}

export interface ClockState {
  /** Cluster time at sampling, RFC 3339 with ms. */
  readonly time: string;
  /** `Date.now()` of the server when it sampled `time`. */
  readonly wallTime: number;
  readonly speed: string;
  readonly paused: boolean;
  readonly mode: 'real' | 'virtual';
  readonly state: string;
}

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One recorded change: a live stream frame, or an entry of `/ui/api/history`. */
export interface Change {
  readonly type: ChangeType;
  readonly seq: number;
  readonly time: string;
  readonly group: string;
  readonly resource: string;
  readonly object: KubeObject;
}

export interface SessionUser {
  readonly username: string;
  readonly groups?: readonly string[];
}

export type Frame =
  | {
      readonly type: 'HELLO';
      readonly seq: number;
      readonly user?: SessionUser;
      readonly clock?: ClockState;
    }
  | Change
  | { readonly type: 'SYNCED'; readonly seq: number }
  | { readonly type: 'CLOCK'; readonly clock: ClockState };

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at `path` under `root`, or undefined when any step is missing or not an object. */
export function at(root: unknown, ...path: readonly (string | number)[]): unknown {
  let cur: unknown = root;
  for (const step of path) {
    if (typeof step === 'number') {
      if (!Array.isArray(cur)) return undefined;
      cur = cur[step];
    } else {
      if (!isJsonObject(cur)) return undefined;
      cur = cur[step];
    }
  }
  return cur;
}

export function str(root: unknown, ...path: readonly (string | number)[]): string | undefined {
  const v = at(root, ...path);
  return typeof v === 'string' ? v : undefined;
}

export function num(root: unknown, ...path: readonly (string | number)[]): number | undefined {
  const v = at(root, ...path);
  return typeof v === 'number' ? v : undefined;
}

export function bool(root: unknown, ...path: readonly (string | number)[]): boolean | undefined {
  const v = at(root, ...path);
  return typeof v === 'boolean' ? v : undefined;
}

export function arr(root: unknown, ...path: readonly (string | number)[]): readonly unknown[] {
  const v = at(root, ...path);
  return Array.isArray(v) ? v : [];
}

/** `ns/name`, or `name` for a cluster-scoped object: how the DOM contract names objects. */
export function objectName(obj: KubeObject): string {
  const ns = obj.metadata.namespace;
  return ns === undefined || ns === '' ? obj.metadata.name : `${ns}/${obj.metadata.name}`;
}

/** The status condition of `type`, if the object has one. */
export function condition(obj: unknown, type: string): JsonObject | undefined {
  for (const c of arr(obj, 'status', 'conditions')) {
    if (isJsonObject(c) && c.type === type) return c;
  }
  return undefined;
}

/** Whether a stream frame parsed from one NDJSON line has the shape of a frame. */
export function isFrame(value: unknown): value is Frame {
  if (!isJsonObject(value)) return false;
  switch (value.type) {
    case 'HELLO':
    case 'SYNCED':
      return typeof value.seq === 'number';
    case 'CLOCK':
      return isJsonObject(value.clock);
    case 'ADDED':
    case 'MODIFIED':
    case 'DELETED':
      return isChange(value);
    default:
      return false;
  }
}

export function isChange(value: unknown): value is Change {
  return (
    isJsonObject(value) &&
    (value.type === 'ADDED' || value.type === 'MODIFIED' || value.type === 'DELETED') &&
    typeof value.resource === 'string' &&
    typeof value.group === 'string' &&
    isJsonObject(value.object) &&
    isJsonObject(value.object.metadata) &&
    typeof value.object.metadata.name === 'string'
  );
}
