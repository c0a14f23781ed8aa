/**
 * Upstream `FitError.Error()` text, e.g.
 * `0/3 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: },
 * 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for
 * scheduling, 2 No preemption victims found for incoming pod.`
 *
 * Reasons are counted per node and printed as `<count> <reason>` sorted as strings (so "10 …"
 * sorts before "2 …", as in Go). The preemption part reports what upstream's DefaultPreemption
 * says when it finds no victims: nodes failing only with `Unschedulable` are "No preemption
 * victims found for incoming pod", the rest "Preemption is not helpful for scheduling".
 *
 * @module
 */
import type { FilterStatus } from './types.js';

export const NO_NODES_AVAILABLE = 'no nodes available to schedule pods';
export const NO_VICTIMS = 'No preemption victims found for incoming pod';
export const PREEMPTION_NOT_HELPFUL = 'Preemption is not helpful for scheduling';
export const PREEMPTION_POLICY_NEVER = 'not eligible due to preemptionPolicy=Never.';

export function reasonHistogram(statuses: Iterable<FilterStatus>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of statuses) {
    for (const r of s.reasons) counts[r] = (counts[r] ?? 0) + 1;
  }
  return counts;
}

function histogramText(counts: Readonly<Record<string, number>>): string {
  return Object.entries(counts)
    .map(([reason, n]) => `${n} ${reason}`)
    .sort()
    .join(', ');
}

function availability(total: number, body: string): string {
  let msg = `0/${total} nodes are available:`;
  if (body !== '') msg += ` ${body}.`;
  return msg;
}

function preemptionText(total: number, statuses: readonly FilterStatus[], never: boolean): string {
  if (never) return PREEMPTION_POLICY_NEVER;
  const counts: Record<string, number> = {};
  for (const s of statuses) {
    const r = s.code === 'Unschedulable' ? NO_VICTIMS : PREEMPTION_NOT_HELPFUL;
    counts[r] = (counts[r] ?? 0) + 1;
  }
  return availability(total, histogramText(counts));
}

export interface FitErrorInput {
  readonly totalNodes: number;
  /** One status per node (all nodes fail, or there would be no error). */
  readonly statuses: readonly FilterStatus[];
  /** Set when a PreFilter step rejected the pod everywhere; it replaces the per-node reasons. */
  readonly preFilterMessage?: string;
  /** The pod's `preemptionPolicy` is `Never`. */
  readonly preemptionNever?: boolean;
}

/**
 * Upstream `FitError.Error()` once PostFilter ran: the filter part, then the PostFilter
 * (preemption) message when there is one (a successful preemption has none), e.g.
 * `0/3 nodes are available: 3 Insufficient cpu.` after victims were chosen.
 */
export function fitErrorWithPostFilter(
  totalNodes: number,
  statuses: readonly FilterStatus[],
  postFilterMessage: string,
): string {
  const base = availability(totalNodes, histogramText(reasonHistogram(statuses)));
  return postFilterMessage === '' ? base : `${base} ${postFilterMessage}`;
}

/** The preemption part when no node has victims: `0/3 nodes are available: 1 …, 2 ….` */
export function preemptionFailureText(
  totalNodes: number,
  statuses: readonly FilterStatus[],
): string {
  return availability(totalNodes, histogramText(reasonHistogram(statuses)));
}

export function fitErrorMessage(input: FitErrorInput): string {
  const body = input.preFilterMessage ?? histogramText(reasonHistogram(input.statuses));
  const pre = preemptionText(input.totalNodes, input.statuses, input.preemptionNever === true);
  return `${availability(input.totalNodes, body)} preemption: ${pre}`;
}
