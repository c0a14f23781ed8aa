/**
 * The permanent storage reservation (§1.2, §2.2 step 11): read from the cache, created when
 * absent, and judged. Create is the arbitration point: two fleets (or two operators) racing
 * for one bucket both try to create the same name and exactly one wins; the loser reads the
 * winner's reservation (one uncached Get, only on that race) and is refused.
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import { isAlreadyExists } from '../../client/api-client.js';
import {
  judgeReservation,
  type ReservationFleet,
  type StorageReservation,
} from '../reservation/index.js';
import type { FleetDeps } from './deps.js';
import type { FleetObservation } from './observe.js';
import { type Outcome, outcome } from './outcome.js';
import { RESERVATIONS } from './resources.js';

/** Undefined when the bucket is this fleet's (after creating the reservation if needed). */
export async function ensureReservation(
  deps: FleetDeps,
  obs: FleetObservation,
): Promise<Outcome | undefined> {
  const fleet = obs.fleet as unknown as ReservationFleet;
  let judged = judgeReservation(obs.reservation as StorageReservation | undefined, fleet);
  if (judged.kind === 'create') {
    try {
      await deps.client.create(RESERVATIONS, judged.object as KubeObject);
      return undefined;
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      const existing = await deps.client.get<KubeObject>({
        ...RESERVATIONS,
        name: judged.object.metadata.name,
      });
      judged = judgeReservation(existing as StorageReservation, fleet);
    }
  }
  if (judged.kind === 'conflict') return outcome.blocked(judged.reason, judged.message);
  return undefined;
}
