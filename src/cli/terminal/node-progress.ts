/**
 * `fleetyard up --nodes 250` on a terminal: `registering nodes ▕████░░░░▏ 87/250` under the
 * banner until every simulated node has its Node object, then the line is erased.
 *
 * `up` is ready (the API serves) before the kubelet controller, in the controller thread,
 * has registered its nodes: 250 took 7 s after `ready` on a loaded 2-core machine. The
 * main thread sees them land in its store: `up` hands out a {@link NodeRegistration} reading that count
 * (a prefix count of the in-memory index, microseconds), and this polls it every 100 ms
 * while it matters. Nothing is shown when stderr is not a terminal.
 *
 * @module
 */
import type { ProgressLine, ProgressState } from './progress-line.js';

/** The simulated nodes `up` registers, as `RunningCluster.nodes` (src/cluster/up.ts) gives them. */
export interface NodeRegistration {
  /** Nodes the kubelet controller registers (0 when it does not run). */
  readonly expected: number;
  /** Node objects stored now. */
  registered(): number;
}

/** How often the count is read and the line redrawn: 10 a second looks smooth, costs nothing. */
export const NODE_PROGRESS_INTERVAL_MS = 100;

/** The line for `registered` of `expected` nodes; undefined once they are all there. */
export function nodeProgressState(registered: number, expected: number): ProgressState | undefined {
  if (registered >= expected) return undefined;
  return { label: 'registering nodes', done: registered, total: expected };
}

/** Calls `tick` every `ms` until the returned function is called. */
export type Every = (tick: () => void, ms: number) => () => void;

/** setInterval, unref'd: a progress line never keeps the process alive. */
export const every: Every = (tick, ms) => {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
};

/**
 * Shows the registration on `line` until it is complete or the returned stop is called
 * (on shutdown); either way the line is erased. Nothing at all when every node is there.
 */
export function followNodeRegistration(
  nodes: NodeRegistration,
  line: ProgressLine,
  schedule: Every = every,
): () => void {
  let stopTimer: (() => void) | undefined;
  let stopped = false;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    stopTimer?.();
    line.end();
  };
  const tick = (): void => {
    const state = nodeProgressState(nodes.registered(), nodes.expected);
    if (state === undefined) stop();
    else line.show(state);
  };
  tick();
  if (!stopped) stopTimer = schedule(tick, NODE_PROGRESS_INTERVAL_MS);
  return stop;
}
