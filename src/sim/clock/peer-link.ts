/**
 * The messages between the cluster clock (main thread) and its replica in the controller
 * thread, over a MessagePort of their own (so the clock does not depend on who else talks to
 * that thread). Structured-clone data only.
 *
 * - `fire`: time moved (a jump at speed `max`); fire what is due, then clear `tickPending`.
 * - `rebase`: the rate changed; re-arm the wall timer of the earliest timer.
 * - `turn`/`took` (serial runs, `turns.ts`): take one turn; what ran, once it has started.
 * - `ping`/`pong`: a round trip. The replica answers when its event loop reaches the message,
 *   so everything it was doing when the ping was sent has taken its holds by the pong.
 *
 * @module
 */

import type { TurnTaken } from './turns.js';

export type ToReplica =
  | { readonly t: 'fire' }
  | { readonly t: 'turn'; readonly id: number }
  | { readonly t: 'rebase' }
  | { readonly t: 'ping'; readonly id: number };

export type FromReplica =
  | { readonly t: 'pong'; readonly id: number }
  | { readonly t: 'took'; readonly id: number; readonly ran: TurnTaken };
