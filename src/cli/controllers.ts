/**
 * `fleetyard controllers`: the controller manager as a process of its own, against any API
 * server a kubeconfig names (a remote cluster, or a `fleetyard up --controllers=`). With
 * `--leader-elect` (the default, as kube-controller-manager) it runs only while it holds the
 * Lease `kube-system/fleetyard-controller-manager`, so several replicas can stand by.
 *
 * The default selection is kube-controller-manager's set: the workload controllers without the
 * simulated nodes and the scheduler, which a real cluster has of its own.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ApiClient } from '../client/api-client.js';
import { loadKubeconfigConnection } from '../client/kubeconfig-connection.js';
import { runLeaderElection } from '../controller/leader-election.js';
import { startControllerManager } from '../controller/manager.js';
import { realClock } from '../util/clock.js';
import { createLogger, type LogLevel } from '../util/log.js';
import { clusterControllers, selectControllers } from './cluster-controllers.js';

/**
 * What kube-controller-manager runs: everything except the simulated cluster (nodes, the
 * scheduler, the simulated CSI provisioners and their StorageClasses), which a real cluster
 * has of its own.
 */
export const KCM_DEFAULT =
  '*,-kubelet,-default-scheduler,-storageclass-bootstrap,-csi-provisioner-hostpath,-csi-provisioner-ebs,-celld-operator';

export const CONTROLLERS_USAGE = `Usage: fleetyard controllers [options]

Runs the controllers against the API server of a kubeconfig until SIGINT/SIGTERM.

Options:
  --kubeconfig PATH      Connection (default: ./.fleetyard/kubeconfig)
  --context NAME         kubeconfig context (default: the current one)
  --controllers LIST     * for all, -name to leave one out
                         (default: kube-controller-manager's set, i.e. all but the simulation:
                         ${KCM_DEFAULT})
  --nodes N, --zones a,b Simulated nodes, when the kubelet controller is selected (default 3; a,b,c)
  --leader-elect BOOL    Run only while holding the Lease (default true)
  --log-level LEVEL      debug, info, warn, error or silent (default info)
`;

/** The Lease the controller managers compete for (upstream's is `kube-controller-manager`). */
export const LEASE_NAME = 'fleetyard-controller-manager';

export async function runControllers(
  argv: readonly string[],
  signal: AbortSignal,
): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      kubeconfig: { type: 'string', default: resolve('.fleetyard', 'kubeconfig') },
      context: { type: 'string' },
      controllers: { type: 'string', default: KCM_DEFAULT },
      nodes: { type: 'string', default: '3' },
      zones: { type: 'string', default: 'a,b,c' },
      'leader-elect': { type: 'string', default: 'true' },
      'log-level': { type: 'string', default: 'info' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(CONTROLLERS_USAGE);
    return 0;
  }
  if (values['leader-elect'] !== 'true' && values['leader-elect'] !== 'false') {
    throw new Error(`invalid --leader-elect ${values['leader-elect']}: want true or false`);
  }
  const nodes = Number(values.nodes);
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > 250) {
    throw new Error(`invalid --nodes ${values.nodes}: want 1 to 250`);
  }
  const controllers = selectControllers(
    clusterControllers({ nodes, zones: values.zones.split(',').map((z) => z.trim()) }),
    values.controllers,
  );
  const log = createLogger(values['log-level'] as LogLevel, 'controller-manager');
  const { namespace: _ns, ...connection } = await loadKubeconfigConnection(
    values.kubeconfig,
    values.context,
  );
  const run = async (leading: AbortSignal): Promise<void> => {
    const manager = startControllerManager({ connection, controllers, clock: realClock, log });
    await new Promise<void>((done) => {
      if (leading.aborted) done();
      else leading.addEventListener('abort', () => done(), { once: true });
    });
    await manager.stop();
  };
  if (values['leader-elect'] === 'false') {
    await run(signal);
    return 0;
  }
  const client = new ApiClient({ ...connection, userAgent: 'fleetyard-controller-manager' });
  let lost = false;
  await runLeaderElection({
    client,
    clock: realClock,
    log,
    name: LEASE_NAME,
    namespace: 'kube-system',
    identity: `${hostname()}_${randomUUID()}`,
    releaseOnCancel: true,
    signal,
    onStartedLeading: run,
    onStoppedLeading: () => {
      if (!signal.aborted) lost = true;
    },
  });
  // Upstream exits when it loses the Lease: a supervisor restarts it as a fresh candidate.
  if (lost) {
    log.error({}, 'leader election lost');
    return 1;
  }
  return 0;
}
