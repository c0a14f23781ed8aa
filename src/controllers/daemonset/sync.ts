/**
 * One sync of one DaemonSet key (upstream `daemon_controller.go: syncDaemonSet, updateDaemonSet,
 * syncNodes, updateDaemonSetStatus`):
 *
 * 1. read the DaemonSet from the cache (gone → forget its expectations; an empty selector →
 *    a `SelectingAll` Warning and nothing else; being deleted → nothing);
 * 2. claim its ControllerRevisions and build the history: relabel, dedupe, create or renumber
 *    the current revision, whose hash labels new pods (`history.ts`);
 * 3. claim its pods;
 * 4. with expectations pending, only the status (without observedGeneration); otherwise plan
 *    (`plan.ts`) and apply: creates in slow-start batches (1, 2, 4, …), then deletes, at most
 *    250 of each (upstream `BurstReplicas`), with expectations set before the first write;
 * 5. the status, when a count or the observed generation changed;
 * 6. without errors, prune history beyond `revisionHistoryLimit`.
 *
 * @module
 */
import type { ControllerRevision, DaemonSet, Node, Pod } from '../../api/model/index.js';
import type { ApiClient } from '../../client/api-client.js';
import { isConflict, isNotFound } from '../../client/api-client.js';
import type { Lister } from '../../client/shared-informer.js';
import { splitKey } from '../../client/store.js';
import { RESOURCES } from '../../controller/context.js';
import type { ReconcileResult } from '../../controller/controller.js';
import type { EventRecorder } from '../../controller/events.js';
import type { Expectations } from '../../controller/expectations.js';
import { SLOW_START_INITIAL_BATCH_SIZE, slowStartBatch } from '../../controller/slow-start.js';
import type { Clock } from '../../util/clock.js';
import type { FailedPodBackoff } from './backoff.js';
import { historyToPrune, planHistory, revisionHash } from './history.js';
import { daemonSetSelector } from './lookup.js';
import { DAEMONSET_HASH_LABEL } from './node-eligibility.js';
import { type Plan, planDaemonSet } from './plan.js';
import { daemonSetCounts, nextStatus } from './status.js';
import {
  claimChildren,
  createDaemonPod,
  createRevision,
  DAEMONSETS,
  deleteDaemonPod,
  deleteRevision,
  updateRevision,
} from './writes.js';

/** Upstream `BurstReplicas`: at most this many creates (and deletes) per sync. */
export const BURST_REPLICAS = 250;

export interface SyncDeps {
  readonly client: ApiClient;
  readonly daemonSets: Lister<DaemonSet>;
  readonly pods: Lister<Pod>;
  readonly nodes: Lister<Node>;
  readonly revisions: Lister<ControllerRevision>;
  readonly recorder: EventRecorder;
  readonly clock: Clock;
  readonly expectations: Expectations;
  readonly backoff: FailedPodBackoff;
  readonly warn: (fields: Record<string, unknown>, msg: string) => void;
}

const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

/** Upstream `GetTemplateGeneration`: the annotation as an integer, when it parses. */
function templateGeneration(ds: DaemonSet): number | undefined {
  const text = ds.metadata?.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
  return text !== undefined && /^-?[0-9]+$/.test(text) ? Number(text) : undefined;
}

/** Terminal pods already being deleted are the kubelet's or PodGC's business, not ours. */
function relevant(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return !(pod.metadata?.deletionTimestamp && (phase === 'Failed' || phase === 'Succeeded'));
}

function isEmptySelector(ds: DaemonSet): boolean {
  const s = ds.spec?.selector;
  return (
    s !== undefined &&
    Object.keys(s.matchLabels ?? {}).length === 0 &&
    (s.matchExpressions ?? []).length === 0
  );
}

/** Revisions without the hash label get their name as it (upstream relabels them so). */
async function relabelRevisions(
  deps: SyncDeps,
  ds: DaemonSet,
  owned: readonly ControllerRevision[],
): Promise<ControllerRevision[]> {
  const relabelled = new Map<string, ControllerRevision>();
  for (const r of planHistory(ds, owned).relabel) {
    const name = r.metadata?.name ?? '';
    const labels = { ...(r.metadata?.labels ?? {}), [DAEMONSET_HASH_LABEL]: name };
    const written = await updateRevision(deps.client, ds, {
      ...r,
      metadata: { ...r.metadata, labels },
    });
    relabelled.set(name, written);
  }
  return owned.map((r) => relabelled.get(r.metadata?.name ?? '') ?? r);
}

/** Upstream `dedupCurHistories`: pods move to the kept hash, then the duplicates go. */
async function dedupe(
  deps: SyncDeps,
  ds: DaemonSet,
  hash: string,
  duplicates: readonly ControllerRevision[],
  pods: readonly Pod[],
): Promise<void> {
  if (duplicates.length === 0) return;
  const namespace = ds.metadata?.namespace ?? '';
  for (const pod of pods) {
    if (pod.metadata?.labels?.[DAEMONSET_HASH_LABEL] === hash) continue;
    const ref = { ...RESOURCES.pods, namespace, name: pod.metadata?.name ?? '' };
    await deps.client.patch(
      ref,
      { metadata: { labels: { [DAEMONSET_HASH_LABEL]: hash } } },
      'merge',
    );
  }
  for (const d of duplicates) await deleteRevision(deps.client, ds, d.metadata?.name ?? '');
}

/** Upstream `constructHistory`: the current revision (written as needed) and the old ones. */
async function constructHistory(
  deps: SyncDeps,
  ds: DaemonSet,
  owned: readonly ControllerRevision[],
  pods: readonly Pod[],
): Promise<{ hash: string; old: ControllerRevision[] }> {
  const plan = planHistory(ds, await relabelRevisions(deps, ds, owned));
  let current = plan.current;
  if (current === undefined) {
    if (plan.create === undefined) throw new Error('history plan without a current revision');
    current = await createRevision(deps.client, ds, plan.create);
  } else {
    await dedupe(deps, ds, revisionHash(current), plan.duplicates, pods);
    if (plan.renumber !== undefined) {
      current = await updateRevision(deps.client, ds, { ...current, revision: plan.renumber });
    }
  }
  return { hash: revisionHash(current), old: plan.old };
}

/** Upstream `syncNodes`: expectations first, slow-start creates, then deletes. */
async function syncNodes(
  deps: SyncDeps,
  key: string,
  ds: DaemonSet,
  plan: Plan,
  hash: string,
): Promise<Error[]> {
  const creates = plan.createNodes.slice(0, BURST_REPLICAS);
  const deletes = plan.deletePods.slice(0, BURST_REPLICAS);
  deps.expectations.set(key, creates.length, deletes.length);
  const errors: Error[] = [];
  const generation = templateGeneration(ds);
  let attempted = 0;
  const result = await slowStartBatch(creates.length, SLOW_START_INITIAL_BATCH_SIZE, async (i) => {
    attempted++;
    try {
      await createDaemonPod(deps.client, deps.recorder, ds, creates[i] ?? '', hash, generation);
    } catch (err) {
      deps.expectations.creationObserved(key);
      throw err;
    }
  });
  if (result.error !== undefined) {
    errors.push(result.error instanceof Error ? result.error : new Error(String(result.error)));
    // Pods never attempted are not expected: a later sync retries them.
    deps.expectations.lower(key, creates.length - attempted, 0);
  }
  await Promise.all(
    deletes.map(async (name) => {
      try {
        await deleteDaemonPod(deps.client, deps.recorder, ds, name);
      } catch (err) {
        deps.expectations.deletionObserved(key);
        if (!isNotFound(err)) errors.push(err instanceof Error ? err : new Error(String(err)));
      }
    }),
  );
  return errors;
}

/** Upstream `storeDaemonSetStatus`: PUT /status, once more over a fresh GET on conflict. */
async function writeStatus(
  deps: SyncDeps,
  ds: DaemonSet,
  status: DaemonSet['status'],
): Promise<void> {
  const ref = {
    ...DAEMONSETS,
    namespace: ds.metadata?.namespace ?? '',
    name: ds.metadata?.name ?? '',
  };
  try {
    await deps.client.updateStatus(ref, { ...ds, status });
  } catch (err) {
    if (!isConflict(err)) throw err;
    const fresh = await deps.client.get(ref);
    await deps.client.updateStatus(ref, { ...fresh, status });
  }
}

function backoffKey(ds: DaemonSet, node: string): string {
  return `${ds.metadata?.uid ?? ''}/${ds.status?.observedGeneration ?? 0}/${node}`;
}

/** Reconciles the DaemonSet `key` (`<namespace>/<name>`). */
export async function syncDaemonSet(deps: SyncDeps, key: string): Promise<ReconcileResult> {
  const [namespace, name] = splitKey(key);
  const ds = deps.daemonSets.get(namespace, name);
  if (ds === undefined) {
    deps.expectations.delete(key);
    return {};
  }
  if (isEmptySelector(ds)) {
    deps.recorder.event(
      ds,
      'Warning',
      'SelectingAll',
      'This daemon set is selecting all pods. A non-empty selector is required.',
    );
    return {};
  }
  const selector = daemonSetSelector(ds);
  if (selector === undefined) {
    deps.warn({ daemonSet: key }, 'invalid selector; not syncing');
    return {};
  }
  if (ds.metadata?.deletionTimestamp) return {};
  const nodes = deps.nodes.list();
  const revisions = await claimChildren(
    deps.client,
    ds,
    selector,
    deps.revisions.listInNamespace(namespace),
    'ControllerRevision',
    RESOURCES.controllerrevisions,
  );
  const pods = (
    await claimChildren(
      deps.client,
      ds,
      selector,
      deps.pods.listInNamespace(namespace),
      'Pod',
      RESOURCES.pods,
    )
  ).filter(relevant);
  const { hash, old } = await constructHistory(deps, ds, revisions, pods);
  const now = deps.clock.now();
  const satisfied = deps.expectations.satisfied(key);
  let errors: Error[] = [];
  let plan: Plan | undefined;
  if (satisfied) {
    plan = planDaemonSet({
      ds,
      nodes,
      pods,
      hash,
      now,
      inBackoff: (n) => deps.backoff.inBackoff(backoffKey(ds, n), now),
    });
    for (const e of plan.events) deps.recorder.event(ds, e.type, e.reason, e.message);
    for (const n of plan.backoffNodes) deps.backoff.next(backoffKey(ds, n), now);
    errors = await syncNodes(deps, key, ds, plan, hash);
  }
  const counts = daemonSetCounts(ds, nodes, pods, hash, now);
  const status = nextStatus(ds, counts, satisfied);
  if (status !== undefined) await writeStatus(deps, ds, status);
  if (errors.length > 0) throw new AggregateError(errors, errors.map((e) => e.message).join('; '));
  if (satisfied) {
    for (const r of historyToPrune(ds, old, pods))
      await deleteRevision(deps.client, ds, r.metadata?.name ?? '');
  }
  return requeue(deps, ds, counts, plan);
}

/** When to look again without an event: minReadySeconds passing, or a failed pod's backoff. */
function requeue(
  deps: SyncDeps,
  ds: DaemonSet,
  counts: ReturnType<typeof daemonSetCounts>,
  plan: Plan | undefined,
): ReconcileResult {
  const waits: number[] = [];
  const minReady = ds.spec?.minReadySeconds ?? 0;
  if (minReady > 0 && counts.numberReady !== counts.numberAvailable) waits.push(minReady * 1000);
  for (const n of plan?.waitingNodes ?? []) {
    const delay = deps.backoff.delay(backoffKey(ds, n));
    if (delay > 0) waits.push(delay);
  }
  return waits.length === 0 ? {} : { requeueAfter: Math.min(...waits) };
}
