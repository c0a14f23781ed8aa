/**
 * What a fleet reconcile works with: the write client, the cache listers, the clock, the
 * event recorder and the process settings. Built once by the controller (`fleet-controller.ts`)
 * and handed to every step, so a step is a function of `(deps, observation)` and tests can
 * build one over a test server.
 *
 * @module
 */
import type { CelldFleet } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import type { ApiClient } from '../../client/api-client.js';
import type { EventRecorder } from '../../controller/events.js';
import type { OwnWrites } from '../../controller/own-writes.js';
import type { Clock } from '../../util/clock.js';
import type { RenderOptions } from '../render/fleet-view.js';
import type { FleetMetrics } from './fleet-metrics.js';
import type { FleetListers } from './observe.js';

export interface FleetDeps {
  readonly client: Pick<
    ApiClient,
    'create' | 'update' | 'updateStatus' | 'patch' | 'delete' | 'get'
  >;
  readonly listers: FleetListers;
  readonly clock: Clock;
  readonly recorder: EventRecorder;
  readonly render: RenderOptions;
  readonly networkPolicyEnforced: boolean;
  readonly localTest: boolean;
  readonly memberReplacementDelayMs?: number;
  readonly metrics?: FleetMetrics;
  readonly log?: { info(fields: Record<string, unknown>, msg: string): void };
  /** The fleets this operator wrote, until its fleet cache has them (read-your-own-writes). */
  readonly ownWrites: OwnWrites<CelldFleet>;
}

/** The fleet's `metadata.namespace`/`name`. */
export function fleetName(fleet: KubeObject): { namespace: string; name: string } {
  return { namespace: fleet.metadata?.namespace ?? '', name: fleet.metadata?.name ?? '' };
}
