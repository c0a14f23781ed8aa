/**
 * Kubernetes Events for the store's write outages: a Warning when the disk refused writes
 * (reason `StorageFull`, or `StorageUnwritable` for a read-only or failing disk) and a Normal
 * `StorageWritable` when writes resumed, in the `default` namespace about the `kube-system`
 * Namespace (the control plane's), from component `fleetyard-storage`.
 *
 * Both are written when writes resume, the Warning with the outage's start as its timestamps:
 * an Event is a write, and the store refuses writes for as long as the outage lasts, so it is
 * kept in memory until then (a crash during the outage loses it; `/readyz`, the
 * `fleetyard_storage_writable` gauge and the failed writes' own errors tell the story live).
 * Best effort: a failed Event write is dropped.
 *
 * @module
 */
import { hostname } from 'node:os';
import { coreEventResource } from '../../api/kinds/events.js';
import type { KubeObject } from '../../api/object.js';
import { formatTime } from '../../api/time.js';
import type { Backend, StorageHealth } from '../../storage/backend.js';

const COMPONENT = 'fleetyard-storage';

/** What the reporter writes through (the object store's create). */
export type EventCreate = (
  def: typeof coreEventResource,
  namespace: string,
  obj: KubeObject,
) => Promise<unknown>;

function event(
  random: () => number,
  type: 'Warning' | 'Normal',
  reason: string,
  message: string,
  first: number,
  last: number,
): KubeObject {
  const nanos = BigInt(last) * 1_000_000n + BigInt(Math.floor(random() * 1e6));
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `kube-system.${nanos.toString(16)}`, namespace: 'default' },
    involvedObject: { apiVersion: 'v1', kind: 'Namespace', name: 'kube-system' },
    reason,
    message,
    type,
    source: { component: COMPONENT, host: hostname() },
    firstTimestamp: formatTime(first),
    lastTimestamp: formatTime(last),
    count: 1,
    reportingComponent: COMPONENT,
    reportingInstance: hostname(),
  };
}

/**
 * Watches `backend`'s health and writes the Events of each outage once it ends. `random`
 * (the server's one source) makes the names' sub-millisecond part, as client-go's nanoseconds.
 * @returns the function that stops watching
 */
export function reportStorageHealth(
  backend: Backend,
  create: EventCreate,
  random: () => number,
): () => void {
  let outage: StorageHealth | undefined;
  return backend.onHealthChange((health) => {
    if (health.state === 'unwritable') {
      outage = health;
      return;
    }
    if (health.state !== 'ok' || outage === undefined) return;
    const began = outage;
    outage = undefined;
    const full = began.error?.code === 'NoSpace';
    const seconds = Math.max(0, Math.round((health.since - began.since) / 1000));
    const warning = event(
      random,
      'Warning',
      full ? 'StorageFull' : 'StorageUnwritable',
      began.error?.message ?? 'storage: writes refused',
      began.since,
      began.since,
    );
    const normal = event(
      random,
      'Normal',
      'StorageWritable',
      `storage: writes resumed after ${seconds} s`,
      health.since,
      health.since,
    );
    create(coreEventResource, 'default', warning)
      .then(() => create(coreEventResource, 'default', normal))
      .catch(() => {
        // Best effort: the outage is over, and a failed Event write must not be a new one.
      });
  });
}
