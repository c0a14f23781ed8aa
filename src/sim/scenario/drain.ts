/**
 * `drain`, as `kubectl drain NODE --ignore-daemonsets --delete-emptydir-data` does it: cordon
 * the node, evict each of its pods through the eviction API (`pods/eviction`, so
 * PodDisruptionBudgets apply), retry a refused eviction (429) every 5 s as kubectl does, and
 * wait until every evicted pod is gone (deleted, or replaced under its name by another uid).
 * DaemonSet pods and mirror pods are left alone, as kubectl leaves them.
 *
 * Time is virtual: between two rounds the cluster runs 5 s. With `outcome: drained` the
 * step fails if pods remain at the timeout; with `outcome: blocked` it fails unless an
 * eviction is still being refused then (the PodDisruptionBudget story).
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import { isNotFound, isTooManyRequests } from '../../client/api-errors.js';
import type { ObjectRef } from '../../client/resource-path.js';
import {
  type ActionContext,
  describeError,
  FIELD_MANAGER,
  interrupted,
  StepFailure,
} from './actions.js';
import { formatDuration } from './format.js';

/** kubectl drain's pause before it retries a refused eviction. */
const EVICTION_RETRY_MS = 5000;

interface PodState {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  evicted: boolean;
  refusal?: string;
}

export async function drain(
  ctx: ActionContext,
  node: string,
  timeoutMs: number,
  outcome: 'drained' | 'blocked',
): Promise<string> {
  const { client, clock } = ctx.cluster;
  const nodeRef = { group: '', version: 'v1', plural: 'nodes', name: node };
  try {
    await client.patch(nodeRef, { spec: { unschedulable: true } }, 'merge', {
      fieldManager: FIELD_MANAGER,
    });
  } catch (err) {
    throw new StepFailure(describeError(err));
  }
  ctx.note(`node/${node} cordoned`);
  const pods = await podsToEvict(ctx, node);
  const start = clock.now().getTime();
  const deadline = start + timeoutMs;
  for (;;) {
    for (const pod of pods.filter((p) => !p.evicted)) await evict(ctx, pod);
    const remaining = await stillThere(ctx, pods);
    const refused = pods.filter((p) => !p.evicted);
    const now = clock.now().getTime();
    if (remaining.length === 0) {
      const took = formatDuration(now - start);
      if (outcome === 'blocked')
        throw new StepFailure(`the drain was not blocked: node ${node} drained in ${took}`);
      return `node/${node} drained in ${took}`;
    }
    if (ctx.stopped()) throw interrupted(now - start);
    if (now >= deadline) return timedOut(node, outcome, remaining, refused, now - start);
    await clock.advance(Math.min(EVICTION_RETRY_MS, deadline - now));
  }
}

/** At the timeout: a blocked drain as expected, or the failure saying what remains. */
function timedOut(
  node: string,
  outcome: 'drained' | 'blocked',
  remaining: readonly PodState[],
  refused: readonly PodState[],
  tookMs: number,
): string {
  const refusal = refused[0]?.refusal;
  if (outcome === 'blocked' && refusal !== undefined) {
    return `drain blocked for ${formatDuration(tookMs)}: ${refusal}`;
  }
  const names = remaining.map((p) => `${p.namespace}/${p.name}`).join(', ');
  throw new StepFailure(
    `node ${node} not drained after ${formatDuration(tookMs)}: ${names} remain${refusal ? ` (${refusal})` : ''}`,
  );
}

async function podsToEvict(ctx: ActionContext, node: string): Promise<PodState[]> {
  const list = await ctx.cluster.client.list(
    { group: '', version: 'v1', plural: 'pods' },
    { fieldSelector: `spec.nodeName=${node}` },
  );
  return list.items
    .filter((p) => !isDaemonSetPod(p) && !isMirrorPod(p))
    .map((p) => ({
      namespace: p.metadata?.namespace ?? 'default',
      name: p.metadata?.name ?? '',
      uid: p.metadata?.uid ?? '',
      evicted: false,
    }));
}

function isDaemonSetPod(p: KubeObject): boolean {
  return (p.metadata?.ownerReferences ?? []).some(
    (o) => o.controller === true && o.kind === 'DaemonSet',
  );
}

function isMirrorPod(p: KubeObject): boolean {
  return p.metadata?.annotations?.['kubernetes.io/config.mirror'] !== undefined;
}

async function evict(ctx: ActionContext, pod: PodState): Promise<void> {
  const ref = podRef(pod);
  const body = {
    apiVersion: 'policy/v1',
    kind: 'Eviction',
    metadata: { name: pod.name, namespace: pod.namespace },
    deleteOptions: { preconditions: { uid: pod.uid } },
  };
  try {
    await ctx.cluster.client.createSubresource(ref, 'eviction', body);
    pod.evicted = true;
    ctx.note(`pod/${pod.name} evicted`);
  } catch (err) {
    if (isNotFound(err)) {
      pod.evicted = true;
      return;
    }
    if (!isTooManyRequests(err))
      throw new StepFailure(`evicting pod ${pod.namespace}/${pod.name}: ${describeError(err)}`);
    const message = err instanceof Error ? err.message : String(err);
    // kubectl's line, once per pod rather than every 5 s.
    if (pod.refusal === undefined) {
      ctx.note(
        `error when evicting pods/"${pod.name}" -n "${pod.namespace}" (will retry after 5s): ${message}`,
      );
    }
    pod.refusal = message;
  }
}

/** The pods not yet gone: still there under the same uid. */
async function stillThere(ctx: ActionContext, pods: readonly PodState[]): Promise<PodState[]> {
  const out: PodState[] = [];
  for (const pod of pods) {
    const ref = podRef(pod);
    try {
      const live = await ctx.cluster.client.get(ref);
      if (live.metadata?.uid === pod.uid) out.push(pod);
    } catch (err) {
      if (!isNotFound(err)) throw new StepFailure(describeError(err));
    }
  }
  return out;
}

function podRef(pod: PodState): ObjectRef {
  return { group: '', version: 'v1', plural: 'pods', namespace: pod.namespace, name: pod.name };
}
