/**
 * DaemonSet history as pure plans (upstream `update.go: constructHistory, dedupCurHistories,
 * snapshot, Match, getPatch, cleanupHistory`). The shared ControllerRevision helpers (numbers,
 * ordering, the saved template) are the StatefulSet controller's (`../statefulset/revisions.ts`).
 *
 * Unlike a StatefulSet's, a DaemonSet revision is named `<ds>-<hash>` with the hash of the
 * template and `status.collisionCount` as a Deployment's `pod-template-hash` is computed
 * (`controller.ComputeHash`), and that hash, not the revision's name, is the
 * `controller-revision-hash` label of the revision and of its pods. A revision "matches" the
 * DaemonSet when its data is the DaemonSet's template as a `$patch: replace` patch (compared
 * canonically: key order and nulls do not count). kubectl's `rollout history|undo` read the
 * same data and patch it back.
 *
 * @module
 */
import type { ControllerRevision, DaemonSet, Pod } from '../../api/model/index.js';
import type { OwnerReference } from '../../api/object.js';
import { deepCopy } from '../../api/object.js';
import { newControllerRef } from '../../controller/controller-ref.js';
import { canonicalJson, computeTemplateHash } from '../../controller/hash.js';
import {
  controllerRevisionName,
  nextRevision,
  revisionDataBytes,
  revisionNumber,
  revisionValue,
  sortRevisions,
} from '../statefulset/revisions.js';
import { DAEMONSET_HASH_LABEL } from './node-eligibility.js';

/** The owner kind of daemon pods and revisions. */
export const DAEMON_SET_KIND = { group: 'apps', version: 'v1', kind: 'DaemonSet' } as const;
/** Default `spec.revisionHistoryLimit` (`SetDefaults_DaemonSet`). */
const DEFAULT_REVISION_HISTORY_LIMIT = 10;

/** Upstream `getPatch`: the template, with Go's `creationTimestamp: null`, as a replace patch. */
export function daemonSetRevisionData(ds: DaemonSet): Record<string, unknown> {
  const template = deepCopy(ds.spec?.template ?? {});
  template.metadata = { creationTimestamp: null, ...template.metadata };
  return { spec: { template: { ...template, $patch: 'replace' } } };
}

/** Upstream `controller.ComputeHash(&ds.Spec.Template, ds.Status.CollisionCount)`. */
export function daemonSetHash(ds: DaemonSet): string {
  return computeTemplateHash(ds.spec?.template ?? {}, ds.status?.collisionCount);
}

/** Upstream `Match`: the revision holds the DaemonSet's current template. */
export function matchesDaemonSet(ds: DaemonSet, revision: ControllerRevision): boolean {
  return revisionDataBytes(revision) === canonicalJson(daemonSetRevisionData(ds));
}

/** Upstream `snapshot`'s object: template labels plus the hash, the DaemonSet's annotations. */
export function newDaemonSetRevision(
  ds: DaemonSet,
  revision: number | bigint,
  hash: string,
): ControllerRevision {
  const owner: OwnerReference = newControllerRef(ds, DAEMON_SET_KIND);
  const labels = { ...(ds.spec?.template?.metadata?.labels ?? {}), [DAEMONSET_HASH_LABEL]: hash };
  const annotations = ds.metadata?.annotations;
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: controllerRevisionName(ds.metadata?.name ?? '', hash),
      namespace: ds.metadata?.namespace ?? '',
      labels,
      ...(annotations !== undefined ? { annotations: { ...annotations } } : {}),
      ownerReferences: [owner],
    },
    data: daemonSetRevisionData(ds),
    revision,
  };
}

/** One sync's history decision (upstream `constructHistory`). */
export interface HistoryPlan {
  /** Revisions missing the hash label: each gets its own name as the label (an update). */
  readonly relabel: ControllerRevision[];
  /** The revision the template is at, when one exists (the newest of equal ones). */
  readonly current?: ControllerRevision;
  /** Other revisions holding the same template: deleted once pods are relabelled. */
  readonly duplicates: ControllerRevision[];
  /** A revision to create when none holds the template. */
  readonly create?: ControllerRevision;
  /** The number `current` must move to (a rollback), when it is behind the newest old one. */
  readonly renumber?: number | bigint;
  /** The revisions not holding the template, oldest first. */
  readonly old: ControllerRevision[];
}

/** Plans the history of `ds` from its own (claimed) revisions. */
export function planHistory(ds: DaemonSet, revisions: readonly ControllerRevision[]): HistoryPlan {
  const relabel = revisions.filter((r) => r.metadata?.labels?.[DAEMONSET_HASH_LABEL] === undefined);
  const matching: ControllerRevision[] = [];
  const old: ControllerRevision[] = [];
  for (const r of sortRevisions(revisions)) (matchesDaemonSet(ds, r) ? matching : old).push(r);
  const next = nextRevision(old);
  // Upstream keeps the last one with the highest number (`>=` in dedupCurHistories).
  const current = matching.at(-1);
  if (current === undefined) {
    const create = newDaemonSetRevision(ds, next, daemonSetHash(ds));
    return { relabel, duplicates: [], create, old };
  }
  const duplicates = matching.slice(0, -1);
  const behind = revisionNumber(current) < BigInt(next);
  return {
    relabel,
    current,
    duplicates,
    ...(behind ? { renumber: revisionValue(BigInt(next)) } : {}),
    old,
  };
}

/** The hash label of a revision (its name, for one not relabelled yet, as upstream relabels). */
export function revisionHash(revision: ControllerRevision): string {
  return revision.metadata?.labels?.[DAEMONSET_HASH_LABEL] ?? revision.metadata?.name ?? '';
}

/**
 * Upstream `cleanupHistory`: beyond `revisionHistoryLimit` old revisions, delete the oldest
 * ones whose hash no pod (terminating ones included) carries.
 */
export function historyToPrune(
  ds: DaemonSet,
  old: readonly ControllerRevision[],
  pods: readonly Pod[],
): ControllerRevision[] {
  const limit = ds.spec?.revisionHistoryLimit ?? DEFAULT_REVISION_HISTORY_LIMIT;
  let toKill = old.length - Math.max(0, limit);
  if (toKill <= 0) return [];
  const live = new Set<string>();
  for (const pod of pods) {
    const hash = pod.metadata?.labels?.[DAEMONSET_HASH_LABEL] ?? '';
    if (hash !== '') live.add(hash);
  }
  const out: ControllerRevision[] = [];
  for (const r of sortRevisions(old)) {
    if (toKill <= 0) break;
    if (live.has(revisionHash(r))) continue;
    out.push(r);
    toKill--;
  }
  return out;
}
