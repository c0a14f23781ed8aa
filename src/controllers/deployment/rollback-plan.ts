/**
 * The legacy rollback request, after upstream `rollback.go` (`getRollbackTo`, `rollback`,
 * `rollbackToTemplate`) and `deployment/util` (`LastRevision`, `SetFromReplicaSetTemplate`,
 * `SetDeploymentAnnotationsTo`). `extensions/v1beta1` once had `spec.rollbackTo`; it survives
 * as the annotation `deprecated.deployment.rollback.to`, which the controller still honours:
 * copy the template of the ReplicaSet at that revision (0: the one before the newest) into
 * the Deployment, remove the annotation, and say what happened in an event. Pure.
 *
 * @module
 */
import type { Deployment, PodTemplateSpec, ReplicaSet } from '../../api/model/index.js';
import { deepCopy } from '../../api/object.js';
import {
  equalIgnoreHash,
  POD_TEMPLATE_HASH_LABEL,
  parseRevision,
  revisionOf,
  skipCopyAnnotation,
} from './replica-sets.js';

/** Upstream `apps.DeprecatedRollbackTo`. */
export const ROLLBACK_TO_ANNOTATION = 'deprecated.deployment.rollback.to';

/** Upstream `RollbackDone`, `RollbackRevisionNotFound`, `RollbackTemplateUnchanged`. */
export const ROLLBACK_REASONS = {
  done: 'DeploymentRollback',
  notFound: 'DeploymentRollbackRevisionNotFound',
  unchanged: 'DeploymentRollbackTemplateUnchanged',
} as const;

export interface RollbackEvent {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
}

export interface RollbackPlan {
  /** The Deployment to write (a full update): the annotation removed, the template restored. */
  readonly deployment: Deployment;
  /** Recorded before the write, as upstream emits its warnings whatever the write does. */
  readonly before: readonly RollbackEvent[];
  /** Recorded only once the write succeeded (upstream's `DeploymentRollback`). */
  readonly after: readonly RollbackEvent[];
}

/**
 * `getRollbackTo`: the requested revision; undefined (no rollback) when the annotation is
 * absent, empty, or not an int64 (upstream ignores an invalid one and leaves it in place).
 */
export function getRollbackTo(d: Deployment): bigint | undefined {
  const v = d.metadata?.annotations?.[ROLLBACK_TO_ANNOTATION];
  if (v === undefined || v === '') return undefined;
  return parseRevision(v);
}

/**
 * `LastRevision`: the second highest revision (0 when there is none). Two ReplicaSets at the
 * same highest revision make that revision the answer too, as upstream's `>=`.
 */
export function lastRevision(rss: readonly ReplicaSet[]): bigint {
  let max = 0n;
  let second = 0n;
  for (const rs of rss) {
    const v = revisionOf(rs);
    if (v === undefined) continue;
    if (v >= max) {
      second = max;
      max = v;
    } else if (v > second) {
      second = v;
    }
  }
  return second;
}

/** The Deployment as `updateDeploymentAndClearRollbackTo` writes it. */
function withoutRollbackTo(d: Deployment): Deployment {
  const copy = deepCopy(d);
  const annotations = { ...(copy.metadata?.annotations ?? {}) };
  delete annotations[ROLLBACK_TO_ANNOTATION];
  copy.metadata = { ...copy.metadata, annotations };
  return copy;
}

/** `SetFromReplicaSetTemplate`: the RS's template minus its `pod-template-hash` label. */
function templateFrom(rs: ReplicaSet): PodTemplateSpec {
  const t = deepCopy(rs.spec?.template ?? {});
  const labels = t.metadata?.labels;
  if (labels) {
    const { [POD_TEMPLATE_HASH_LABEL]: _hash, ...rest } = labels;
    t.metadata = { ...t.metadata, labels: rest };
  }
  return { metadata: t.metadata ?? {}, spec: t.spec };
}

/**
 * `SetDeploymentAnnotationsTo`: the Deployment keeps only its own bookkeeping annotations (the
 * skipped ones: revision, last-applied, …) and takes every other one from the RS, so that a
 * change-cause recorded with that template comes back with it.
 */
function annotationsFrom(d: Deployment, rs: ReplicaSet): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(d.metadata?.annotations ?? {})) {
    if (skipCopyAnnotation(k)) out[k] = v;
  }
  for (const [k, v] of Object.entries(rs.metadata?.annotations ?? {})) {
    if (!skipCopyAnnotation(k)) out[k] = v;
  }
  return out;
}

function warning(reason: string, message: string): RollbackEvent {
  return { type: 'Warning', reason, message };
}

/**
 * `rollback` after `getAllReplicaSetsAndSyncRevision`: `allRSs` are the old ReplicaSets and the
 * new one, `to` the requested revision. Every outcome removes the annotation; only a template
 * that differs from the Deployment's is copied (upstream compares ignoring the hash label).
 */
export function planRollback(
  d: Deployment,
  allRSs: readonly ReplicaSet[],
  to: bigint,
): RollbackPlan {
  let revision = to;
  if (revision === 0n) {
    revision = lastRevision(allRSs);
    if (revision === 0n) {
      const before = [warning(ROLLBACK_REASONS.notFound, 'Unable to find last revision.')];
      return { deployment: withoutRollbackTo(d), before, after: [] };
    }
  }
  // Upstream walks the list in order and takes the first match; unparsable revisions are skipped.
  const target = allRSs.find((rs) => revisionOf(rs) === revision);
  if (target === undefined) {
    const message = 'Unable to find the revision to rollback to.';
    return {
      deployment: withoutRollbackTo(d),
      before: [warning(ROLLBACK_REASONS.notFound, message)],
      after: [],
    };
  }
  const name = JSON.stringify(d.metadata?.name ?? '');
  if (equalIgnoreHash(d.spec?.template, target.spec?.template)) {
    const message = `The rollback revision contains the same template as current deployment ${name}`;
    return {
      deployment: withoutRollbackTo(d),
      before: [warning(ROLLBACK_REASONS.unchanged, message)],
      after: [],
    };
  }
  const next = deepCopy(d);
  const template = templateFrom(target);
  next.spec = next.spec === undefined ? { selector: {}, template } : { ...next.spec, template };
  next.metadata = { ...next.metadata, annotations: annotationsFrom(d, target) };
  const message = `Rolled back deployment ${name} to revision ${revision}`;
  return {
    deployment: withoutRollbackTo(next),
    before: [],
    after: [{ type: 'Normal', reason: ROLLBACK_REASONS.done, message }],
  };
}
