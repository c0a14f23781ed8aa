/**
 * The root CA certificate publisher of kube-controller-manager (upstream
 * `rootcacertpublisher.Publisher`): every `Active` namespace has the ConfigMap
 * `kube-root-ca.crt` holding the CA bundle that verifies the API server, created when the
 * namespace appears, again when it is deleted, and set right when it is edited.
 *
 * The bundle is upstream's: `--root-ca-file` when given (here the `rootCA` option), else the
 * CA of the controller manager's own connection to the API server, which in `fleetyard up` is
 * the CA that signed the serving certificate (the kubeconfig's). Without either, nothing is
 * published: an empty bundle verifies nothing, and against a real cluster it would undo what
 * that cluster's own publisher writes.
 *
 * One queue of namespace names, fed by namespace adds, updates to an `Active` namespace, and
 * updates and deletions of any `kube-root-ca.crt`; a reconcile plans from the caches
 * (`plan.ts`) and writes only what differs.
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import { deletedObject } from '../../client/shared-informer.js';
import {
  type ControllerContext,
  type ControllerDefinition,
  RESOURCES,
} from '../../controller/context.js';
import { type ReconcileResult, runController } from '../../controller/controller.js';
import { kindInformer } from '../../controller/kind-informer.js';
import { WorkQueue } from '../../controller/workqueue.js';
import { isNamespaceGoneOrTerminating } from '../serviceaccount/namespace-errors.js';
import { isActiveNamespace } from '../serviceaccount/plan.js';
import { planRootCAConfigMap, ROOT_CA_CONFIG_MAP } from './plan.js';

/** Upstream's name (`--controllers`; its alias there is `root-ca-cert-publisher`). */
export const ROOT_CA_PUBLISHER_NAME = 'root-ca-certificate-publisher-controller';

export interface RootCAPublisherOptions {
  /** The PEM bundle to publish (kube-controller-manager's `--root-ca-file`). */
  readonly rootCA?: string;
}

/** The root CA publisher, for the controller manager. */
export function rootCACertificatePublisher(
  options: RootCAPublisherOptions = {},
): ControllerDefinition {
  return { name: ROOT_CA_PUBLISHER_NAME, start: (ctx) => run(ctx, options) };
}

/**
 * The CA bundle of the manager's connection (upstream: the client config's `CAData`), once
 * the context carries it as `rootCA`.
 */
async function run(ctx: ControllerContext, options: RootCAPublisherOptions): Promise<void> {
  const rootCA = options.rootCA ?? ctx.rootCA ?? '';
  if (rootCA === '') {
    ctx.log.warn(
      {},
      'no root CA bundle (the connection has none): not publishing kube-root-ca.crt',
    );
    return;
  }
  const namespaces = kindInformer(ctx.informers.informer(RESOURCES.namespaces), 'Namespace');
  const configMaps = kindInformer(ctx.informers.informer(RESOURCES.configmaps), 'ConfigMap');
  const queue = new WorkQueue<string>({
    clock: ctx.clock,
    name: 'root_ca_cert_publisher',
    metrics: ctx.metrics.queue,
  });
  const onNamespace = (ns: KubeObject) => queue.add(ns.metadata?.name ?? '');
  namespaces.addEventHandler({
    onAdd: onNamespace,
    onUpdate: (_, cur) => {
      if (isActiveNamespace(cur)) onNamespace(cur);
    },
  });
  const onConfigMap = (cm: KubeObject) => {
    if (cm.metadata?.name === ROOT_CA_CONFIG_MAP) queue.add(cm.metadata.namespace ?? '');
  };
  configMaps.addEventHandler({
    onUpdate: (_, cur) => onConfigMap(cur),
    onDelete: (d) => onConfigMap(deletedObject(d)),
  });
  const caches = [namespaces.informer, configMaps.informer];
  if (!(await ctx.informers.waitForSync(caches, ctx.signal))) return;
  const reconcile = async (name: string): Promise<ReconcileResult> => {
    const current = configMaps.lister.get(name, ROOT_CA_CONFIG_MAP);
    const write = planRootCAConfigMap(namespaces.lister.get('', name), current, rootCA);
    const ref = { ...RESOURCES.configmaps, namespace: name };
    if (write?.action === 'update') {
      await ctx.client.update({ ...ref, name: ROOT_CA_CONFIG_MAP }, write.object);
    } else if (write?.action === 'create') {
      try {
        await ctx.client.create(ref, write.object);
      } catch (err) {
        // Don't retry a create into a namespace that is gone or terminating (upstream).
        if (!isNamespaceGoneOrTerminating(err)) throw err;
      }
    }
    return {};
  };
  await runController({
    name: ROOT_CA_PUBLISHER_NAME,
    queue,
    reconcile,
    clock: ctx.clock,
    log: ctx.log,
    metrics: ctx.metrics.controller,
    signal: ctx.signal,
  });
}
