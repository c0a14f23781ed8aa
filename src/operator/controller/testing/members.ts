/**
 * Member manipulations the timing tests share: replace a member's pod with one the simulated
 * kubelet keeps unready (so its claim is older than its pod, as after any restart), and read
 * the times a rule is measured from off the live objects rather than the operator's status,
 * so the tests check the operator against the cluster and not against itself.
 *
 * @module
 */
import type { KubeObject } from '../../../api/object.js';
import { RESOURCES } from '../../../controller/context.js';
import {
  condition,
  type FleetCluster,
  isPodReady,
  msOf,
  NAMESPACE,
  podName,
} from './fake-cluster.js';

/** A pod delete plus successor takes a few seconds of fake time; 60 s is generous. */
const SUCCESSOR_WITHIN_MS = 60_000;

export function uidOf(obj: KubeObject | undefined): string | undefined {
  return obj?.metadata?.uid;
}

/**
 * Deletes member `ordinal`'s pod and marks its successor `sim.fleetyard.dev/ready: "false"`;
 * returns the successor once it reports Ready=False. Its claim is kept, so the claim is as old
 * as the fleet while the pod is new: the docs/design/operator.md §6.4 "claim created > 1 min before
 * its pod" case.
 */
export async function recreateUnready(c: FleetCluster, ordinal: number): Promise<KubeObject> {
  const old = await c.pod(ordinal);
  const oldUid = uidOf(old);
  if (oldUid === undefined) throw new Error(`member ${ordinal} has no pod`);
  await c.h.client.delete(
    { ...RESOURCES.pods, namespace: NAMESPACE, name: podName(ordinal) },
    { preconditions: { uid: oldUid } },
  );
  await c.driveUntil(
    `successor of ${podName(ordinal)}`,
    async () => {
      const p = await c.pod(ordinal);
      return p !== undefined && uidOf(p) !== oldUid && !p.metadata?.deletionTimestamp;
    },
    SUCCESSOR_WITHIN_MS,
  );
  await c.setPodReady(ordinal, false);
  return c.driveUntil(
    `${podName(ordinal)} unready`,
    async () => {
      const p = await c.pod(ordinal);
      return uidOf(p) !== oldUid && condition(p, 'Ready')?.status === 'False' && p;
    },
    SUCCESSOR_WITHIN_MS,
  );
}

/** When the pod's Ready condition last changed (its down or ready start). */
export function readyTransition(pod: KubeObject | undefined): number {
  return msOf(condition(pod, 'Ready')?.lastTransitionTime);
}

/** The latest Ready start among the other members: they are "Ready ≥ 5 min" 5 min after it. */
export async function lastReadySince(
  c: FleetCluster,
  ordinals: readonly number[],
): Promise<number> {
  let latest = 0;
  for (const o of ordinals) {
    const p = await c.pod(o);
    if (!isPodReady(p)) throw new Error(`member ${o} is not Ready`);
    latest = Math.max(latest, readyTransition(p));
  }
  return latest;
}

/** Drives to exactly `at` (a no-op when the clock is there already). */
export async function driveTo(c: FleetCluster, at: number): Promise<void> {
  const left = at - c.clock.now();
  if (left > 0) await c.drive(left);
}
