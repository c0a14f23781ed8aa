/**
 * What every run of the API-fault sweep must satisfy, as a list of violations (empty when the
 * run is correct):
 *
 * - it converged, with at most {@link MAX_RETRIES} failed reconciles (see `fault-run.ts`);
 * - every pod or claim delete the operator issued carried a uid AND a resourceVersion
 *   precondition;
 * - every delete it issued (any kind) is one the fault-free run of the phase also issued, by
 *   resource, name and incarnation (`initial`: the object existed when the phase began, `new`:
 *   it was created during the phase); a duplicate of an allowed delete is harmless, fenced;
 * - it never deleted, updated or patched a reservation; the reservation exists at the end,
 *   unchanged (uid, spec) when it existed at the start, and only one incarnation of it was
 *   ever seen;
 * - a claim the fault-free run did not replace kept its uid (one incarnation ever seen);
 * - while the fleet exists its uid is unchanged, its workload and prerequisites carry its
 *   fleet-uid label and controller reference, and its pods and claims its fleet-uid label;
 *   once deleted, no pod or claim of it remains.
 *
 * @module
 */
import { deepEqual, type KubeObject } from '../../../api/object.js';
import { RESOURCES } from '../../../controller/context.js';
import { LABEL_FLEET, LABEL_FLEET_UID } from '../../render/metadata.js';
import { isOurs } from '../children.js';
import { NETWORK_POLICIES, RESERVATIONS } from '../resources.js';
import type { Bench } from './fault-bench.js';
import type { RecordedCall } from './fault-client.js';
import { FLEET_NAME, type PhaseStart } from './fault-phases.js';
import { liveFleet, type RunRecord } from './fault-run.js';

/** The bound: a fault may cost at most this many failed reconciles. */
export const MAX_RETRIES = 8;
const FENCED = new Set(['pods', 'persistentvolumeclaims']);

/** `persistentvolumeclaims/data-orders-1#initial`: what a delete removed, by incarnation. */
export function deleteKey(call: RecordedCall, start: PhaseStart): string {
  const incarnation = call.uid !== undefined && start.uids.has(call.uid) ? 'initial' : 'new';
  return `${call.resource}/${call.name}#${incarnation}`;
}

export function deletesOf(record: RunRecord): RecordedCall[] {
  return record.calls.filter((c) => c.verb === 'delete');
}

/** The deletes of the fault-free run: the only ones a faulted run may issue. */
export function allowedDeletes(clean: RunRecord): Set<string> {
  return new Set(deletesOf(clean).map((c) => deleteKey(c, clean.start)));
}

export function deleteViolations(record: RunRecord, allowed: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const c of deletesOf(record)) {
    if (FENCED.has(c.resource) && !(c.preconditions?.uid && c.preconditions.resourceVersion))
      out.push(`unfenced delete ${c.resource}/${c.name} (#${c.index})`);
    const key = deleteKey(c, record.start);
    if (!allowed.has(key))
      out.push(`delete the fault-free run did not issue: ${key} (#${c.index})`);
  }
  for (const c of record.calls) {
    if (c.resource.startsWith(RESERVATIONS.plural) && c.verb !== 'create' && c.verb !== 'get')
      out.push(`reservation written: ${c.verb} ${c.name}`);
  }
  return out;
}

async function reservationViolations(
  bench: Bench,
  record: RunRecord,
  fleet: KubeObject | undefined,
): Promise<string[]> {
  const h = bench.harness;
  const name =
    record.start.reservation?.metadata?.name ??
    (fleet?.status as { reservation?: string } | undefined)?.reservation;
  if (!name) return ['no reservation named in the fleet status'];
  const live = await h.get({ ...RESERVATIONS, name });
  if (live === undefined) return [`reservation ${name} is gone`];
  const out: string[] = [];
  const seen = bench.incarnations.reservations.get(name)?.size ?? 0;
  if (seen !== 1) out.push(`reservation ${name} had ${seen} incarnations`);
  const before = record.start.reservation;
  if (before !== undefined) {
    if (live.metadata?.uid !== before.metadata?.uid) out.push(`reservation ${name} uid changed`);
    if (!deepEqual(live.spec, before.spec)) out.push(`reservation ${name} spec changed`);
  } else if ((live.spec as { fleetUID?: string }).fleetUID !== fleet?.metadata?.uid) {
    out.push(`reservation ${name} does not name the fleet's uid`);
  }
  return out;
}

function claimViolations(bench: Bench, record: RunRecord, allowed: ReadonlySet<string>): string[] {
  const replaced = new Set(
    [...allowed]
      .filter((k) => k.startsWith('persistentvolumeclaims/'))
      .map((k) => k.slice('persistentvolumeclaims/'.length).split('#')[0]),
  );
  const out: string[] = [];
  for (const [key, uids] of bench.incarnations.claims) {
    const [ns, name = ''] = key.split('/');
    if (ns !== record.namespace || replaced.has(name)) continue;
    if (uids.size > 1) out.push(`claim ${name} was recreated (${uids.size} incarnations)`);
  }
  return out;
}

async function ownershipViolations(
  bench: Bench,
  record: RunRecord,
  fleet: KubeObject,
): Promise<string[]> {
  const h = bench.harness;
  const uid = fleet.metadata?.uid ?? '';
  const out: string[] = [];
  if (record.start.fleetUid !== undefined && record.start.fleetUid !== uid)
    out.push('the fleet was recreated');
  const ns = record.namespace;
  const owned = [
    RESOURCES.statefulsets,
    RESOURCES.deployments,
    RESOURCES.services,
    RESOURCES.poddisruptionbudgets,
    NETWORK_POLICIES,
  ];
  for (const type of owned) {
    for (const o of await h.list({ ...type, namespace: ns })) {
      if (!isOurs(o, uid))
        out.push(`${type.plural}/${o.metadata?.name} lost its fleet label/owner`);
    }
  }
  for (const type of [RESOURCES.pods, RESOURCES.persistentvolumeclaims]) {
    for (const o of await h.list({ ...type, namespace: ns }, `${LABEL_FLEET}=${FLEET_NAME}`)) {
      if (o.metadata?.labels?.[LABEL_FLEET_UID] !== uid)
        out.push(`${type.plural}/${o.metadata?.name} lost its fleet-uid label`);
    }
  }
  for (const [name, claimUid] of record.start.claims) {
    const live = await h.get({ ...RESOURCES.persistentvolumeclaims, namespace: ns, name });
    const replaced = claimReplacedIn(record, name);
    if (!replaced && live?.metadata?.uid !== claimUid) out.push(`claim ${name} lost its uid`);
  }
  return out;
}

function claimReplacedIn(record: RunRecord, name: string): boolean {
  return deletesOf(record).some((c) => c.resource === 'persistentvolumeclaims' && c.name === name);
}

async function leftovers(bench: Bench, record: RunRecord): Promise<string[]> {
  const selector = `${LABEL_FLEET_UID}=${record.start.fleetUid ?? ''}`;
  const out: string[] = [];
  for (const type of [RESOURCES.pods, RESOURCES.persistentvolumeclaims]) {
    const left = await bench.harness.list({ ...type, namespace: record.namespace }, selector);
    if (left.length > 0) out.push(`${left.length} ${type.plural} left after the fleet was deleted`);
  }
  return out;
}

/** Every invariant of one run; `allowed` comes from the phase's fault-free run. */
export async function runViolations(
  bench: Bench,
  record: RunRecord,
  allowed: ReadonlySet<string>,
): Promise<string[]> {
  const out: string[] = [];
  if (!record.converged) out.push('did not converge');
  if (record.retries > MAX_RETRIES) out.push(`${record.retries} failed reconciles`);
  out.push(...deleteViolations(record, allowed));
  const fleet = await liveFleet(bench.harness, record.namespace);
  out.push(...(await reservationViolations(bench, record, fleet)));
  out.push(...claimViolations(bench, record, allowed));
  if (fleet !== undefined) out.push(...(await ownershipViolations(bench, record, fleet)));
  else out.push(...(await leftovers(bench, record)));
  return out;
}
