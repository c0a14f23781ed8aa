/**
 * The fields of the Clock object (`clocks.sim.fleetyard.dev/cluster`) that `fleetyard clock`
 * reads, taken from the API's answer one by one: a field of another type than the server
 * writes is left out (shown as `?`), so the command never trusts the answer's shape blindly.
 *
 * @module
 */
import { isJsonObject, type KubeObject } from '../api/object.js';

/** The Clock object's fields this command reads. */
export interface ClockView {
  readonly spec: {
    readonly speed?: string;
    readonly paused?: boolean;
    readonly runUntil?: string;
  };
  readonly status: {
    readonly time?: string;
    readonly mode?: string;
    readonly state?: string;
    readonly pendingTimers?: number;
    readonly nextTimer?: string;
    readonly quiescent?: boolean;
  };
}

/** The view of a Clock object as the API returned it. */
export function clockView(obj: KubeObject): ClockView {
  const spec = isJsonObject(obj.spec) ? obj.spec : {};
  const status = isJsonObject(obj.status) ? obj.status : {};
  return {
    spec: {
      ...stringField('speed', spec.speed),
      ...booleanField('paused', spec.paused),
      ...stringField('runUntil', spec.runUntil),
    },
    status: {
      ...stringField('time', status.time),
      ...stringField('mode', status.mode),
      ...stringField('state', status.state),
      ...(typeof status.pendingTimers === 'number' ? { pendingTimers: status.pendingTimers } : {}),
      ...stringField('nextTimer', status.nextTimer),
      ...booleanField('quiescent', status.quiescent),
    },
  };
}

function stringField<K extends string>(key: K, value: unknown): { [P in K]?: string } {
  const out: { [P in K]?: string } = {};
  if (typeof value === 'string') out[key] = value;
  return out;
}

function booleanField<K extends string>(key: K, value: unknown): { [P in K]?: boolean } {
  const out: { [P in K]?: boolean } = {};
  if (typeof value === 'boolean') out[key] = value;
  return out;
}
