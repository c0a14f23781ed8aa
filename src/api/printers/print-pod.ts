/**
 * The pod row, as upstream `printPod`: `READY` counts ready containers (restartable init
 * containers, i.e. sidecars, included), `STATUS` is the phase refined by the first failing
 * or waiting init container (`Init:1/3`, `Init:CrashLoopBackOff`, `Init:ExitCode:1`), then by
 * the containers (`CrashLoopBackOff`, `Completed`, `Signal:9`), `Terminating` while
 * deleting; `RESTARTS` is `2 (5m ago)` once a container has restarted.
 *
 * @module
 */
import type { KubeObject } from '../object.js';
import {
  ageOf,
  bool,
  int,
  isDeleting,
  type Json,
  nameOf,
  obj,
  objs,
  optObj,
  str,
} from './access.js';
import { GO_ZERO_TIME, humanDuration, parseRfc3339 } from './duration.js';
import type { PrintedRow, TableRowCondition } from './types.js';

const SUCCEEDED: readonly TableRowCondition[] = [
  {
    type: 'Completed',
    status: 'True',
    reason: 'Succeeded',
    message: 'The pod has completed successfully.',
  },
];
const FAILED: readonly TableRowCondition[] = [
  { type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' },
];

/** Upstream `node.NodeUnreachablePodReason`. */
const NODE_LOST = 'NodeLost';

/** A restart time: epoch ms, Go's zero time when unset. */
function finishedAt(status: Json): number {
  const terminated = optObj(obj(status.lastState).terminated);
  if (terminated === undefined) return GO_ZERO_TIME;
  const v = terminated.finishedAt;
  return (typeof v === 'string' ? parseRfc3339(v) : undefined) ?? GO_ZERO_TIME;
}

function isRestartable(container: Json | undefined): boolean {
  return container !== undefined && container.restartPolicy === 'Always';
}

function conditionStatus(podStatus: Json, type: string): string | undefined {
  const c = objs(podStatus.conditions).find((x) => x.type === type);
  return c === undefined ? undefined : str(c.status);
}

/** The exit reason of a terminated container without one: `Signal:9` or `ExitCode:1`. */
function exitText(terminated: Json): string {
  const signal = int(terminated.signal);
  return signal !== 0 ? `Signal:${signal}` : `ExitCode:${int(terminated.exitCode)}`;
}

interface Tally {
  reason: string;
  restarts: number;
  lastRestart: number;
  ready: number;
  total: number;
}

/** The init-container pass; returns whether the pod is still initializing. */
interface Restarts {
  restarts: number;
  lastRestart: number;
}

function addRestarts(r: Restarts, cs: Json): void {
  r.restarts += int(cs.restartCount);
  const finished = finishedAt(cs);
  if (r.lastRestart < finished) r.lastRestart = finished;
}

/** A started sidecar: counted like an app container, then the next init container is looked at. */
const STARTED_SIDECAR: unique symbol = Symbol('started sidecar');

/**
 * What one init container status says: `undefined` to go on to the next (it completed),
 * {@link STARTED_SIDECAR}, else the pod's reason while it initializes.
 */
function initContainerReason(
  cs: Json,
  index: number,
  total: number,
  sidecar: boolean,
): string | typeof STARTED_SIDECAR | undefined {
  const state = obj(cs.state);
  const terminated = optObj(state.terminated);
  const waiting = optObj(state.waiting);
  if (terminated !== undefined && int(terminated.exitCode) === 0) return undefined;
  if (sidecar && cs.started === true) return STARTED_SIDECAR;
  if (terminated !== undefined) {
    const reason = str(terminated.reason);
    return reason === '' ? `Init:${exitText(terminated)}` : `Init:${reason}`;
  }
  if (waiting !== undefined && str(waiting.reason) !== '' && waiting.reason !== 'PodInitializing') {
    return `Init:${str(waiting.reason)}`;
  }
  return `Init:${index}/${total}`;
}

/** The init-container pass; returns whether the pod is still initializing. */
function tallyInitContainers(
  spec: Json,
  status: Json,
  t: Tally,
): { initializing: boolean; restartable: Restarts } {
  const specInit = objs(spec.initContainers);
  const byName = new Map(specInit.map((c) => [str(c.name), c]));
  const restartable: Restarts = { restarts: 0, lastRestart: GO_ZERO_TIME };
  for (const c of specInit) if (isRestartable(c)) t.total++;
  for (const [i, cs] of objs(status.initContainerStatuses).entries()) {
    addRestarts(t, cs);
    const sidecar = isRestartable(byName.get(str(cs.name)));
    if (sidecar) addRestarts(restartable, cs);
    const reason = initContainerReason(cs, i, specInit.length, sidecar);
    if (reason === STARTED_SIDECAR) {
      if (bool(cs.ready)) t.ready++;
    } else if (reason !== undefined) {
      t.reason = reason;
      return { initializing: true, restartable };
    }
  }
  return { initializing: false, restartable };
}

function tallyContainers(status: Json, t: Tally): void {
  let hasRunning = false;
  const statuses = objs(status.containerStatuses);
  for (let i = statuses.length - 1; i >= 0; i--) {
    const cs = statuses[i];
    if (cs === undefined) continue;
    addRestarts(t, cs);
    const state = obj(cs.state);
    const waiting = optObj(state.waiting);
    const terminated = optObj(state.terminated);
    if (waiting !== undefined && str(waiting.reason) !== '') t.reason = str(waiting.reason);
    else if (terminated !== undefined && str(terminated.reason) !== '')
      t.reason = str(terminated.reason);
    else if (terminated !== undefined) t.reason = exitText(terminated);
    else if (bool(cs.ready) && optObj(state.running) !== undefined) {
      hasRunning = true;
      t.ready++;
    }
  }
  // A pod whose last container completed but another still runs is not "Completed".
  if (t.reason === 'Completed' && hasRunning) {
    t.reason = conditionStatus(status, 'Ready') === 'True' ? 'Running' : 'NotReady';
  }
}

function podStatusReason(pod: KubeObject, spec: Json, status: Json): Tally {
  const phase = str(status.phase);
  const t: Tally = {
    reason: str(status.reason) !== '' ? str(status.reason) : phase,
    restarts: 0,
    lastRestart: GO_ZERO_TIME,
    ready: 0,
    total: objs(spec.containers).length,
  };
  for (const c of objs(status.conditions)) {
    if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') t.reason = 'SchedulingGated';
  }
  const { initializing, restartable } = tallyInitContainers(spec, status, t);
  if (!initializing || conditionStatus(status, 'Initialized') === 'True') {
    t.restarts = restartable.restarts;
    t.lastRestart = restartable.lastRestart;
    tallyContainers(status, t);
  }
  if (isDeleting(pod) && status.reason === NODE_LOST) t.reason = 'Unknown';
  else if (isDeleting(pod) && phase !== 'Failed' && phase !== 'Succeeded') t.reason = 'Terminating';
  return t;
}

function readinessGates(spec: Json, status: Json): string {
  const gates = objs(spec.readinessGates);
  if (gates.length === 0) return '<none>';
  const conditions = objs(status.conditions);
  let trueCount = 0;
  for (const gate of gates) {
    const c = conditions.find((x) => x.type === str(gate.conditionType));
    if (c?.status === 'True') trueCount++;
  }
  return `${trueCount}/${gates.length}`;
}

function orNone(s: string): string {
  return s === '' ? '<none>' : s;
}

export function printPod(pod: KubeObject, now: Date): PrintedRow {
  const spec = obj(pod.spec);
  const status = obj(pod.status);
  const t = podStatusReason(pod, spec, status);
  let restarts = String(t.restarts);
  if (t.restarts !== 0 && t.lastRestart !== GO_ZERO_TIME) {
    restarts = `${t.restarts} (${humanDuration(now.getTime() - t.lastRestart)} ago)`;
  }
  const podIP = str(objs(status.podIPs)[0]?.ip);
  const cells = [
    nameOf(pod),
    `${t.ready}/${t.total}`,
    t.reason,
    restarts,
    ageOf(pod, now),
    orNone(podIP),
    orNone(str(spec.nodeName)),
    orNone(str(status.nominatedNodeName)),
    readinessGates(spec, status),
  ];
  const phase = str(status.phase);
  if (phase === 'Succeeded') return { cells, conditions: SUCCEEDED };
  if (phase === 'Failed') return { cells, conditions: FAILED };
  return { cells };
}
