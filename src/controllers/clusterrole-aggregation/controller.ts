/**
 * The ClusterRole aggregation controller of kube-controller-manager (upstream
 * `clusterroleaggregation.ClusterRoleAggregationController`): keeps the rules of every
 * ClusterRole with an `aggregationRule` equal to the union of the rules of the ClusterRoles
 * its selectors match (`plan.ts`), so `admin`, `edit` and `view` grow with the
 * `aggregate-to-*` roles that CRD authors add.
 *
 * One informer on ClusterRoles; any add, update or delete queues every aggregated ClusterRole
 * (upstream's `enqueue`: a label change anywhere may add or remove rules anywhere). A
 * reconcile plans from the cache and writes only when the rules differ. Upstream writes with
 * a server-side apply of `rules` (fallback: update); here an update of the cached object,
 * whose resourceVersion makes a concurrent change a 409 that the queue retries. Its identity
 * is `system:controller:clusterrole-aggregation-controller` (escalate on clusterroles).
 *
 * @module
 */
import { asKind } from '../../api/model/index.js';
import type { ControllerContext, ControllerDefinition } from '../../controller/context.js';
import { type ReconcileResult, runController } from '../../controller/controller.js';
import { kindInformer } from '../../controller/kind-informer.js';
import { WorkQueue } from '../../controller/workqueue.js';
import { aggregatedRoleNames, planAggregation } from './plan.js';

/** Upstream's name in `--controllers`. */
export const CLUSTERROLE_AGGREGATION_NAME = 'clusterrole-aggregation-controller';

const CLUSTER_ROLES = {
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural: 'clusterroles',
} as const;

/** The ClusterRole aggregation controller, for the controller manager. */
export function clusterRoleAggregationController(): ControllerDefinition {
  return { name: CLUSTERROLE_AGGREGATION_NAME, start: run };
}

async function run(ctx: ControllerContext): Promise<void> {
  const roles = kindInformer(ctx.informers.informer(CLUSTER_ROLES), 'ClusterRole');
  const queue = new WorkQueue<string>({
    clock: ctx.clock,
    name: 'ClusterRoleAggregator',
    metrics: ctx.metrics.queue,
  });
  const enqueueAll = () => {
    for (const name of aggregatedRoleNames(roles.lister.list())) queue.add(name);
  };
  roles.addEventHandler({ onAdd: enqueueAll, onUpdate: enqueueAll, onDelete: enqueueAll });
  if (!(await ctx.informers.waitForSync([roles.informer], ctx.signal))) return;
  const reconcile = async (name: string): Promise<ReconcileResult> => {
    const role = roles.lister.get('', name);
    if (role === undefined) return {};
    const next = planAggregation(role, roles.lister.list());
    if (next !== undefined) {
      await ctx.client.update({ ...CLUSTER_ROLES, name }, asKind(next, 'ClusterRole'));
    }
    return {};
  };
  await runController({
    name: CLUSTERROLE_AGGREGATION_NAME,
    queue,
    reconcile,
    clock: ctx.clock,
    log: ctx.log,
    metrics: ctx.metrics.controller,
    signal: ctx.signal,
  });
}
