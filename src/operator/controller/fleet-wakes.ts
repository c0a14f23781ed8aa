/**
 * Which informer updates wake a fleet's reconcile. The operator's own status writes must wake
 * nobody (each would otherwise cost one more reconcile and, while a write fails, one more
 * backoff step), but every edit a person makes must: after a fix outside the fleet (an RBAC
 * rule restored, a quota raised) a failing key can be parked for up to client-go's 1,000 s
 * per-item backoff, and `kubectl annotate` or `kubectl label` on the fleet is how a user asks
 * for a reconcile now (the idiom of Flux's `reconcile.fluxcd.io/requestedAt`).
 *
 * @module
 */

import { asKind } from '../../api/model/index.js';
import { deepEqual, type KubeObject } from '../../api/object.js';
import { nodeReadyStatus } from '../../controllers/node-lifecycle/node-health.js';
import { ZONE_KEY } from '../render/scheduling.js';

/**
 * True when `cur` differs from `old` in what a user edits: the spec (its generation),
 * deletion, finalizers, identity, labels or annotations. A status-only write changes none.
 */
export function fleetChanged(old: KubeObject, cur: KubeObject): boolean {
  const a = old.metadata ?? {};
  const b = cur.metadata ?? {};
  return (
    a.generation !== b.generation ||
    a.deletionTimestamp !== b.deletionTimestamp ||
    !deepEqual(a.finalizers ?? [], b.finalizers ?? []) ||
    a.uid !== b.uid ||
    !deepEqual(a.labels ?? {}, b.labels ?? {}) ||
    !deepEqual(a.annotations ?? {}, b.annotations ?? {})
  );
}

/** What of a node the fleets read: its Ready status and its zone (not its heartbeats). */
export function nodeReadiness(node: KubeObject): string {
  return `${nodeReadyStatus(asKind(node, 'Node')) ?? ''}/${node.metadata?.labels?.[ZONE_KEY] ?? ''}`;
}
