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
import { clusterControllers, selectControllers } from '../cluster/cluster-controllers.js';
import { type FlagTable, flagUsage, isOneOf, orList } from '../cluster/flag-table.js';
import { LOCAL_KUBECONFIG, UP_FLAGS } from '../cluster/up-flag-table.js';
import { logLevelOf, UP_CLUSTER_DEFAULTS } from '../cluster/up-flags.js';
import { runLeaderElection } from '../controller/leader-election.js';
import { startControllerManager } from '../controller/manager.js';
import { MAX_SIMULATED_NODES } from '../sim/kubelet/node-config.js';
import { realClock } from '../util/clock.js';
import { createLogger } from '../util/log.js';

/**
 * What kube-controller-manager runs: everything except the simulated cluster (nodes, the
 * scheduler, the simulated CSI provisioners and their StorageClasses), which a real cluster
 * has of its own.
 */
export const KCM_DEFAULT =
  '*,-kubelet,-default-scheduler,-storageclass-bootstrap,-csi-provisioner-hostpath,-csi-provisioner-ebs,-celld-operator';

/** `fleetyard controllers`' flags (src/cluster/flag-table.ts); some are `fleetyard up`'s. */
export const CONTROLLERS_FLAGS = {
  kubeconfig: {
    type: 'string',
    default: resolve(LOCAL_KUBECONFIG),
    defaultText: `\`${LOCAL_KUBECONFIG}\``,
    value: 'PATH',
    help: 'Connection',
  },
  context: {
    type: 'string',
    value: 'NAME',
    defaultText: 'the current one',
    help: 'kubeconfig context',
  },
  controllers: {
    type: 'string',
    default: KCM_DEFAULT,
    value: 'LIST',
    defaultText: `kube-controller-manager's set, i.e. all but the simulation: \`${KCM_DEFAULT}\``,
    help: '`*` for all, `-name` to leave one out',
  },
  nodes: {
    type: 'string',
    default: UP_FLAGS.nodes.default,
    value: 'N',
    help: `Simulated nodes, 1 to ${MAX_SIMULATED_NODES}, when the kubelet controller is selected`,
  },
  zones: { ...UP_FLAGS.zones, help: 'Their zones, round-robin' },
  'leader-elect': {
    type: 'string',
    default: 'true',
    value: 'BOOL',
    choices: ['true', 'false'],
    help: 'Run only while holding the Lease',
  },
  'log-level': UP_FLAGS['log-level'],
  help: { type: 'boolean', default: false, hidden: true, help: 'This text' },
} as const satisfies FlagTable;

export const CONTROLLERS_USAGE = `Usage: fleetyard controllers [options]

Runs the controllers against the API server of a kubeconfig until SIGINT/SIGTERM.

Options:
${flagUsage(CONTROLLERS_FLAGS, { column: 25, width: 96 })}`;

/** The Lease the controller managers compete for (upstream's is `kube-controller-manager`). */
export const LEASE_NAME = 'fleetyard-controller-manager';

export async function runControllers(
  argv: readonly string[],
  signal: AbortSignal,
): Promise<number> {
  const { values } = parseArgs({ args: [...argv], options: CONTROLLERS_FLAGS, strict: true });
  if (values.help) {
    process.stdout.write(CONTROLLERS_USAGE);
    return 0;
  }
  const { choices } = CONTROLLERS_FLAGS['leader-elect'];
  if (!isOneOf(choices, values['leader-elect'])) {
    throw new Error(`invalid --leader-elect ${values['leader-elect']}: want ${orList(choices)}`);
  }
  const nodes = Number(values.nodes);
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > MAX_SIMULATED_NODES) {
    throw new Error(`invalid --nodes ${values.nodes}: want 1 to ${MAX_SIMULATED_NODES}`);
  }
  const controllers = selectControllers(
    clusterControllers({
      nodes,
      zones: values.zones.split(',').map((z) => z.trim()),
      defaultStorageClass: UP_CLUSTER_DEFAULTS.defaultStorageClass,
    }),
    values.controllers,
  );
  const log = createLogger(logLevelOf(values['log-level']), 'controller-manager');
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
