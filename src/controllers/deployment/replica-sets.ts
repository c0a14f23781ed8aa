/**
 * Which ReplicaSet is the Deployment's new one, revisions, the annotations copied from the
 * Deployment, and the ReplicaSet a rollout creates. Follows upstream
 * `deployment/util/deployment_util.go` (`FindNewReplicaSet`, `FindOldReplicaSets`,
 * `EqualIgnoreHash`, `MaxRevision`, `Revision`, `SetNewReplicaSetAnnotations`,
 * `copyDeploymentAnnotationsToReplicaSet`, `SetReplicasAnnotations`) and `sync.go`
 * (`getNewReplicaSet`'s object). Pure.
 *
 * @module
 */
import type {
  Deployment,
  LabelSelector,
  PodTemplateSpec,
  ReplicaSet,
} from '../../api/model/index.js';
import { deepCopy, isJsonObject } from '../../api/object.js';
import { newControllerRef } from '../../controller/controller-ref.js';
import { computeTemplateHash } from '../../controller/hash.js';
import { DESIRED_REPLICAS_ANNOTATION, MAX_REPLICAS_ANNOTATION } from './proportional.js';
import { byCreationTimestamp, deploymentReplicas, maxSurge } from './rollout-math.js';

export { DESIRED_REPLICAS_ANNOTATION, MAX_REPLICAS_ANNOTATION };
export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';
/** Upstream `maxRevHistoryLengthInChars`: about 100 revisions. */
export const MAX_REVISION_HISTORY_CHARS = 2000;
export const DEPLOYMENT_KIND = { group: 'apps', version: 'v1', kind: 'Deployment' } as const;

/** Upstream `annotationsToSkip`: never copied from a Deployment to its ReplicaSets. */
const ANNOTATIONS_TO_SKIP = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  'deprecated.deployment.rollback.to',
]);

export function skipCopyAnnotation(key: string): boolean {
  return ANNOTATIONS_TO_SKIP.has(key);
}

/**
 * apimachinery's semantic equality as JSON sees it: null, absent, empty maps and empty lists
 * are all equal (Go's forked `DeepEqual` treats nil and empty slices/maps alike).
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (isEmptyValue(a) && isEmptyValue(b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => semanticEqual(v, b[i]));
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!semanticEqual(a[k], b[k])) return false;
    return true;
  }
  return a === b;
}

function isEmptyValue(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isJsonObject(v) && Object.keys(v).every((k) => v[k] === undefined);
}

function withoutHashLabel(t: PodTemplateSpec | undefined): PodTemplateSpec {
  const copy = deepCopy(t ?? {});
  const labels = copy.metadata?.labels;
  if (labels) delete labels[POD_TEMPLATE_HASH_LABEL];
  return copy;
}

/** `EqualIgnoreHash`: equal templates once the `pod-template-hash` labels are removed. */
export function equalIgnoreHash(
  a: PodTemplateSpec | undefined,
  b: PodTemplateSpec | undefined,
): boolean {
  return semanticEqual(withoutHashLabel(a), withoutHashLabel(b));
}

/** `FindNewReplicaSet`: the OLDEST ReplicaSet whose template equals the Deployment's. */
export function findNewReplicaSet(
  d: Deployment,
  rsList: readonly ReplicaSet[],
): ReplicaSet | undefined {
  return [...rsList]
    .sort(byCreationTimestamp)
    .find((rs) => equalIgnoreHash(rs.spec?.template, d.spec?.template));
}

/** `FindOldReplicaSets`' second result: every ReplicaSet but the new one. */
export function findOldReplicaSets(d: Deployment, rsList: readonly ReplicaSet[]): ReplicaSet[] {
  const newRS = findNewReplicaSet(d, rsList);
  return rsList.filter((rs) => newRS === undefined || rs.metadata?.uid !== newRS.metadata?.uid);
}

const INT = /^[+-]?[0-9]+$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * Go's `strconv.ParseInt(v, 10, 64)`: a revision is an int64, so it is a bigint here; a
 * JavaScript number would round `3546343826724305832` to `…306000`. Undefined when Go would
 * fail (not an integer, or out of int64's range).
 */
export function parseRevision(v: string): bigint | undefined {
  if (!INT.test(v)) return undefined;
  const n = BigInt(v);
  return n < INT64_MIN || n > INT64_MAX ? undefined : n;
}

/** `Revision`: absent → 0, unparsable → undefined (upstream's error). */
export function revisionOf(rs: ReplicaSet): bigint | undefined {
  const v = rs.metadata?.annotations?.[REVISION_ANNOTATION];
  if (v === undefined) return 0n;
  return parseRevision(v);
}

/** `MaxRevision`: the highest parsable revision (0 when none). */
export function maxRevision(rss: readonly ReplicaSet[]): bigint {
  let max = 0n;
  for (const rs of rss) {
    const r = revisionOf(rs) ?? 0n;
    if (r > max) max = r;
  }
  return max;
}

/** `copyDeploymentAnnotationsToReplicaSet` on `annotations` in place; true when it changed them. */
function copyDeploymentAnnotations(d: Deployment, annotations: Record<string, string>): boolean {
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata?.annotations ?? {})) {
    if (skipCopyAnnotation(k) || annotations[k] === v) continue;
    annotations[k] = v;
    changed = true;
  }
  return changed;
}

/** Appends `old` to a revision-history list, dropping the oldest entries past `limit` chars. */
export function appendRevisionHistory(
  history: string,
  old: string,
  limit: number,
): string | undefined {
  if (history === '') return old;
  const revisions = history.split(',');
  let total = history.length + old.length + 1;
  let start = 0;
  while (total > limit && start < revisions.length) {
    total -= (revisions[start]?.length ?? 0) + 1;
    start++;
  }
  return total <= limit ? [...revisions.slice(start), old].join(',') : undefined;
}

/**
 * `SetNewReplicaSetAnnotations` on `rs` (a private copy) in place: copy the Deployment's
 * annotations, raise the revision to `newRevision` when lower (recording the old one in
 * revision-history if it had one: a rollback to this template), and on create stamp the
 * desired/max replicas. Returns true when any annotation changed.
 */
export function setNewReplicaSetAnnotations(
  d: Deployment,
  rs: ReplicaSet,
  newRevision: bigint,
  exists: boolean,
): boolean {
  rs.metadata ??= {};
  const annotations = { ...(rs.metadata.annotations ?? {}) };
  let changed = copyDeploymentAnnotations(d, annotations);
  const oldRevision = annotations[REVISION_ANNOTATION];
  const had = oldRevision !== undefined;
  let oldInt = 0n;
  if (had && oldRevision !== '') {
    // Upstream gives up on an unparsable revision (logged) and leaves the rest unchanged.
    const parsed = parseRevision(oldRevision);
    if (parsed === undefined) return false;
    oldInt = parsed;
  }
  if (oldInt < newRevision) {
    annotations[REVISION_ANNOTATION] = String(newRevision);
    changed = true;
    if (had) {
      const history = annotations[REVISION_HISTORY_ANNOTATION] ?? '';
      const next = appendRevisionHistory(history, oldRevision, MAX_REVISION_HISTORY_CHARS);
      if (next !== undefined) annotations[REVISION_HISTORY_ANNOTATION] = next;
    }
  }
  if (!exists) {
    const replicas = deploymentReplicas(d);
    changed = setReplicasAnnotations(annotations, replicas, replicas + maxSurge(d)) || changed;
  }
  rs.metadata.annotations = annotations;
  return changed;
}

/** `SetReplicasAnnotations` on an annotation map in place; true when it changed it. */
export function setReplicasAnnotations(
  annotations: Record<string, string>,
  desired: number,
  max: number,
): boolean {
  let changed = false;
  if (annotations[DESIRED_REPLICAS_ANNOTATION] !== String(desired)) {
    annotations[DESIRED_REPLICAS_ANNOTATION] = String(desired);
    changed = true;
  }
  if (annotations[MAX_REPLICAS_ANNOTATION] !== String(max)) {
    annotations[MAX_REPLICAS_ANNOTATION] = String(max);
    changed = true;
  }
  return changed;
}

/** DNS-1123 subdomain length limit, which bounds a ReplicaSet name. */
const MAX_NAME_LENGTH = 253;

/** `<deployment>-<hash>`, the Deployment name shortened if the whole would pass 253 chars. */
export function replicaSetName(deploymentName: string, hash: string): string {
  const room = MAX_NAME_LENGTH - 1 - hash.length;
  return `${deploymentName.length > room ? deploymentName.slice(0, room) : deploymentName}-${hash}`;
}

/** `CloneSelectorAndAddLabel`: the selector with `key=value` added to matchLabels. */
export function selectorWithLabel(
  sel: LabelSelector | undefined,
  key: string,
  value: string,
): LabelSelector {
  const matchLabels = { ...(sel?.matchLabels ?? {}), [key]: value };
  const expressions = sel?.matchExpressions ?? [];
  return expressions.length > 0
    ? { matchLabels, matchExpressions: deepCopy(expressions) }
    : { matchLabels };
}

/**
 * The ReplicaSet `getNewReplicaSet` creates (replicas still 0: the caller sizes it with
 * `newRsNewReplicas` counting this object, then stamps annotations).
 */
export function newReplicaSetObject(d: Deployment): ReplicaSet {
  const template = deepCopy(d.spec?.template ?? {});
  const hash = computeTemplateHash(d.spec?.template ?? {}, d.status?.collisionCount);
  const labels = { ...(template.metadata?.labels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash };
  template.metadata = { ...(template.metadata ?? {}), labels };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: replicaSetName(d.metadata?.name ?? '', hash),
      namespace: d.metadata?.namespace ?? '',
      ownerReferences: [newControllerRef(d, DEPLOYMENT_KIND)],
      labels: { ...labels },
    },
    spec: {
      replicas: 0,
      minReadySeconds: d.spec?.minReadySeconds ?? 0,
      selector: selectorWithLabel(d.spec?.selector, POD_TEMPLATE_HASH_LABEL, hash),
      template,
    },
  };
}
