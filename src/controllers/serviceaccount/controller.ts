/**
 * The ServiceAccounts controller of kube-controller-manager (upstream
 * `pkg/controller/serviceaccount/serviceaccounts_controller.go`): every `Active` namespace
 * has a `default` ServiceAccount, created when the namespace appears and again when the
 * account is deleted.
 *
 * One queue of namespace names, fed by namespace adds and updates and by ServiceAccount
 * deletions; a reconcile plans from the caches (`plan.ts`) and creates what is missing. An
 * account that exists already (AlreadyExists) or a namespace that went or began terminating
 * meanwhile is not an error, as upstream.
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import { isAlreadyExists } from '../../client/api-client.js';
import type { ResourceType } from '../../client/resource-path.js';
import { deletedObject } from '../../client/shared-informer.js';
import {
  type ControllerContext,
  type ControllerDefinition,
  RESOURCES,
} from '../../controller/context.js';
import { type ReconcileResult, runController } from '../../controller/controller.js';
import { kindInformer } from '../../controller/kind-informer.js';
import { WorkQueue } from '../../controller/workqueue.js';
import { isNamespaceGoneOrTerminating } from './namespace-errors.js';
import { planServiceAccounts } from './plan.js';

/** Upstream's name (`--controllers`; its alias there is `serviceaccount`). */
export const SERVICE_ACCOUNT_CONTROLLER_NAME = 'serviceaccount-controller';

export const SERVICE_ACCOUNTS_RESOURCE: ResourceType = {
  group: '',
  version: 'v1',
  plural: 'serviceaccounts',
};

/** The ServiceAccounts controller, for the controller manager. */
export function serviceAccountController(): ControllerDefinition {
  return { name: SERVICE_ACCOUNT_CONTROLLER_NAME, start: run };
}

async function run(ctx: ControllerContext): Promise<void> {
  const namespaces = kindInformer(ctx.informers.informer(RESOURCES.namespaces), 'Namespace');
  const accounts = ctx.informers.informer(SERVICE_ACCOUNTS_RESOURCE);
  const queue = new WorkQueue<string>({
    clock: ctx.clock,
    name: 'serviceaccount',
    metrics: ctx.metrics.queue,
  });
  const onNamespace = (ns: KubeObject) => queue.add(ns.metadata?.name ?? '');
  namespaces.addEventHandler({ onAdd: onNamespace, onUpdate: (_, cur) => onNamespace(cur) });
  accounts.addEventHandler({
    onDelete: (d) => queue.add(deletedObject(d).metadata?.namespace ?? ''),
  });
  if (!(await ctx.informers.waitForSync([namespaces.informer, accounts], ctx.signal))) return;
  const reconcile = async (name: string): Promise<ReconcileResult> => {
    const existing = new Set(
      accounts.lister.listInNamespace(name).map((sa) => sa.metadata?.name ?? ''),
    );
    for (const account of planServiceAccounts(namespaces.lister.get('', name), existing)) {
      try {
        await ctx.client.create({ ...SERVICE_ACCOUNTS_RESOURCE, namespace: name }, account);
      } catch (err) {
        if (!isAlreadyExists(err) && !isNamespaceGoneOrTerminating(err)) throw err;
      }
    }
    return {};
  };
  await runController({
    name: SERVICE_ACCOUNT_CONTROLLER_NAME,
    queue,
    reconcile,
    clock: ctx.clock,
    log: ctx.log,
    metrics: ctx.metrics.controller,
    signal: ctx.signal,
  });
}
