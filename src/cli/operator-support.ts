/**
 * Small pieces of `fleetyard operator` kept out of operator-run.ts: the start-up log of the
 * effective settings (never the token: only where the connection came from and the server
 * URL) and the guard that turns an operator stopping on its own into a process exit.
 *
 * @module
 */
import type { ControllerContext, ControllerDefinition } from '../controller/context.js';
import { OPERATOR_LEASE_NAME } from '../operator/controller/options.js';
import { formatGoDuration } from '../sim/kubelet/annotations.js';
import { type ConnectionSource, formatBindAddress, type OperatorFlags } from './operator-flags.js';

/** The key/values of the `celld operator starting` line. */
export function operatorSettingsLog(
  flags: OperatorFlags,
  source: ConnectionSource,
  server: string,
  operatorNamespace: string,
): Record<string, unknown> {
  return {
    connection: source.kind,
    ...(source.kind === 'kubeconfig'
      ? { kubeconfig: source.path, ...(source.context ? { context: source.context } : {}) }
      : {}),
    server,
    namespace: flags.namespace ?? '(all namespaces)',
    operatorNamespace,
    memberReplacementDelay: formatGoDuration(flags.memberReplacementDelayMs),
    networkPolicyEnforced: flags.networkPolicyEnforced,
    localTest: flags.localTest,
    leaderElect: flags.leaderElect,
    ...(flags.leaderElect ? { lease: `${operatorNamespace}/${OPERATOR_LEASE_NAME}` } : {}),
    metricsBindAddress: formatBindAddress(flags.metrics),
    healthProbeBindAddress: formatBindAddress(flags.healthProbes),
  };
}

/**
 * Wraps the operator so `onFailure` runs when its `start` rejects, or resolves while the
 * manager is still running: the manager only logs such a failure, and a leader whose
 * reconciler died would hold the Lease and reconcile nothing.
 */
export function watchOperator(
  def: ControllerDefinition,
  onFailure: (err: unknown) => void,
): ControllerDefinition {
  const start = async (ctx: ControllerContext): Promise<void> => {
    try {
      await def.start(ctx);
    } catch (err) {
      if (!ctx.signal.aborted) onFailure(err);
      throw err;
    }
    if (!ctx.signal.aborted) onFailure(new Error(`${def.name} returned before it was stopped`));
  };
  // Methods are called on `def`, not copied: it may be a class instance.
  return {
    name: def.name,
    ...(def.agent !== undefined ? { agent: def.agent } : {}),
    start,
    ...(def.registerMetrics ? { registerMetrics: (r) => def.registerMetrics?.(r) } : {}),
  };
}
