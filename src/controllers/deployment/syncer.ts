/**
 * One reconcile of one Deployment: the writes (ReplicaSet create/scale/delete, the Deployment's
 * revision annotation and status) around the pure planners, after upstream `sync.go`
 * (`getAllReplicaSetsAndSyncRevision`, `getNewReplicaSet`, `scaleReplicaSet`,
 * `cleanupDeployment`, `syncDeploymentStatus`) and `progress.go: syncRolloutStatus`.
 *
 * `d` is this reconcile's private copy: as upstream, steps edit it in place and later steps see
 * the edits. Unlike upstream, every write's answer refreshes `d`'s resourceVersion, so two writes
 * in one reconcile do not conflict with each other.
 *
 * @module
 */
import { asKind, type Deployment, type ReplicaSet } from '../../api/model/index.js';
import { isJsonObject } from '../../api/object.js';
import type { ApiClient } from '../../client/api-client.js';
import { isAlreadyExists, isNotFound } from '../../client/api-client.js';
import { StatusCodeError } from '../../client/lister-watcher.js';
import { objectRef } from '../../client/resource-path.js';
import { RESOURCES } from '../../controller/context.js';
import { controllerRefOf } from '../../controller/controller-ref.js';
import type { EventRecorder } from '../../controller/events.js';
import type { Clock } from '../../util/clock.js';
import { getCondition, newCondition, PROGRESSING, REASONS, setCondition } from './conditions.js';
import { planHistoryCleanup } from './history.js';
import { calculateStatus, rolloutStatus, statusChanged, stuckRequeueAfter } from './progress.js';
import { replicasAnnotations, replicasAnnotationsNeedUpdate } from './proportional.js';
import {
  equalIgnoreHash,
  findNewReplicaSet,
  findOldReplicaSets,
  maxRevision,
  newReplicaSetObject,
  REVISION_ANNOTATION,
  setNewReplicaSetAnnotations,
  setReplicasAnnotations,
} from './replica-sets.js';
import { newRsNewReplicas, rsReplicas } from './rollout-math.js';
import { hasProgressDeadline, uidOf, withReplicas } from './types.js';

export interface SyncerOptions {
  readonly client: ApiClient;
  readonly recorder: EventRecorder;
  readonly clock: Clock;
  readonly signal?: AbortSignal;
}

/** The new ReplicaSet (if any) and every old one. */
export interface ReplicaSets {
  newRS: ReplicaSet | undefined;
  oldRSs: ReplicaSet[];
}

export class DeploymentSyncer {
  readonly d: Deployment;
  readonly #o: SyncerOptions;
  /** What the reconcile asks of the queue: ms until a progress check, 0 = rate-limited now. */
  requeueAfter: number | undefined;

  constructor(d: Deployment, options: SyncerOptions) {
    this.d = d;
    this.#o = options;
  }

  get now(): number {
    return this.#o.clock.now();
  }

  event(type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.#o.recorder.event(this.d, type, reason, message);
  }

  /** `getAllReplicaSetsAndSyncRevision`: old RSes, and the new one (created when asked). */
  async replicaSets(rsList: readonly ReplicaSet[], create: boolean): Promise<ReplicaSets> {
    const oldRSs = findOldReplicaSets(this.d, rsList);
    const newRS = await this.#newReplicaSet(rsList, oldRSs, create);
    return { newRS, oldRSs };
  }

  async #newReplicaSet(
    rsList: readonly ReplicaSet[],
    oldRSs: ReplicaSet[],
    create: boolean,
  ): Promise<ReplicaSet | undefined> {
    const newRevision = maxRevision(oldRSs) + 1n;
    const existing = findNewReplicaSet(this.d, rsList);
    if (existing) return this.#syncExistingNewRS(existing, newRevision);
    if (!create) return undefined;
    return this.#createNewRS(oldRSs, newRevision);
  }

  /** Re-stamps annotations/minReadySeconds on the new RS, or copies its revision to `d`. */
  async #syncExistingNewRS(existing: ReplicaSet, newRevision: bigint): Promise<ReplicaSet> {
    const rs = structuredClone(existing);
    const annotationsUpdated = setNewReplicaSetAnnotations(this.d, rs, newRevision, true);
    const minReady = this.d.spec?.minReadySeconds ?? 0;
    if (annotationsUpdated || (rs.spec?.minReadySeconds ?? 0) !== minReady) {
      const next: ReplicaSet = {
        ...rs,
        spec:
          rs.spec === undefined
            ? { selector: {}, minReadySeconds: minReady }
            : { ...rs.spec, minReadySeconds: minReady },
      };
      const ref = objectRef(RESOURCES.replicasets, next);
      return asKind(await this.#o.client.update(ref, next, this.#call()), 'ReplicaSet');
    }
    const revisionChanged = this.#setRevision(rs.metadata?.annotations?.[REVISION_ANNOTATION]);
    let statusChange = false;
    if (hasProgressDeadline(this.d) && !getCondition(this.d.status, PROGRESSING)) {
      const msg = `Found new replica set ${JSON.stringify(rs.metadata?.name ?? '')}`;
      this.#setCondition(newCondition(this.now, PROGRESSING, 'True', REASONS.foundNewRS, msg));
      statusChange = true;
    }
    await this.#saveDeployment(revisionChanged, statusChange);
    return rs;
  }

  async #createNewRS(oldRSs: ReplicaSet[], newRevision: bigint): Promise<ReplicaSet> {
    const unsized = newReplicaSetObject(this.d);
    const replicas = newRsNewReplicas(this.d, [...oldRSs, unsized], unsized);
    const rs = withReplicas(unsized, replicas);
    setNewReplicaSetAnnotations(this.d, rs, newRevision, false);
    const name = rs.metadata?.name ?? '';
    let created: ReplicaSet;
    let alreadyExists = false;
    try {
      const collection = { ...RESOURCES.replicasets, namespace: this.#namespace };
      created = asKind(await this.#o.client.create(collection, rs, this.#call()), 'ReplicaSet');
    } catch (err) {
      if (!isAlreadyExists(err)) throw await this.#createFailed(name, err);
      alreadyExists = true;
      created = await this.#adoptExistingOrCollide(rs, err);
    }
    if (!alreadyExists && replicas > 0) {
      this.event(
        'Normal',
        'ScalingReplicaSet',
        `Scaled up replica set ${name} from 0 to ${replicas}`,
      );
    }
    const revisionChanged = this.#setRevision(String(newRevision));
    if (!alreadyExists && hasProgressDeadline(this.d)) {
      const msg = `Created new replica set ${JSON.stringify(name)}`;
      this.#setCondition(newCondition(this.now, PROGRESSING, 'True', REASONS.newReplicaSet, msg));
    }
    await this.#saveDeployment(revisionChanged, !alreadyExists && hasProgressDeadline(this.d));
    return created;
  }

  /**
   * The name is taken: ours with an equal template (a stale cache) → use it; anything else is a
   * hash collision → bump `status.collisionCount` and fail, so the next reconcile hashes anew.
   */
  async #adoptExistingOrCollide(rs: ReplicaSet, createErr: unknown): Promise<ReplicaSet> {
    const path = objectRef(RESOURCES.replicasets, rs);
    const found = asKind(await this.#o.client.get(path, this.#call()), 'ReplicaSet');
    const ref = controllerRefOf(found);
    if (
      ref?.uid === uidOf(this.d) &&
      equalIgnoreHash(this.d.spec?.template, found.spec?.template)
    ) {
      return found;
    }
    this.d.status = { ...this.d.status, collisionCount: (this.d.status?.collisionCount ?? 0) + 1 };
    await this.#saveDeployment(false, true);
    throw createErr;
  }

  /** A create error other than AlreadyExists: Progressing=False, a Warning event, then fail. */
  async #createFailed(name: string, err: unknown): Promise<unknown> {
    if (isNamespaceTerminating(err)) return err;
    const msg = `Failed to create new replica set ${JSON.stringify(name)}: ${errorText(err)}`;
    if (hasProgressDeadline(this.d)) {
      this.#setCondition(newCondition(this.now, PROGRESSING, 'False', REASONS.failedRSCreate, msg));
      // Best effort, as upstream: the create error is the one to report.
      await this.#saveDeployment(false, true).catch(() => undefined);
    }
    this.event('Warning', REASONS.failedRSCreate, msg);
    return err;
  }

  /**
   * `scaleReplicaSet`: writes the size and the desired/max-replicas annotations when either
   * differs; records `ScalingReplicaSet` when the size changed. Returns the RS as stored after.
   */
  async scaleReplicaSet(
    rs: ReplicaSet,
    newScale: number,
    operation: 'up' | 'down',
  ): Promise<{ scaled: boolean; rs: ReplicaSet }> {
    const oldScale = rsReplicas(rs);
    const { desired, max } = replicasAnnotations(this.d);
    const sizeChange = oldScale !== newScale;
    if (!sizeChange && !replicasAnnotationsNeedUpdate(rs, desired, max))
      return { scaled: false, rs };
    const copy = withReplicas(structuredClone(rs), newScale);
    copy.metadata ??= {};
    const annotations = { ...(copy.metadata.annotations ?? {}) };
    setReplicasAnnotations(annotations, desired, max);
    copy.metadata.annotations = annotations;
    const ref = objectRef(RESOURCES.replicasets, copy);
    const updated = asKind(await this.#o.client.update(ref, copy, this.#call()), 'ReplicaSet');
    if (sizeChange) {
      const name = updated.metadata?.name ?? '';
      this.event(
        'Normal',
        'ScalingReplicaSet',
        `Scaled ${operation} replica set ${name} from ${oldScale} to ${newScale}`,
      );
    }
    return { scaled: sizeChange, rs: updated };
  }

  /** `scaleReplicaSetAndRecordEvent`: nothing when the size is already right. */
  async scaleAndRecord(
    rs: ReplicaSet,
    newScale: number,
  ): Promise<{ scaled: boolean; rs: ReplicaSet }> {
    const current = rsReplicas(rs);
    if (current === newScale) return { scaled: false, rs };
    return this.scaleReplicaSet(rs, newScale, current < newScale ? 'up' : 'down');
  }

  /** `cleanupDeployment`: deletes surplus old RSes (NotFound is fine); stops at the first error. */
  async cleanup(oldRSs: readonly ReplicaSet[]): Promise<void> {
    for (const name of planHistoryCleanup(this.d, oldRSs)) {
      try {
        await this.#o.client.delete(
          { ...RESOURCES.replicasets, namespace: this.#namespace, name },
          this.#call(),
        );
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
  }

  /** `syncDeploymentStatus`: counts and Available only, written when changed. */
  async syncDeploymentStatus(
    allRSs: readonly (ReplicaSet | undefined)[],
    newRS: ReplicaSet | undefined,
  ): Promise<void> {
    const next = calculateStatus(allRSs, newRS, this.d, this.now);
    if (!statusChanged(this.d, next)) return;
    this.d.status = next;
    await this.#saveDeployment(false, true);
  }

  /** `syncRolloutStatus`: also Progressing and ReplicaFailure; when unchanged, plans the deadline check. */
  async syncRolloutStatus(
    allRSs: readonly (ReplicaSet | undefined)[],
    newRS: ReplicaSet | undefined,
  ): Promise<void> {
    const next = rolloutStatus(allRSs, newRS, this.d, this.now);
    if (!statusChanged(this.d, next)) {
      this.requeueAfter = stuckRequeueAfter(this.d, next, this.now);
      return;
    }
    this.d.status = next;
    await this.#saveDeployment(false, true);
  }

  /** Sets a condition on `d.status` (a fresh object: the cache's copy stays untouched). */
  #setCondition(condition: ReturnType<typeof newCondition>): void {
    const status = structuredClone(this.d.status ?? {});
    setCondition(status, condition);
    this.d.status = status;
  }

  /** Public form for the paused/resumed conditions. */
  setCondition(condition: ReturnType<typeof newCondition>): void {
    this.#setCondition(condition);
  }

  /** `SetDeploymentRevision` on `d`; true when it changed. */
  #setRevision(revision: string | undefined): boolean {
    const value = revision ?? '';
    const annotations = this.d.metadata?.annotations ?? {};
    if (annotations[REVISION_ANNOTATION] === value) return false;
    this.d.metadata = {
      ...this.d.metadata,
      annotations: { ...annotations, [REVISION_ANNOTATION]: value },
    };
    return true;
  }

  /**
   * A full update of the Deployment (spec and metadata; the server keeps the status), as
   * upstream's `updateDeploymentAndClearRollbackTo`; `d` takes the stored answer.
   */
  async updateDeployment(next: Deployment): Promise<void> {
    const ref = objectRef(RESOURCES.deployments, next);
    const saved = asKind(await this.#o.client.update(ref, next, this.#call()), 'Deployment');
    this.d.metadata = saved.metadata ?? this.d.metadata;
    this.d.spec = saved.spec ?? this.d.spec;
  }

  /** Writes `d.status` (UpdateStatus). */
  async saveStatus(): Promise<void> {
    await this.#saveDeployment(false, true);
  }

  /**
   * Writes `d`'s revision annotation and/or status. Upstream does both with one UpdateStatus (its
   * status strategy keeps annotations); this API server's `/status` takes only the status, so the
   * annotation goes by a merge patch on the object, with `d`'s resourceVersion as precondition.
   */
  /**
   * One `/status` update carries both the revision annotation and the status, as upstream's
   * `getNewReplicaSet` does: the status strategy keeps metadata changes and never bumps
   * `metadata.generation`, so `observedGeneration` stays equal to it.
   */
  async #saveDeployment(revision: boolean, status: boolean): Promise<void> {
    if (!revision && !status) return;
    const ref = objectRef(RESOURCES.deployments, this.d);
    const saved = asKind(
      await this.#o.client.updateStatus(ref, this.d, this.#call()),
      'Deployment',
    );
    this.d.metadata = saved.metadata ?? this.d.metadata;
  }

  get #namespace(): string {
    return this.d.metadata?.namespace ?? '';
  }

  #call(): { signal?: AbortSignal } {
    return this.#o.signal ? { signal: this.#o.signal } : {};
  }
}

/** The create failed because the namespace is terminating (upstream gives up quietly). */
function isNamespaceTerminating(err: unknown): boolean {
  const details = err instanceof StatusCodeError ? err.status?.details : undefined;
  const causes = isJsonObject(details) ? details.causes : undefined;
  return (
    Array.isArray(causes) &&
    causes.some((c) => isJsonObject(c) && c.type === 'NamespaceTerminating')
  );
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
