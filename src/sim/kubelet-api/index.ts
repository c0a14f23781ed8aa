/**
 * The simulated nodes' kubelet endpoints, as the API server consumes them
 * (`apiserver/kubelet/types.ts`'s `KubeletEndpoints`; this layer may not import it, so the
 * shapes match structurally and `cluster/up.ts` checks them where it wires the two): logs
 * derived from pod status (`log-lines.ts`), exec in a small shell over an in-memory
 * filesystem (`exec.ts`), no network for port-forward, and usage for the Metrics API
 * (`usage.ts`). Everything is computed from the objects the server passes in, on the
 * server's thread: nothing needs the kubelets' own thread. The annotations are in
 * `docs/kubelet-endpoints.md`.
 *
 * @module
 */
import type { Pod } from '../../api/model/index.js';
import type { Clock } from '../../util/clock.js';
import { SimulatedExec } from './exec.js';
import { containerLog } from './log-lines.js';
import { nodeUsage, podUsage } from './usage.js';

export { LOG_INTERVAL_ANNOTATION, LOG_LINES_ANNOTATION } from './log-lines.js';
export { CPU_USAGE_ANNOTATION, MEMORY_USAGE_ANNOTATION } from './usage.js';

/** Why a port of a simulated pod cannot be reached. */
export function portForwardRefusal(pod: Pod, port: number): string {
  const m = pod.metadata;
  return (
    `error forwarding port ${port} to pod ${m?.namespace}/${m?.name}: nothing listens on port ${port}: ` +
    'the pod runs on a simulated node and has no network (fleetyard docs/kubelet-endpoints.md)'
  );
}

/** The kubelet endpoints of the simulated nodes, on `clock` (timestamps, `date`, `sleep`). */
export function simulatedKubeletEndpoints(clock: Clock) {
  const exec = new SimulatedExec(clock);
  return {
    logs: { containerLog },
    streams: {
      exec: exec.exec.bind(exec),
      portForwardRefusal,
    },
    metrics: { podUsage, nodeUsage },
  };
}
