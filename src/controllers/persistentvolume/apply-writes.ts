/**
 * The thin write layer under the PV controller's pure plans: it turns a plan's `Writes` into
 * API calls in upstream's order (volume, volume status, claim, claim status; see
 * `claim-bind.ts`) and records its events. Every write carries the resourceVersion the plan
 * was made from, so a plan made from a stale cache fails with a Conflict and its key is
 * retried from fresher state instead of overwriting a newer object.
 *
 * @module
 */
import {
  asKind,
  type PersistentVolume,
  type PersistentVolumeClaim,
} from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import type { ApiClient } from '../../client/api-client.js';
import type { ObjectRef } from '../../client/resource-path.js';
import { objectKey } from '../../client/store.js';
import { RESOURCES } from '../../controller/context.js';
import type { EventRecorder } from '../../controller/events.js';
import type { OwnWrites } from '../../controller/own-writes.js';
import type { Writes } from './claim-bind.js';
import { nameOf, type PlannedEvent } from './volume-util.js';

/** The objects as the API server returned them after the writes. */
export interface Written {
  readonly volume?: PersistentVolume;
  readonly claim?: PersistentVolumeClaim;
}

function volumeRef(pv: PersistentVolume) {
  return { ...RESOURCES.persistentvolumes, name: nameOf(pv) };
}

function claimRef(claim: PersistentVolumeClaim) {
  return {
    ...RESOURCES.persistentvolumeclaims,
    namespace: claim.metadata?.namespace ?? '',
    name: nameOf(claim),
  };
}

/** Told of each write: the resourceVersion it replaced and the server's answer. */
type OnWritten = (from: string | undefined, written: KubeObject) => void;

async function writeObject(
  client: ApiClient,
  ref: ObjectRef,
  base: KubeObject,
  next: KubeObject | undefined,
  status: object | undefined,
  onWritten: OnWritten,
): Promise<KubeObject | undefined> {
  let current: KubeObject | undefined;
  if (next !== undefined) {
    current = await client.update(ref, next);
    onWritten(next.metadata?.resourceVersion, current);
  }
  if (status !== undefined) {
    // The status write builds on what the spec write returned (its newer resourceVersion).
    const from = current ?? base;
    current = await client.updateStatus(ref, { ...from, status });
    onWritten(from.metadata?.resourceVersion, current);
  }
  return current;
}

/**
 * The binder's own writes not yet echoed by its informers (`own-writes.ts`): a claim's second
 * sync, woken by the volume's event before the claim's own, plans from its written version
 * instead of earning a 409 (one per provisioned claim before).
 */
export interface BinderOwnWrites {
  readonly volumes: OwnWrites<PersistentVolume>;
  readonly claims: OwnWrites<PersistentVolumeClaim>;
}

/** Writes `writes` for `volume` and `claim` (either may be absent) in upstream's order. */
export async function applyWrites(
  client: ApiClient,
  writes: Writes,
  volume: PersistentVolume | undefined,
  claim: PersistentVolumeClaim | undefined,
  own: BinderOwnWrites,
): Promise<Written> {
  const out: { volume?: PersistentVolume; claim?: PersistentVolumeClaim } = {};
  const base = writes.volume ?? volume;
  if (base !== undefined) {
    const v = await writeObject(
      client,
      volumeRef(base),
      base,
      writes.volume,
      writes.volumeStatus,
      (from, written) =>
        own.volumes.record(objectKey(written), from, asKind(written, 'PersistentVolume')),
    );
    if (v !== undefined) out.volume = asKind(v, 'PersistentVolume');
  }
  const claimBase = writes.claim ?? claim;
  if (claimBase !== undefined) {
    const c = await writeObject(
      client,
      claimRef(claimBase),
      claimBase,
      writes.claim,
      writes.claimStatus,
      (from, written) =>
        own.claims.record(objectKey(written), from, asKind(written, 'PersistentVolumeClaim')),
    );
    if (c !== undefined) out.claim = asKind(c, 'PersistentVolumeClaim');
  }
  return out;
}

/** Records planned events on the claim or the volume they name (skipped when absent). */
export function recordEvents(
  recorder: EventRecorder,
  events: readonly PlannedEvent[],
  on: { readonly claim?: KubeObject | undefined; readonly volume?: KubeObject | undefined },
): void {
  for (const e of events) {
    const target = e.on === 'claim' ? on.claim : on.volume;
    if (target === undefined) continue;
    // Cached list items may lack their kind; the event's involvedObject needs it.
    const kind = e.on === 'claim' ? 'PersistentVolumeClaim' : 'PersistentVolume';
    recorder.event({ ...target, apiVersion: 'v1', kind }, e.type, e.reason, e.message);
  }
}
