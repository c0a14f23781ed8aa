/**
 * The cluster clock as an API object: `clocks.sim.fleetyard.dev/cluster`, a cluster-scoped
 * singleton that is never stored. Every read computes it from the {@link ClockControl} the
 * API server was given (`ApiServerOptions.clockControl`), and a write of its `spec` drives
 * that control (`handlers/clock.ts`), so `kubectl` and `fleetyard clock` see and steer the
 * same clock as the test harness:
 *
 * ```yaml
 * apiVersion: sim.fleetyard.dev/v1alpha1
 * kind: Clock
 * metadata: {name: cluster, creationTimestamp: <server start, virtual time>, resourceVersion: "1"}
 * spec:   {speed: "1", paused: false, runUntil: 2026-01-01T00:15:00.000Z}
 * status: {time: 2026-01-01T00:10:00.000Z, mode: virtual, state: Advancing, pendingTimers: 12,
 *          nextTimer: 2026-01-01T00:10:05.000Z, quiescent: false}
 * ```
 *
 * It is kept out of the resource registry on purpose: the registry's kinds are stored ones
 * (the namespace and CRD controllers, the OpenAPI documents and the object store all walk
 * it), while this one has no storage, no watch and its own verbs (get, list, patch, update).
 *
 * @module
 */
import { type FieldError, fieldErrors } from '../api/field-error.js';
import { isJsonObject, type KubeObject } from '../api/object.js';
import { parseRfc3339 } from '../api/printers/duration.js';
import type { ResourceDefinition } from '../api/resource.js';
import { formatTime } from '../api/time.js';
import {
  type ClockControl,
  type ClockStatus,
  parseSpeed,
  type Speed,
} from '../util/clock-control.js';
import type { ExtraResource } from './handlers/discovery.js';

export const CLOCK_GROUP = 'sim.fleetyard.dev';
export const CLOCK_VERSION = 'v1alpha1';
export const CLOCK_NAME = 'cluster';
/** The object never changes identity and is never stored: one version forever. */
export const CLOCK_RESOURCE_VERSION = '1';
/** What the resource serves; no watch (nothing to stream) and no create or delete (a singleton). */
export const CLOCK_VERBS: readonly string[] = ['get', 'list', 'patch', 'update'];

/**
 * Its names, in the shape handlers and printers take. Not registered: see the module comment.
 * The strategy is empty because nothing of the generic write path runs for it.
 */
export const CLOCK_DEFINITION: ResourceDefinition = {
  group: CLOCK_GROUP,
  version: CLOCK_VERSION,
  kind: 'Clock',
  listKind: 'ClockList',
  plural: 'clocks',
  singular: 'clock',
  namespaced: false,
  nameValidation: 'dns-subdomain',
  generation: 'none',
  statusSubresource: false,
  strategy: {},
};

/** Its discovery entry (`kubectl api-resources`: `clocks  sim.fleetyard.dev/v1alpha1  false  Clock`). */
export const CLOCK_DISCOVERY: ExtraResource = {
  group: CLOCK_GROUP,
  version: CLOCK_VERSION,
  kind: CLOCK_DEFINITION.kind,
  plural: CLOCK_DEFINITION.plural,
  singular: CLOCK_DEFINITION.singular,
  namespaced: false,
  verbs: CLOCK_VERBS,
};

const API_VERSION = `${CLOCK_GROUP}/${CLOCK_VERSION}`;

/** The clock an API server serves, and the object's creationTimestamp. */
export interface ServedClock {
  readonly control: ClockControl;
  /** The clock's time when the server was built (ms): when the object "was created". */
  readonly startedAt: number;
  /** Receives a run-until that failed (it runs after the request that started it answered). */
  readonly onError?: (message: string, error: unknown) => void;
}

/** Call once, when the server is built: the current time becomes the creationTimestamp. */
export function serveClock(
  control: ClockControl,
  onError?: (message: string, error: unknown) => void,
): ServedClock {
  return { control, startedAt: control.status().now, ...(onError ? { onError } : {}) };
}

/** RFC 3339 with milliseconds (`2026-01-01T00:15:00.000Z`): virtual time moves in ms steps. */
export function formatClockTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** A speed as `spec.speed` writes it: `max`, or the number's shortest decimal (`0.5`). */
export function formatSpeed(speed: Speed): string {
  return speed === 'max' ? 'max' : String(speed);
}

/** The Clock object for `status` (a fresh `control.status()` unless given). */
export function clockObject(served: ServedClock, status = served.control.status()): KubeObject {
  return {
    apiVersion: API_VERSION,
    kind: CLOCK_DEFINITION.kind,
    metadata: {
      name: CLOCK_NAME,
      resourceVersion: CLOCK_RESOURCE_VERSION,
      creationTimestamp: formatTime(served.startedAt),
    },
    spec: {
      speed: formatSpeed(status.speed),
      paused: status.paused,
      ...(status.runUntil !== undefined ? { runUntil: formatClockTime(status.runUntil) } : {}),
    },
    status: {
      time: formatClockTime(status.now),
      mode: status.mode,
      state: status.state,
      pendingTimers: status.pendingTimers,
      ...(status.nextTimer !== undefined ? { nextTimer: formatClockTime(status.nextTimer) } : {}),
      quiescent: status.quiescent,
    },
  };
}

/** The ClockList of a LIST: the one object, when it matches the request's selectors. */
export function clockList(items: readonly KubeObject[]): object {
  return {
    apiVersion: API_VERSION,
    kind: CLOCK_DEFINITION.listKind,
    metadata: { resourceVersion: CLOCK_RESOURCE_VERSION },
    items,
  };
}

/** A written `spec`, decoded. */
export interface ClockSpec {
  readonly speed: Speed;
  readonly paused: boolean;
  /** The run-until target (ms); undefined: none (a running one is cancelled). */
  readonly runUntil: number | undefined;
}

/** The fields of `spec`; anything else in it is an unknown field. */
export const SPEC_FIELDS = ['speed', 'paused', 'runUntil'] as const;

const SPEED_DETAIL = 'must be a number >= 0 or "max"';
const TIME_DETAIL = 'must be an RFC 3339 time, e.g. 2026-01-01T00:15:00Z';

/**
 * Decodes the `spec` of a written object: `speed` is required (a string, or a plain number
 * for convenience), `paused` defaults to false, `runUntil` is optional (null or "" is none).
 */
export function readClockSpec(spec: unknown): { spec?: ClockSpec; errors: FieldError[] } {
  if (spec === undefined || spec === null) {
    return { errors: [fieldErrors.required('spec.speed')] };
  }
  if (!isJsonObject(spec)) {
    return { errors: [fieldErrors.invalid('spec', spec, 'must be an object')] };
  }
  const errors: FieldError[] = [];
  const speed = readSpeed(spec.speed, errors);
  let paused = false;
  if (typeof spec.paused === 'boolean') paused = spec.paused;
  else if (spec.paused !== undefined && spec.paused !== null) {
    errors.push(fieldErrors.invalid('spec.paused', spec.paused, 'must be a boolean'));
  }
  let runUntil: number | undefined;
  if (typeof spec.runUntil === 'string' && spec.runUntil !== '') {
    runUntil = parseRfc3339(spec.runUntil);
    if (runUntil === undefined) {
      errors.push(fieldErrors.invalid('spec.runUntil', spec.runUntil, TIME_DETAIL));
    }
  } else if (spec.runUntil !== undefined && spec.runUntil !== null && spec.runUntil !== '') {
    errors.push(fieldErrors.invalid('spec.runUntil', spec.runUntil, TIME_DETAIL));
  }
  if (errors.length > 0 || speed === undefined) return { errors };
  return { spec: { speed, paused, runUntil }, errors };
}

function readSpeed(value: unknown, errors: FieldError[]): Speed | undefined {
  if (value === undefined || value === null) {
    errors.push(fieldErrors.required('spec.speed'));
    return undefined;
  }
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  if (typeof value === 'string') {
    try {
      return parseSpeed(value);
    } catch {
      // Reported below, in the API's words rather than the parser's.
    }
  }
  errors.push(fieldErrors.invalid('spec.speed', value, SPEED_DETAIL));
  return undefined;
}

/** Which fields of `spec` differ from what the clock does now. */
export interface SpecChange {
  readonly speed: boolean;
  readonly paused: boolean;
  readonly runUntil: boolean;
}

export function specChange(spec: ClockSpec, status: ClockStatus): SpecChange {
  return {
    speed: spec.speed !== status.speed,
    paused: spec.paused !== status.paused,
    runUntil: spec.runUntil !== status.runUntil,
  };
}

/** Upstream's field.Forbidden text for a clock that cannot be driven. */
export const REAL_CLOCK_DETAIL =
  'the cluster runs on the wall clock (fleetyard up --clock real): its speed cannot change';

/**
 * What forbids applying `spec` now: any change on a real clock, or a new run-until target
 * before the clock's time (time never runs backwards).
 */
export function specProblems(spec: ClockSpec, status: ClockStatus): FieldError[] {
  const change = specChange(spec, status);
  if (status.mode === 'real') {
    return SPEC_FIELDS.filter((f) => change[f]).map((f) =>
      fieldErrors.forbidden(`spec.${f}`, REAL_CLOCK_DETAIL),
    );
  }
  if (change.runUntil && spec.runUntil !== undefined && spec.runUntil < status.now) {
    return [
      fieldErrors.invalid(
        'spec.runUntil',
        formatClockTime(spec.runUntil),
        `must not be before status.time (${formatClockTime(status.now)})`,
      ),
    ];
  }
  return [];
}

/**
 * Drives the clock to `spec` (already checked by {@link specProblems}). A run-until is started,
 * not awaited: the request answers at once and clients poll `status`. Its promise only
 * resolves, but a failure must not become an unhandled rejection (which ends the process), so
 * it goes to `onError`.
 */
export function applyClockSpec(
  control: ClockControl,
  spec: ClockSpec,
  onError: (error: unknown) => void,
): void {
  const change = specChange(spec, control.status());
  if (change.speed) control.setSpeed(spec.speed);
  if (change.paused) control.setPaused(spec.paused);
  if (change.runUntil) control.runUntil(spec.runUntil).catch(onError);
}

/** The status a dry run answers with: the current one as if `spec` had been applied. */
export function dryRunStatus(spec: ClockSpec, status: ClockStatus): ClockStatus {
  const advancing = spec.runUntil !== undefined && spec.runUntil > status.now;
  const stopped = spec.paused || spec.speed === 0;
  const { runUntil: _previous, ...rest } = status;
  return {
    ...rest,
    speed: spec.speed,
    paused: spec.paused,
    state: advancing ? 'Advancing' : stopped ? 'Paused' : 'Running',
    ...(advancing ? { runUntil: spec.runUntil } : {}),
  };
}
