/**
 * The `endpoints.kubernetes.io/last-change-trigger-time` bookkeeping, after upstream
 * `endpointsliceutil.TriggerTimeTracker`.
 *
 * A pod's trigger time is its Ready condition's `lastTransitionTime`; a Service's is its
 * `creationTimestamp`. Per Service the tracker remembers the trigger times it saw at the last
 * sync; the annotation is the earliest trigger time that moved since then (the oldest change
 * this write reflects), or the Service's creation time on its first sync. No moved trigger
 * means "no annotation": the caller removes it on its next write.
 *
 * @module
 */

import type { Pod, Service } from '../../api/model/index.js';
import { parseTime } from '../../api/time.js';

interface ServiceState {
  readonly pods: ReadonlyMap<string, number>;
  readonly service: number;
}

/** The pod's Ready condition's transition time (epoch ms), if it has one. */
export function podTriggerTime(pod: Pod): number | undefined {
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
  return ready === undefined ? undefined : parseTime(ready.lastTransitionTime);
}

/** Computes trigger times per Service key (`namespace/name`); one instance per controller. */
export class TriggerTimeTracker {
  readonly #states = new Map<string, ServiceState>();

  /**
   * Records the trigger times of `service` and its `pods` and returns the time to publish
   * (epoch ms), or undefined when no trigger moved since the last call for this key.
   */
  compute(key: string, service: Service, pods: readonly Pod[]): number | undefined {
    const before = this.#states.get(key);
    const podTimes = new Map<string, number>();
    let earliest: number | undefined;
    const moved = (t: number, last: number | undefined): void => {
      if (last !== undefined && t <= last) return;
      earliest = earliest === undefined ? t : Math.min(earliest, t);
    };
    for (const pod of pods) {
      const t = podTriggerTime(pod);
      if (t === undefined) continue;
      const name = pod.metadata?.name ?? '';
      podTimes.set(name, t);
      moved(t, before?.pods.get(name));
    }
    const serviceTime = parseTime(service.metadata?.creationTimestamp) ?? 0;
    moved(serviceTime, before?.service);
    this.#states.set(key, { pods: podTimes, service: serviceTime });
    return before === undefined ? serviceTime : earliest;
  }

  /** Forgets a deleted Service. */
  delete(key: string): void {
    this.#states.delete(key);
  }
}
