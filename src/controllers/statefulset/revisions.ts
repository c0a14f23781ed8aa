/**
 * StatefulSet history: ControllerRevisions as pure plans (upstream `stateful_set_control.go:
 * getStatefulSetRevisions, truncateHistory`, `stateful_set_utils.go: getPatch, newRevision,
 * ApplyRevision, nextRevision` and `history/controller_history.go`; docs/design/statefulset.md §9).
 *
 * A revision stores only `spec.template`, as the strategic-merge patch that puts it back:
 * `{"spec":{"template":{…,"$patch":"replace"}}}`. Its name is `<set>-<hash>`, the hash taken over
 * the data (canonical JSON: keys sorted, as Go's `json.Marshal` of a map sorts them) and the
 * set's `status.collisionCount`. Revision numbers only grow; a rollback to an older template
 * reuses that revision and moves it to the next number, so pods keep the old revision name.
 *
 * @module
 */
import type {
  ControllerRevision,
  Pod,
  PodTemplateSpec,
  StatefulSet,
} from '../../api/model/index.js';
import type { OwnerReference } from '../../api/object.js';
import { deepCopy, isJsonObject } from '../../api/object.js';
import { newControllerRef } from '../../controller/controller-ref.js';
import { canonicalJson, hashControllerRevision } from '../../controller/hash.js';
import { isPodTemplateSpec } from '../../controller/pod-template.js';

/** Label on a revision holding its hash (upstream `ControllerRevisionHashLabel`). */
export const CONTROLLER_REVISION_HASH_LABEL = 'controller.kubernetes.io/hash';
/** Label on a pod naming its revision (upstream `StatefulSetRevisionLabel`). */
export const STATEFULSET_REVISION_LABEL = 'controller-revision-hash';
/** Default `revisionHistoryLimit` (`SetDefaults_StatefulSet`). */
export const DEFAULT_REVISION_HISTORY_LIMIT = 10;
/** Upstream `ControllerRevisionName` keeps at most 223 characters of the prefix (253 − 30). */
const MAX_PREFIX_LENGTH = 223;

const STATEFULSET_KIND = { group: 'apps', version: 'v1', kind: 'StatefulSet' } as const;

/**
 * A revision number as a bigint (absent, or not an integer → 0, as Go's zero value). `revision`
 * is an int64: beyond 2^53 the API's JSON decodes it as a `bigint` (src/api/int64-json.ts).
 */
export function revisionNumber(r: ControllerRevision): bigint {
  const v = r.revision;
  if (typeof v === 'bigint') return v;
  return typeof v === 'number' && Number.isSafeInteger(v) ? BigInt(v) : 0n;
}

/**
 * The JSON value of a revision number: a plain number while it is exact as one, a bigint
 * beyond 2^53 (written as digits by the API's encoder), so small histories look as before.
 */
export function revisionValue(n: bigint): number | bigint {
  return n >= -BigInt(Number.MAX_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(n)
    : n;
}

/** The outcome of one sync's history step (upstream `getStatefulSetRevisions`). */
export interface RevisionPlan {
  /** The revision named by `status.currentRevision`, or the update revision for a new set. */
  readonly currentRevision: ControllerRevision;
  /** The revision the set's template is at (the object to create, bump, or an existing one). */
  readonly updateRevision: ControllerRevision;
  /** A revision to create (no existing one holds the template). */
  readonly create?: ControllerRevision;
  /** The newest existing revision holding the same template, when there is one. */
  readonly equalRevision?: ControllerRevision;
  /** Rollback: `equalRevision` with `revision` moved to the next number, to write back (update). */
  readonly bump?: ControllerRevision;
  /** The collision count to write to `status.collisionCount` (never lower than the set's). */
  readonly collisionCount: number;
  /** True when a name was taken by a revision with other data, so `collisionCount` grew. */
  readonly collision: boolean;
}

function setName(set: StatefulSet): string {
  return set.metadata?.name ?? '';
}

function templateOf(set: StatefulSet): PodTemplateSpec {
  return set.spec?.template ?? {};
}

/**
 * Revision data for the set (upstream `getPatch`): the template, marked `$patch: replace`.
 * Go encodes the typed template, whose `metadata.creationTimestamp` is never omitted (`null`),
 * so we write it too; hashing and equality ignore nulls (see {@link revisionDataEqual}).
 */
export function revisionData(set: StatefulSet): Record<string, unknown> {
  const template = deepCopy(templateOf(set));
  template.metadata = { creationTimestamp: null, ...template.metadata };
  return { spec: { template: { ...template, $patch: 'replace' } } };
}

/** The bytes a revision's hash covers: its data as canonical JSON. */
export function revisionDataBytes(revision: ControllerRevision): string {
  return canonicalJson(revision.data ?? null);
}

/** Upstream `ControllerRevisionName`: `<prefix>-<hash>`, the prefix cut to 223 characters. */
export function controllerRevisionName(prefix: string, hash: string): string {
  return `${prefix.slice(0, MAX_PREFIX_LENGTH)}-${hash}`;
}

/**
 * A new revision of the set's template (upstream `newRevision` via `NewControllerRevision`):
 * labels = template labels + hash label, controllerRef to the set, the set's annotations.
 */
export function newRevision(
  set: StatefulSet,
  revision: number | bigint,
  collisionCount: number,
): ControllerRevision {
  const data = revisionData(set);
  const hash = hashControllerRevision(canonicalJson(data), collisionCount);
  const templateLabels = templateOf(set).metadata?.labels ?? {};
  const owner: OwnerReference = newControllerRef(set, STATEFULSET_KIND);
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: controllerRevisionName(setName(set), hash),
      namespace: set.metadata?.namespace ?? '',
      labels: { ...templateLabels, [CONTROLLER_REVISION_HASH_LABEL]: hash },
      annotations: { ...(set.metadata?.annotations ?? {}) },
      ownerReferences: [owner],
    },
    data,
    revision,
  };
}

/** Go `strconv.ParseInt(s, 10, 32)` as upstream `EqualRevision` reads the hash label. */
function parsedHashLabel(revision: ControllerRevision): number | undefined {
  const label = revision.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL];
  if (label === undefined || !/^[+-]?\d+$/.test(label)) return undefined;
  const n = Number(label);
  return n >= -(2 ** 31) && n < 2 ** 31 ? n >>> 0 : undefined;
}

/**
 * Upstream `EqualRevision`: when both hash labels parse as integers and differ, not equal;
 * otherwise equal exactly when the data are (compared canonically, so key order and nulls, which
 * our store may not keep as Go wrote them, do not matter).
 */
export function revisionDataEqual(a: ControllerRevision, b: ControllerRevision): boolean {
  const ha = parsedHashLabel(a);
  const hb = parsedHashLabel(b);
  if (ha !== undefined && hb !== undefined && ha !== hb) return false;
  return revisionDataBytes(a) === revisionDataBytes(b);
}

function creationMillis(r: ControllerRevision): number {
  const t = r.metadata?.creationTimestamp;
  const ms = t ? Date.parse(t) : Number.NaN;
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
}

/** Upstream `byRevision.Less`: revision number, then creation time, then name. */
export function compareRevisions(a: ControllerRevision, b: ControllerRevision): number {
  const ra = revisionNumber(a);
  const rb = revisionNumber(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  const ta = creationMillis(a);
  const tb = creationMillis(b);
  if (ta !== tb) return ta < tb ? -1 : 1;
  const na = a.metadata?.name ?? '';
  const nb = b.metadata?.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/** A sorted copy (stable, as upstream's `sort.Stable`). */
export function sortRevisions(revisions: readonly ControllerRevision[]): ControllerRevision[] {
  return [...revisions].sort(compareRevisions);
}

/**
 * Upstream `nextRevision`: one more than the highest number, 1 for an empty history. In
 * int64 arithmetic: with doubles, 3546343826724305832 + 1 would be 3546343826724306000.
 */
export function nextRevision(revisions: readonly ControllerRevision[]): number | bigint {
  let max = 0n;
  for (const r of revisions) {
    const n = revisionNumber(r);
    if (n > max) max = n;
  }
  return revisionValue(max + 1n);
}

/** Upstream `FindEqualRevisions`, in the (sorted) order given. */
export function findEqualRevisions(
  revisions: readonly ControllerRevision[],
  needle: ControllerRevision,
): ControllerRevision[] {
  return revisions.filter((r) => revisionDataEqual(r, needle));
}

export interface PlanRevisionsOptions {
  /**
   * Every ControllerRevision in the set's namespace (the lister's view), to find a name already
   * taken by a revision outside the set's history. Defaults to `revisions`.
   */
  readonly namespaceRevisions?: readonly ControllerRevision[];
}

/** Largest collision count tried before giving up: 2^31 − 1 (an int32 upstream). */
const MAX_COLLISION_COUNT = 2 ** 31 - 1;

/**
 * The create step of upstream `CreateControllerRevision`, against the cache: while the name is
 * taken by a revision with other data, bump the collision count and rehash. A name taken by
 * equal data is used as it is. The server can still answer AlreadyExists (stale cache): re-plan
 * with the fresh object included in `namespaceRevisions`.
 */
function resolveCreate(
  set: StatefulSet,
  number: number | bigint,
  collisionCount: number,
  taken: ReadonlyMap<string, ControllerRevision>,
): { revision: ControllerRevision; existing: boolean; collisionCount: number } {
  let count = collisionCount;
  for (;;) {
    const candidate = newRevision(set, number, count);
    const existing = taken.get(candidate.metadata?.name ?? '');
    if (existing === undefined)
      return { revision: candidate, existing: false, collisionCount: count };
    if (revisionDataBytes(existing) === revisionDataBytes(candidate)) {
      return { revision: existing, existing: true, collisionCount: count };
    }
    if (count >= MAX_COLLISION_COUNT) throw new Error('collision count overflow');
    count++;
  }
}

/**
 * One sync's history decision (upstream `getStatefulSetRevisions`): `revisions` are the set's
 * own (claimed) ControllerRevisions, in any order.
 * - the newest revision holds the template → it is the update revision, nothing to write;
 * - an older one does (rollback) → `bump` it to the next number and use it;
 * - none does → `create` a new one (bumping `collisionCount` past taken names).
 */
export function planRevisions(
  set: StatefulSet,
  revisions: readonly ControllerRevision[],
  options: PlanRevisionsOptions = {},
): RevisionPlan {
  const sorted = sortRevisions(revisions);
  const startCount = Number(set.status?.collisionCount ?? 0) || 0;
  const next = nextRevision(sorted);
  const candidate = newRevision(set, next, startCount);
  const equal = findEqualRevisions(sorted, candidate);
  const equalRevision = equal.at(-1);
  const newest = sorted.at(-1);

  let updateRevision: ControllerRevision;
  let create: ControllerRevision | undefined;
  let bump: ControllerRevision | undefined;
  let collisionCount = startCount;
  if (
    equalRevision !== undefined &&
    newest !== undefined &&
    revisionDataEqual(newest, equalRevision)
  ) {
    updateRevision = newest;
  } else if (equalRevision !== undefined) {
    bump = { ...deepCopy(equalRevision), revision: next };
    updateRevision = bump;
  } else {
    const all = options.namespaceRevisions ?? sorted;
    const taken = new Map(all.map((r) => [r.metadata?.name ?? '', r] as const));
    const resolved = resolveCreate(set, next, startCount, taken);
    collisionCount = resolved.collisionCount;
    updateRevision = resolved.revision;
    if (!resolved.existing) create = resolved.revision;
  }

  const currentName = set.status?.currentRevision;
  const currentRevision = sorted.find((r) => r.metadata?.name === currentName) ?? updateRevision;
  return {
    currentRevision,
    updateRevision,
    ...(create ? { create } : {}),
    ...(equalRevision ? { equalRevision } : {}),
    ...(bump ? { bump } : {}),
    collisionCount,
    collision: collisionCount !== startCount,
  };
}

export interface PruneOptions {
  /** Defaults to `spec.revisionHistoryLimit`, else 10. Negative keeps everything. */
  readonly limit?: number;
  /** Live revision names; default to the set's `status.currentRevision`/`updateRevision`. */
  readonly currentRevision?: string;
  readonly updateRevision?: string;
}

/**
 * Revisions to delete (upstream `truncateHistory`), oldest first: live revisions (current,
 * update, and the `controller-revision-hash` of every pod, terminating ones included) are never
 * deleted nor counted; of the others, all but the newest `limit` go.
 */
export function revisionsToPrune(
  set: StatefulSet,
  revisions: readonly ControllerRevision[],
  pods: readonly Pod[],
  options: PruneOptions = {},
): ControllerRevision[] {
  const limit = options.limit ?? set.spec?.revisionHistoryLimit ?? DEFAULT_REVISION_HISTORY_LIMIT;
  if (limit < 0) return [];
  const live = new Set<string | undefined>([
    options.currentRevision ?? set.status?.currentRevision,
    options.updateRevision ?? set.status?.updateRevision,
  ]);
  for (const pod of pods) live.add(pod.metadata?.labels?.[STATEFULSET_REVISION_LABEL] ?? '');
  const history = sortRevisions(revisions).filter((r) => !live.has(r.metadata?.name));
  return history.slice(0, Math.max(0, history.length - limit));
}

/**
 * The set with its template restored from `revision` (upstream `ApplyRevision`, a strategic
 * merge of the revision's data). Revision data always replaces the whole template (`$patch:
 * replace`), so this is that replacement; a revision without a template leaves the set as is.
 */
export function applyRevision(set: StatefulSet, revision: ControllerRevision): StatefulSet {
  const saved = revisionTemplate(revision);
  const clone = deepCopy(set);
  if (saved === undefined) return clone;
  const template = deepCopy(saved);
  clone.spec = clone.spec === undefined ? { selector: {}, template } : { ...clone.spec, template };
  return clone;
}

/** Templates by revision object: revisions are immutable, and a sync reads two of them. */
const templates = new WeakMap<ControllerRevision, Readonly<PodTemplateSpec>>();

/**
 * The pod template a revision saved (upstream `ApplyRevision` without the set copy), frozen
 * and computed once per revision object; undefined when the data holds none.
 */
export function revisionTemplate(
  revision: ControllerRevision,
): Readonly<PodTemplateSpec> | undefined {
  const cached = templates.get(revision);
  if (cached !== undefined) return cached;
  const template = readTemplate(revision);
  if (template !== undefined) templates.set(revision, Object.freeze(template));
  return template;
}

function readTemplate(revision: ControllerRevision): PodTemplateSpec | undefined {
  const spec = revision.data?.spec;
  const saved = isJsonObject(spec) ? spec.template : undefined;
  if (!isJsonObject(saved)) return undefined;
  const { $patch: _directive, ...template } = deepCopy(saved);
  if (!isPodTemplateSpec(template)) return undefined;
  // The `creationTimestamp: null` Go writes into the data is not part of the template.
  const metadata = template.metadata;
  if (metadata?.creationTimestamp === null) delete metadata.creationTimestamp;
  return template;
}
