/**
 * The permanent storage reservation (docs/design/operator-api.md §2; docs/design/operator.md §2.4): read from the cache, created when
 * absent, and judged. Create is the arbitration point: two fleets (or two operators) racing
 * for one bucket both try to create the same name and exactly one wins; the loser reads the
 * winner's reservation (one uncached Get, only on that race) and is refused.
 *
 * @module
 */
import { asKind } from '../../api/model/index.js';
import { isAlreadyExists } from '../../client/api-client.js';
import { judgeReservation } from '../reservation/index.js';
import type { FleetDeps } from './deps.js';
import type { FleetObservation } from './observe.js';
import { type Outcome, outcome } from './outcome.js';
import { RESERVATIONS } from './resources.js';

/** Undefined when the bucket is this fleet's (after creating the reservation if needed). */
export async function ensureReservation(
  deps: FleetDeps,
  obs: FleetObservation,
): Promise<Outcome | undefined> {
  const fleet = obs.fleet;
  let judged = judgeReservation(obs.reservation, fleet);
  if (judged.kind === 'create') {
    const { object } = judged;
    try {
      await deps.client.create(RESERVATIONS, object);
      return undefined;
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      const existing = await deps.client.get({ ...RESERVATIONS, name: object.metadata.name });
      judged = judgeReservation(asKind(existing, 'CelldStorageReservation'), fleet);
    }
  }
  if (judged.kind === 'conflict') return outcome.blocked(judged.reason, judged.message);
  return undefined;
}
