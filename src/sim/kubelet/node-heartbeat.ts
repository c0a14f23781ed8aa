/**
 * One simulated node's kubelet heartbeats: registration at start, the Lease renewed every
 * `leaseRenewMs` (10 s), and the node status computed every `nodeStatusUpdateMs` (10 s) and
 * posted when it changed or every `nodeStatusReportMs` (5 min), as upstream since the Lease
 * took over the liveness signal; after a changed status the next unconditional report comes
 * with upstream's one-time `delayAfterNodeStatusChange` (`heartbeat-schedule.ts`). While the Node carries `sim.fleetyard.dev/state: down` both
 * stop; {@link NodeHeartbeat.kick} runs them at once (the node came back up).
 *
 * @module
 */

import { asKind } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import {
  type ApiClient,
  isAlreadyExists,
  isConflict,
  isNotFound,
} from '../../client/api-client.js';
import type { Lister } from '../../client/shared-informer.js';
import { RESOURCES } from '../../controller/context.js';
import { childSignal, onAbort } from '../../util/abort-fan-out.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import { NODE_STATE_ANNOTATION } from './annotations.js';
import { reportDelayMs } from './heartbeat-schedule.js';
import { LeaseHeartbeat } from './lease-heartbeat.js';
import type { NodeIdentity, ResolvedOptions } from './node-config.js';
import {
  initialNode,
  mustPostStatus,
  nodeLabels,
  nodeStatus,
  statusChanged,
} from './node-registration.js';

/** True while the Node carries `sim.fleetyard.dev/state: down`. */
export function isNodeDown(node: KubeObject | undefined): boolean {
  return node?.metadata?.annotations?.[NODE_STATE_ANNOTATION]?.trim() === 'down';
}

export interface HeartbeatDeps {
  client: ApiClient;
  clock: Clock;
  log: Logger;
  nodes: Lister<KubeObject>;
  opts: ResolvedOptions;
  signal: AbortSignal;
}

/**
 * Creates the Node, or reuses an existing one (a restart), adding any default label it lacks
 * (upstream `updateDefaultLabels`). Returns the node's uid.
 */
export async function registerNode(deps: HeartbeatDeps, id: NodeIdentity): Promise<string> {
  const { client, opts, signal } = deps;
  const ref = { ...RESOURCES.nodes, name: id.name };
  try {
    const created = await client.create(RESOURCES.nodes, initialNode(id, opts, deps.clock.now()), {
      signal,
    });
    return created.metadata?.uid ?? '';
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
  const existing = await client.get(ref, { signal });
  const labels = existing.metadata?.labels ?? {};
  const missing = Object.entries(nodeLabels(id, opts)).filter(([k]) => labels[k] === undefined);
  if (missing.length > 0) {
    await client.patch(ref, { metadata: { labels: Object.fromEntries(missing) } }, 'merge', {
      signal,
    });
  }
  return existing.metadata?.uid ?? '';
}

export class NodeHeartbeat {
  readonly #deps: HeartbeatDeps;
  readonly #id: NodeIdentity;
  readonly #uid: string;
  readonly #lease: LeaseHeartbeat;
  #lastReportAt: number | undefined;
  /** Added once to the report period after a changed status (upstream's delayAfterNodeStatusChange). */
  #reportDelayMs = 0;
  #wake: (() => void)[] = [];

  constructor(deps: HeartbeatDeps, id: NodeIdentity, uid: string) {
    // The node's own signal (aborted with the shared one): each request adds a listener to
    // it, and 1,000 nodes renewing at once on one signal made every add walk 1,000 of them.
    this.#deps = { ...deps, signal: childSignal(deps.signal, id.name) };
    this.#id = id;
    this.#uid = uid;
    this.#lease = new LeaseHeartbeat(deps.client, deps.opts.timing.leaseDurationSeconds);
  }

  /** Runs both loops until the signal aborts. */
  async run(): Promise<void> {
    const { timing } = this.#deps.opts;
    // Stopping wakes the loops, which exit. One listener on the shared signal for all nodes
    // (abort-fan-out.ts): 1,000 listeners of their own made every request of the controller
    // thread pay for them (EventTarget adds and removes by walking its listener list).
    const unsubscribe = onAbort(this.#deps.signal, () => this.kick());
    // Nodes started together renew together, on purpose: spreading the 1,000 renewals over
    // the 10 s period (the first wait shortened by (i − 1) / n) cost 5–9 % of a core more at
    // 1,000 idle nodes (the server amortises its per-write work over a burst); see
    // heartbeat-schedule.ts.
    await Promise.all([
      this.#every(timing.leaseRenewMs, () => this.renewLease()),
      this.#every(timing.nodeStatusUpdateMs, () => this.syncStatus()),
    ]);
    unsubscribe();
  }

  /** Ends the current waits: both loops run now. */
  kick(): void {
    for (const wake of this.#wake.splice(0)) wake();
  }

  #down(): boolean {
    return isNodeDown(this.#deps.nodes.get('', this.#id.name));
  }

  async renewLease(): Promise<void> {
    if (this.#down()) return;
    const { clock, signal } = this.#deps;
    await this.#lease.renew({ name: this.#id.name, uid: this.#uid }, clock.now(), signal);
  }

  /** Posts the node status when it changed or the report period passed. */
  async syncStatus(): Promise<void> {
    const { nodes, client, clock, opts, signal } = this.#deps;
    const cached = nodes.get('', this.#id.name);
    if (cached === undefined || isNodeDown(cached)) return;
    let node = asKind(cached, 'Node');
    const reportMs = opts.timing.nodeStatusReportMs;
    for (let attempt = 0; ; attempt++) {
      const now = clock.now();
      const next = nodeStatus(this.#id, opts, node.status, now);
      const period = reportMs + this.#reportDelayMs;
      if (!mustPostStatus(node.status, next, now, this.#lastReportAt, period)) return;
      const fresh = this.#lastReportAt === undefined || statusChanged(node.status, next);
      try {
        await client.updateStatus(
          { ...RESOURCES.nodes, name: this.#id.name },
          { ...node, status: next },
          { signal },
        );
        this.#lastReportAt = now;
        // Upstream's delayAfterNodeStatusChange: once after a change (or the first post).
        this.#reportDelayMs = fresh
          ? reportDelayMs(reportMs, this.#id.index, opts.nodes.length)
          : 0;
        return;
      } catch (err) {
        // A stale cached copy: read the newest and try once more (upstream retries 5 times).
        if (attempt >= 1 || !isConflict(err)) {
          if (isNotFound(err)) return; // Deleted: upstream does not re-register either.
          throw err;
        }
        const fresh = await client.get({ ...RESOURCES.nodes, name: this.#id.name }, { signal });
        node = asKind(fresh, 'Node');
      }
    }
  }

  /** `fn` now, then every `ms` (each wait after `fn` settles). */
  async #every(ms: number, fn: () => Promise<void>): Promise<void> {
    const { clock, log, signal } = this.#deps;
    while (!signal.aborted) {
      try {
        await fn();
      } catch (err) {
        if (signal.aborted) return;
        log.error({ node: this.#id.name, err }, 'heartbeat failed');
      }
      const cancel = new AbortController();
      const onAbort = (): void => cancel.abort();
      this.#wake.push(onAbort);
      try {
        if (!signal.aborted) await clock.sleep(ms, cancel.signal);
      } catch {
        // Woken by kick() or stopped.
      } finally {
        this.#wake = this.#wake.filter((w) => w !== onAbort);
      }
    }
  }
}
