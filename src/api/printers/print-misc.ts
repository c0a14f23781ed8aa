/**
 * Rows of Events (core/v1 and events.k8s.io/v1, which upstream serves from one storage and
 * prints with one `printEvent`), Leases, PodDisruptionBudgets, NetworkPolicies and the
 * autoscaling/v1 Scale.
 *
 * @module
 */
import type { KubeObject } from '../object.js';
import { ageOf, int, type Json, nameOf, obj, optObj, str } from './access.js';
import { GO_ZERO_TIME, humanDuration, parseRfc3339 } from './duration.js';
import { formatLabelSelector, intOrString } from './format.js';
import type { PrintedRow } from './types.js';

/** The fields printEvent reads, in core/v1 terms. */
interface EventView {
  readonly name: string;
  readonly type: string;
  readonly reason: string;
  readonly message: string;
  readonly involvedObject: Json;
  readonly source: Json;
  readonly firstTimestamp: unknown;
  readonly lastTimestamp: unknown;
  readonly eventTime: unknown;
  readonly count: number;
  readonly series: Json | undefined;
  readonly reportingController: string;
  readonly reportingInstance: string;
}

/** An events.k8s.io/v1 Event read as the core/v1 one it converts to. */
function eventView(e: KubeObject, eventsApi: boolean): EventView {
  const common = {
    name: nameOf(e),
    type: str(e.type),
    reason: str(e.reason),
    eventTime: e.eventTime,
    series: optObj(e.series),
  };
  if (eventsApi) {
    return {
      ...common,
      message: str(e.note),
      involvedObject: obj(e.regarding),
      source: obj(e.deprecatedSource),
      firstTimestamp: e.deprecatedFirstTimestamp,
      lastTimestamp: e.deprecatedLastTimestamp,
      count: int(e.deprecatedCount),
      reportingController: str(e.reportingController),
      reportingInstance: str(e.reportingInstance),
    };
  }
  return {
    ...common,
    message: str(e.message),
    involvedObject: obj(e.involvedObject),
    source: obj(e.source),
    firstTimestamp: e.firstTimestamp,
    lastTimestamp: e.lastTimestamp,
    count: int(e.count),
    reportingController: str(e.reportingComponent),
    reportingInstance: str(e.reportingInstance),
  };
}

/** Epoch ms of a (Micro)Time, or undefined when unset (Go's zero time). */
function timeOf(v: unknown): number | undefined {
  const t = typeof v === 'string' ? parseRfc3339(v) : undefined;
  return t === undefined || t === GO_ZERO_TIME ? undefined : t;
}

function since(t: number | undefined, now: Date): string {
  return t === undefined ? '<unknown>' : humanDuration(now.getTime() - t);
}

/** Upstream `formatEventSource`: `component, host`, falling back to the reporting fields. */
function eventSource(ev: EventView): string {
  const component = str(ev.source.component) || ev.reportingController;
  const host = str(ev.source.host) || ev.reportingInstance;
  return host === '' ? component : `${component}, ${host}`;
}

function printEventView(ev: EventView, now: Date): PrintedRow {
  const first = timeOf(ev.firstTimestamp) ?? timeOf(ev.eventTime);
  const firstSeen = since(first, now);
  let lastSeen =
    timeOf(ev.lastTimestamp) === undefined ? firstSeen : since(timeOf(ev.lastTimestamp), now);
  let count = ev.count;
  if (ev.series !== undefined) {
    lastSeen = since(timeOf(ev.series.lastObservedTime), now);
    count = int(ev.series.count);
  } else if (count === 0) {
    // Singleton events of the new API have no count.
    count = 1;
  }
  const kind = str(ev.involvedObject.kind).toLowerCase();
  const objName = str(ev.involvedObject.name);
  return {
    cells: [
      lastSeen,
      ev.type,
      ev.reason,
      objName === '' ? kind : `${kind}/${objName}`,
      str(ev.involvedObject.fieldPath),
      eventSource(ev),
      ev.message.trim(),
      firstSeen,
      count,
      ev.name,
    ],
  };
}

export function printCoreEvent(e: KubeObject, now: Date): PrintedRow {
  return printEventView(eventView(e, false), now);
}

export function printEventsApiEvent(e: KubeObject, now: Date): PrintedRow {
  return printEventView(eventView(e, true), now);
}

export function printLease(lease: KubeObject, now: Date): PrintedRow {
  return { cells: [nameOf(lease), str(obj(lease.spec).holderIdentity), ageOf(lease, now)] };
}

export function printPodDisruptionBudget(pdb: KubeObject, now: Date): PrintedRow {
  const spec = obj(pdb.spec);
  const orNA = (v: unknown) => (v === undefined || v === null ? 'N/A' : intOrString(v));
  return {
    cells: [
      nameOf(pdb),
      orNA(spec.minAvailable),
      orNA(spec.maxUnavailable),
      int(obj(pdb.status).disruptionsAllowed),
      ageOf(pdb, now),
    ],
  };
}

export function printNetworkPolicy(np: KubeObject, now: Date): PrintedRow {
  // podSelector is a struct, never nil: an absent one is `{}`, which selects everything.
  return {
    cells: [nameOf(np), formatLabelSelector(obj(obj(np.spec).podSelector)), ageOf(np, now)],
  };
}

export function printScale(scale: KubeObject, now: Date): PrintedRow {
  return {
    cells: [
      nameOf(scale),
      int(obj(scale.spec).replicas),
      int(obj(scale.status).replicas),
      ageOf(scale, now),
    ],
  };
}

/**
 * Upstream `printResourceQuota`: for each resource of `spec.hard`, sorted by name,
 * `name: used/hard` from the status (a resource the quota controller has not counted yet shows
 * `0`), joined by `, `; resources named `limits.<x>` go to the Limit column.
 */
export function printResourceQuota(quota: KubeObject, now: Date): PrintedRow {
  const hard = obj(obj(quota.spec).hard);
  const status = obj(quota.status);
  const request: string[] = [];
  const limit: string[] = [];
  for (const name of Object.keys(hard).sort()) {
    const pieces = name.split('.');
    const cell = `${name}: ${quantityOrZero(obj(status.used)[name])}/${quantityOrZero(obj(status.hard)[name])}`;
    (pieces.length > 1 && pieces[0] === 'limits' ? limit : request).push(cell);
  }
  return { cells: [nameOf(quota), ageOf(quota, now), request.join(', '), limit.join(', ')] };
}

function quantityOrZero(v: unknown): string {
  return typeof v === 'string' || typeof v === 'number' ? String(v) : '0';
}
