/**
 * Runs one controller only while it holds a Lease, inside a manager that runs others
 * unconditionally: `fleetyard up` holds the celld operator's Lease the way a real cluster's
 * operator Deployment does, so a standalone `fleetyard operator` pointed at the same server
 * stands by instead of reconciling the same fleets twice. A lost Lease stops the controller
 * and it campaigns again (a process of its own would exit and be restarted instead).
 *
 * @module
 */
import { hostname } from 'node:os';
import { uuidFrom } from '../util/seeded-random.js';
import type { ControllerContext, ControllerDefinition } from './context.js';
import { runLeaderElection } from './leader-election.js';

export interface LeaseRef {
  readonly name: string;
  readonly namespace: string;
}

export function leaderElected(def: ControllerDefinition, lease: LeaseRef): ControllerDefinition {
  const elected: ControllerDefinition = {
    name: def.name,
    start: async (ctx: ControllerContext) => {
      // From the controller's random stream: the same identity on every run under `--seed`.
      const identity = `${hostname()}_${uuidFrom(ctx.random)}`;
      while (!ctx.signal.aborted) {
        await runLeaderElection({
          client: ctx.client,
          clock: ctx.clock,
          log: ctx.log,
          name: lease.name,
          namespace: lease.namespace,
          identity,
          releaseOnCancel: true,
          signal: ctx.signal,
          random: ctx.random,
          onStartedLeading: (leading) => def.start({ ...ctx, signal: leading }),
        });
      }
    },
  };
  if (def.agent !== undefined) Object.assign(elected, { agent: def.agent });
  if (def.registerMetrics !== undefined) {
    const register = def.registerMetrics.bind(def);
    Object.assign(elected, { registerMetrics: register });
  }
  return elected;
}
