/**
 * The typed model of the API: one type per upstream definition (`Pod`, `PodSpec`,
 * `StatefulSet`, `ObjectMeta`…) and per celld definition (`CelldFleet`…), all generated from the
 * schemas the server validates with (`*.generated.ts`; `scripts/gen-api-types.ts` says how),
 * plus the two functions that turn a `KubeObject` into one of them honestly.
 *
 * A typed kind flows into code that takes a `KubeObject` as it is (`const o: KubeObject = pod`):
 * the types are aliases of object types, which TypeScript gives an implicit index signature.
 * The other way needs a check, and the types enforce it: a kind's `apiVersion` and `kind` are its
 * literals (`kind?: 'Pod'`), so `const p: Pod = obj` does not compile for `obj: KubeObject`
 * (whose `kind` is any string). Instead of a cast:
 *
 * - `asKind(obj, 'Pod')`, for an object from a source that holds one kind (a Pod informer or
 *   lister, `client.get` on pods): returns the same object, typed; throws a `TypeError` when its
 *   `kind` or `apiVersion` is present and says otherwise. Both may be absent: list items (and so
 *   informer caches) carry no `kind`/`apiVersion` upstream, and the caller's source names the kind.
 * - `isKind(obj, 'Pod')`, to tell kinds apart (a garbage collector's owner, a scenario's object):
 *   a type guard that is true only when `kind` and `apiVersion` are present and match.
 *
 * Both check identity (and that `metadata`, when present, is an object), not every field: objects
 * that came through the API server were validated against these schemas already, and a deep check
 * on every informer event would cost more than it catches. Kinds are named by their type name, so
 * the two `Event`s are `'Event'` (v1) and `'EventsV1Event'` (events.k8s.io/v1).
 *
 * @module
 */
import { isJsonObject } from '../object.js';
import { CELLD_KINDS, type CelldKinds } from './celld.generated.js';
import { BUILTIN_KINDS, type BuiltinKinds } from './kinds.generated.js';

export type * from './admissionregistration.generated.js';
export type * from './apiextensions.generated.js';
export type * from './apiregistration.generated.js';
export type * from './apps.generated.js';
export type * from './authentication.generated.js';
export type * from './authorization.generated.js';
export type * from './autoscaling.generated.js';
export type * from './batch.generated.js';
export type * from './celld.generated.js';
export type * from './certificates.generated.js';
export type * from './coordination.generated.js';
export type * from './core.generated.js';
export type * from './discovery.generated.js';
export type * from './events.generated.js';
export type * from './flowcontrol.generated.js';
export type * from './meta.generated.js';
export type * from './networking.generated.js';
export type * from './node.generated.js';
export type * from './policy.generated.js';
export type * from './rbac.generated.js';
export type * from './scheduling.generated.js';
export type * from './storage.generated.js';

/** Every kind's type, by type name (`Pod`, `PodList`, `EventsV1Event`, `CelldFleet`…). */
export type Kinds = BuiltinKinds & CelldKinds;
export type KindName = keyof Kinds;

export interface KindIdentity {
  readonly kind: string;
  /** Every `apiVersion` the kind is served at (DeleteOptions has one per group). */
  readonly apiVersions: readonly string[];
}

/** Every kind's identity, by type name. */
export const KINDS: Readonly<Record<KindName, KindIdentity>> = { ...BUILTIN_KINDS, ...CELLD_KINDS };

function describe(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}

/** Why `obj` is not a `name`, or `undefined` when it may be one (absent kind/apiVersion allowed). */
export function kindMismatch(obj: unknown, name: KindName): string | undefined {
  const id = KINDS[name];
  // Runs for every object a controller reads from its cache: the text is built only on a miss.
  const want = (): string => `${id.kind} (${id.apiVersions.join(', ')})`;
  if (!isJsonObject(obj)) return `expected a ${want()} object, got ${describe(obj)}`;
  if (obj.kind !== undefined && obj.kind !== id.kind) {
    return `expected a ${want()}, got kind ${JSON.stringify(obj.kind)}`;
  }
  const version = obj.apiVersion;
  if (version !== undefined && !(typeof version === 'string' && id.apiVersions.includes(version))) {
    return `expected a ${want()}, got apiVersion ${JSON.stringify(version)}`;
  }
  if (obj.metadata !== undefined && !isJsonObject(obj.metadata)) {
    return `expected a ${want()}, got metadata of type ${describe(obj.metadata)}`;
  }
  return undefined;
}

/**
 * `obj` typed as the kind `name`, for objects from a source of that kind: the same object (no
 * copy). Throws a `TypeError` when `obj` is not an object, or its `kind`, `apiVersion` or
 * `metadata` shows it is something else; absent `kind` and `apiVersion` are accepted.
 */
export function asKind<N extends KindName>(obj: unknown, name: N): Kinds[N] {
  const problem = kindMismatch(obj, name);
  if (problem !== undefined) throw new TypeError(problem);
  return obj as Kinds[N];
}

/** Whether `obj` is a `name`: its `kind` and `apiVersion` are present and say so. */
export function isKind<N extends KindName>(obj: unknown, name: N): obj is Kinds[N] {
  if (!isJsonObject(obj) || obj.kind === undefined || obj.apiVersion === undefined) return false;
  return kindMismatch(obj, name) === undefined;
}
