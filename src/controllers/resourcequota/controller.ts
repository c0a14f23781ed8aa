/**
 * The resource quota controller (upstream `pkg/controller/resourcequota`): keeps every
 * ResourceQuota's `status.hard` equal to its `spec.hard` and `status.used` equal to what its
 * namespace uses, which quota admission then charges new objects against.
 *
 * One queue of quota keys, fed by the quotas' own events, by the counted kinds (pods,
 * services, claims, config maps, secrets, quotas, and any kind a `count/<resource>.<group>`
 * names, watched from the first quota that names it) when an object comes, goes, or changes in
 * a way quota sees ({@link usageFingerprint}), and by a recount at least every 5 minutes
 * (upstream's `--resource-quota-sync-period`). A reconcile lists the counted kinds of the
 * quota's namespace from the API server, plans ({@link planQuota}) and writes the status only
 * when it differs.
 *
 * The lists are read live rather than from the caches, after the cached quota: admission
 * charges a quota in the same step as it writes the object (one storage commit), so any charge
 * the cached quota shows is already in the lists, and a charge made since changes the quota's
 * resourceVersion, which the status write carries as its precondition (409, then a recount).
 * So a recount does not take back a charge for an object it has not seen yet (upstream's
 * cache-based recount can, until its next sync). The one exception: storage commits more than
 * 256 writes of one tick in several batches, and may split a charge from its object; the
 * object's own event then triggers the recount that puts the charge back.
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import { evaluatorFor, type QuotaEvaluator } from '../../api/quota/evaluators.js';
import { isNotFound } from '../../client/api-client.js';
import type { ResourceType } from '../../client/resource-path.js';
import { deletedObject } from '../../client/shared-informer.js';
import { objectKey, splitKey } from '../../client/store.js';
import {
  type ControllerContext,
  type ControllerDefinition,
  RESOURCES,
} from '../../controller/context.js';
import { type ReconcileResult, runController } from '../../controller/controller.js';
import { type KindInformer, kindInformer } from '../../controller/kind-informer.js';
import { WorkQueue } from '../../controller/workqueue.js';
import { KindResolver } from './kinds.js';
import { planQuota, quotaEvaluators, quotaTracks, usageFingerprint } from './plan.js';

export const RESOURCE_QUOTA_CONTROLLER_NAME = 'resourcequota-controller';

/** Upstream `--resource-quota-sync-period` (5m): every quota is recounted at least this often. */
export const QUOTA_RESYNC_MS = 5 * 60_000;

/**
 * A quota naming a kind the server does not serve (yet: a CRD to come) is looked at again this
 * often, upstream's 30 s discovery period for the quota controller's monitors.
 */
export const UNKNOWN_KIND_RETRY_MS = 30_000;

export const RESOURCE_QUOTAS: ResourceType = { group: '', version: 'v1', plural: 'resourcequotas' };

/** The kinds watched from the start (upstream's core evaluators). */
const CORE_KINDS: readonly ResourceType[] = [
  RESOURCES.pods,
  RESOURCES.services,
  RESOURCES.persistentvolumeclaims,
  RESOURCES.configmaps,
  RESOURCES.secrets,
];

/** Core kinds always counted; a 404 means the server keeps none of them (0, not unknown). */
const ALWAYS_COUNTED = new Set([
  'pods',
  'services',
  'persistentvolumeclaims',
  'configmaps',
  'secrets',
  'resourcequotas',
  'replicationcontrollers',
]);

/** The resource quota controller, for the controller manager. */
export const resourceQuotaController: ControllerDefinition = {
  name: RESOURCE_QUOTA_CONTROLLER_NAME,
  start: run,
};

interface State {
  readonly ctx: ControllerContext;
  readonly quotas: KindInformer<'ResourceQuota'>;
  readonly queue: WorkQueue<string>;
  readonly kinds: KindResolver;
  /** Paths of the kinds already watched. */
  readonly watched: Set<string>;
}

function kindKey(t: { group: string; plural: string }): string {
  return `${t.group}/${t.plural}`;
}

/** Queues the quotas of `namespace` that count `group`/`resource`. */
function recountFor(state: State, namespace: string, group: string, resource: string): void {
  for (const q of state.quotas.lister.listInNamespace(namespace)) {
    if (quotaTracks(q, group, resource)) state.queue.add(objectKey(q));
  }
}

/** Watches one counted kind: its arrivals, departures and usage changes queue recounts. */
function watchKind(state: State, type: ResourceType): void {
  if (state.watched.has(kindKey(type))) return;
  state.watched.add(kindKey(type));
  const ev = evaluatorFor(type.group, type.plural);
  if (ev === undefined) return;
  const touch = (obj: KubeObject) =>
    recountFor(state, obj.metadata?.namespace ?? '', type.group, type.plural);
  state.ctx.informers.informer(type).addEventHandler({
    onAdd: touch,
    onUpdate: (old, cur) => {
      if (usageFingerprint(ev, old) !== usageFingerprint(ev, cur)) touch(cur);
    },
    onDelete: (d) => touch(deletedObject(d)),
  });
}

async function run(ctx: ControllerContext): Promise<void> {
  const queue = new WorkQueue<string>({
    clock: ctx.clock,
    name: 'resourcequota_primary',
    metrics: ctx.metrics.queue,
  });
  const state: State = {
    ctx,
    quotas: kindInformer(ctx.informers.informer(RESOURCE_QUOTAS), 'ResourceQuota'),
    queue,
    kinds: new KindResolver((path) => ctx.client.getPath(path, { signal: ctx.signal })),
    watched: new Set([kindKey(RESOURCE_QUOTAS)]),
  };
  const onQuota = (q: KubeObject) => {
    queue.add(objectKey(q));
    // Quotas are a counted kind too (`resourcequotas`, `count/resourcequotas`).
    recountFor(state, q.metadata?.namespace ?? '', '', 'resourcequotas');
  };
  state.quotas.addEventHandler({
    onAdd: onQuota,
    onUpdate: (_, cur) => queue.add(objectKey(cur)),
    onDelete: (d) => onQuota(deletedObject(d)),
  });
  for (const type of CORE_KINDS) watchKind(state, type);
  const informers = CORE_KINDS.map((t) => ctx.informers.informer(t));
  if (!(await ctx.informers.waitForSync([state.quotas.informer, ...informers], ctx.signal))) return;
  await runController({
    name: RESOURCE_QUOTA_CONTROLLER_NAME,
    queue,
    reconcile: (key) => reconcile(state, key),
    clock: ctx.clock,
    log: ctx.log,
    metrics: ctx.metrics.controller,
    signal: ctx.signal,
  });
}

/** The live objects of an evaluator's kind in `namespace`; undefined when not countable. */
async function listKind(
  state: State,
  ev: QuotaEvaluator,
  namespace: string,
): Promise<readonly KubeObject[] | undefined> {
  const type = await state.kinds.resolve(ev.group, ev.resource);
  const always = ev.group === '' && ALWAYS_COUNTED.has(ev.resource);
  if (type === undefined) return always ? [] : undefined;
  try {
    const list = await state.ctx.client.list({ ...type, namespace }, { signal: state.ctx.signal });
    watchKind(state, type);
    return list.items;
  } catch (err) {
    if (isNotFound(err)) return always ? [] : undefined;
    throw err;
  }
}

async function reconcile(state: State, key: string): Promise<ReconcileResult> {
  const [namespace, name] = splitKey(key);
  const quota = state.quotas.lister.get(namespace, name);
  if (quota === undefined) return {};
  const observed = new Map<string, readonly KubeObject[] | undefined>();
  for (const ev of quotaEvaluators(quota)) {
    observed.set(
      kindKey({ group: ev.group, plural: ev.resource }),
      await listKind(state, ev, namespace),
    );
  }
  const now = state.ctx.clock.now();
  const plan = planQuota(
    quota,
    (ev) => observed.get(kindKey({ group: ev.group, plural: ev.resource })),
    now,
  );
  if (plan.status !== undefined) {
    // The cached resourceVersion is the precondition: a charge since then answers 409.
    await state.ctx.client.updateStatus(
      { ...RESOURCE_QUOTAS, namespace, name },
      { ...quota, status: plan.status },
      { signal: state.ctx.signal },
    );
  }
  const period = [...observed.values()].includes(undefined)
    ? UNKNOWN_KIND_RETRY_MS
    : QUOTA_RESYNC_MS;
  const untilRecount =
    plan.recountAt === undefined ? period : Math.max(1, plan.recountAt - now + 1);
  return { requeueAfter: Math.min(period, untilRecount) };
}
