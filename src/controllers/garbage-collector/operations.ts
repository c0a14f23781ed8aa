/**
 * The garbage collector's reads and writes (upstream `operations.go`, `patch.go` and
 * `garbagecollector.go: isDangling, deleteObject, removeFinalizer`), over the dynamic client:
 * - owners are verified with an uncached GET and a UID comparison, never from the cache;
 * - deletes carry a UID (and resourceVersion) precondition, so a recreated object with the same
 *   name is never deleted by mistake; a 409 from a stale resourceVersion is retried with the
 *   UID alone if the object's ownerReferences did not change;
 * - ownerReference edits go as strategic merge patches, and as JSON merge patches built from a
 *   fresh read (with its resourceVersion) when the server answers 415 (custom resources);
 * - finalizers are removed from a fresh read, retried on conflict.
 *
 * @module
 */
import type { KubeObject, OwnerReference } from '../../api/object.js';
import { deepEqual } from '../../api/object.js';
import { type ApiClient, isConflict, isNotFound } from '../../client/api-client.js';
import { StatusCodeError } from '../../client/lister-watcher.js';
import type { ObjectRef } from '../../client/resource-path.js';
import type { OwnerLookup, OwnerStatus } from './classify.js';
import type { RestMapper } from './discovery.js';
import { FOREGROUND_FINALIZER, type ObjectIdentity } from './identity.js';
import {
  deleteOwnerRefsMergePatch,
  deleteOwnerRefsStrategicPatch,
  removeFinalizerMergePatch,
  unblockOwnerRefsMergePatch,
  unblockOwnerRefsStrategicPatch,
  withUnblockedOwnerRefs,
} from './patches.js';
import type { GcAction } from './plan.js';

/** Finalizer removal retries on conflict (client-go `retry.DefaultRetry`: 5 steps). */
const CONFLICT_RETRIES = 5;

/** The kind is not (yet) in discovery: retry after the next rescan. */
export class RestMappingError extends Error {
  constructor(apiVersion: string, kind: string) {
    super(`unable to get REST mapping for ${apiVersion}/${kind}`);
    this.name = 'RestMappingError';
  }
}

export class GcOperations {
  readonly #client: ApiClient;
  readonly #mapper: () => RestMapper;
  readonly #signal: AbortSignal;

  constructor(client: ApiClient, mapper: () => RestMapper, signal: AbortSignal) {
    this.#client = client;
    this.#mapper = mapper;
    this.#signal = signal;
  }

  /** The REST path of an object; throws {@link RestMappingError} for an unknown kind. */
  refOf(id: ObjectIdentity): ObjectRef {
    const r = this.#mapper().resolve(id.apiVersion, id.kind);
    if (r === undefined) throw new RestMappingError(id.apiVersion, id.kind);
    const { group, version, plural } = r;
    return {
      group,
      version,
      plural,
      name: id.name,
      ...(r.namespaced ? { namespace: id.namespace } : {}),
    };
  }

  /** The live object, or undefined when it is gone or its name now belongs to another UID. */
  async latest(id: ObjectIdentity): Promise<KubeObject | undefined> {
    try {
      const obj = await this.#client.get(this.refOf(id), { signal: this.#signal });
      return obj.metadata?.uid === id.uid ? obj : undefined;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** Upstream `isDangling` + the `waitingForDependentsDeletion` test of `classifyReferences`. */
  async ownerStatus(ref: OwnerReference, dependentNamespace: string): Promise<OwnerStatus> {
    const r = this.#mapper().resolve(ref.apiVersion, ref.kind);
    if (r === undefined) return 'unavailable';
    if (r.namespaced && dependentNamespace === '') return 'invalid-scope';
    const target: ObjectRef = {
      group: r.group,
      version: r.version,
      plural: r.plural,
      name: ref.name,
      ...(r.namespaced ? { namespace: dependentNamespace } : {}),
    };
    let owner: KubeObject;
    try {
      owner = await this.#client.get(target, { signal: this.#signal });
    } catch (err) {
      return isNotFound(err) ? 'absent' : 'unavailable';
    }
    const meta = owner.metadata ?? {};
    if (meta.uid !== ref.uid) return 'absent';
    const deleting = meta.deletionTimestamp !== undefined && meta.deletionTimestamp !== null;
    return deleting && (meta.finalizers ?? []).includes(FOREGROUND_FINALIZER)
      ? 'deleting-foreground'
      : 'exists';
  }

  /** Reads every owner of `refs` once, and answers the planner's lookups from those reads. */
  async lookupFor(
    refs: readonly OwnerReference[],
    dependentNamespace: string,
  ): Promise<OwnerLookup> {
    const answers = new Map<string, OwnerStatus>();
    const keyOf = (ref: OwnerReference, ns: string): string =>
      JSON.stringify([ref.apiVersion, ref.kind, ref.name, ref.uid, ns]);
    await Promise.all(
      refs.map(async (ref) => {
        answers.set(
          keyOf(ref, dependentNamespace),
          await this.ownerStatus(ref, dependentNamespace),
        );
      }),
    );
    // Anything not read here (another item's owners) is left for that item's own reconcile.
    return (ref, ns) => answers.get(keyOf(ref, ns)) ?? 'unavailable';
  }

  /** Runs one write action; `owners` are the target's refs the plan was made from. */
  async apply(
    action: Exclude<GcAction, { kind: 'wait' }>,
    owners: readonly OwnerReference[],
  ): Promise<void> {
    switch (action.kind) {
      case 'delete':
        return this.#delete(action, owners);
      case 'patchOwnerRefs':
        return this.#patchRefs(
          action.target,
          deleteOwnerRefsStrategicPatch(action.target.uid, action.remove),
          (o) => deleteOwnerRefsMergePatch(o, action.remove),
        );
      case 'unblockOwnerRefs':
        return this.#unblock(action.target, action.uids);
      case 'removeFinalizer':
        return this.#removeFinalizer(action.target, action.finalizer);
      case 'orphanDependents':
        // Upstream patches dependents in parallel and fails if any failed; the finalizer stays.
        await Promise.all(
          action.dependents.map((d) =>
            this.#patchRefs(d, deleteOwnerRefsStrategicPatch(d.uid, [action.owner.uid]), (o) =>
              deleteOwnerRefsMergePatch(o, [action.owner.uid]),
            ),
          ),
        );
    }
  }

  async #delete(action: Extract<GcAction, { kind: 'delete' }>, owners: readonly OwnerReference[]) {
    const ref = this.refOf(action.target);
    const send = (resourceVersion: string | undefined) =>
      this.#client.delete(ref, {
        propagationPolicy: action.propagation,
        preconditions: {
          uid: action.preconditionUid,
          ...(resourceVersion === undefined ? {} : { resourceVersion }),
        },
        signal: this.#signal,
      });
    try {
      await send(action.preconditionResourceVersion);
    } catch (err) {
      if (isNotFound(err)) return;
      if (!isConflict(err) || action.preconditionResourceVersion === undefined) throw err;
      // The object changed since it was read: still the same owners means still garbage.
      const live = await this.latest(action.target);
      if (live === undefined) return;
      if (!deepEqual(live.metadata?.ownerReferences ?? [], owners)) throw err;
      await send(undefined).catch((e: unknown) => {
        if (!isNotFound(e)) throw e;
      });
    }
  }

  /** Sets `blockOwnerDeletion: false` on the refs to `uids`, if any of them still blocks. */
  async #unblock(target: ObjectIdentity, uids: readonly string[]): Promise<void> {
    const live = await this.latest(target);
    if (live === undefined) return;
    const refs = live.metadata?.ownerReferences ?? [];
    if (deepEqual(withUnblockedOwnerRefs(refs, uids), refs)) return;
    await this.#patchRefs(target, unblockOwnerRefsStrategicPatch(live, uids), (o) =>
      unblockOwnerRefsMergePatch(o, uids),
    );
  }

  /**
   * Strategic merge patch first, JSON merge patch from a fresh read when the kind has no
   * strategic patch (415, custom resources). A gone target counts as done.
   */
  async #patchRefs(
    target: ObjectIdentity,
    strategic: object,
    merge: (latest: KubeObject) => object,
  ): Promise<void> {
    const ref = this.refOf(target);
    const opts = { signal: this.#signal };
    try {
      await this.#client.patch(ref, strategic, 'strategic', opts);
      return;
    } catch (err) {
      if (isNotFound(err)) return;
      if (!(err instanceof StatusCodeError && err.code === 415)) throw err;
    }
    const live = await this.latest(target);
    if (live === undefined) return;
    try {
      await this.#client.patch(ref, merge(live), 'merge', opts);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /** Upstream `removeFinalizer`: fresh read, drop the finalizer, patch; retry on conflict. */
  async #removeFinalizer(target: ObjectIdentity, finalizer: string): Promise<void> {
    const ref = this.refOf(target);
    for (let attempt = 1; ; attempt++) {
      const live = await this.latest(target);
      if (live === undefined || !(live.metadata?.finalizers ?? []).includes(finalizer)) return;
      try {
        await this.#client.patch(ref, removeFinalizerMergePatch(live, finalizer), 'merge', {
          signal: this.#signal,
        });
        return;
      } catch (err) {
        if (isNotFound(err)) return;
        if (!isConflict(err) || attempt >= CONFLICT_RETRIES) throw err;
      }
    }
  }
}
