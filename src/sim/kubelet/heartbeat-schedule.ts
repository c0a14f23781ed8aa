/**
 * When a simulated node posts its status unconditionally: upstream's
 * `delayAfterNodeStatusChange`. After a post whose status changed (or the first one) the next
 * unconditional report comes `nodeStatusReportFrequency + delay` later, the delay spread over
 * `[−½, ½)` of the frequency, so that nodes whose status changed together (1,000 nodes
 * registered by one `up`) do not all report again in the same instant 5 min later; after an
 * unchanged (periodic) post the delay is 0. Upstream draws the delay at random; here node `i`
 * of `n` takes the `(i − 1) / n` point of that range, shifted so that node 1's delay is 0
 * (a one-node cluster reports every 5 min as before), and `--seed` runs stay reproducible.
 *
 * The 10 s loops themselves (Lease renewals, status passes) are NOT spread: measured at 1,000
 * idle nodes, spreading the renewals evenly over the period (each node's first wait shortened
 * by `(i − 1) / n`) cost 5–9 % of a core more than the synchronized bursts, because the API
 * server and the informers amortise their per-write work over a burst (docs/benchmarks.md,
 * scale group).
 *
 * @module
 */

/** The fraction of a period node `index` (1-based) of `count` is shifted by: `(i − 1) / n`. */
export function nodePhase(index: number, count: number): number {
  if (count <= 1) return 0;
  return ((((index - 1) % count) + count) % count) / count;
}

/**
 * The one-time delay added to the report period after a changed (or first) status post, in
 * `[−½, ½)` of `reportMs`; node 1 gets 0.
 */
export function reportDelayMs(reportMs: number, index: number, count: number): number {
  const shifted = (nodePhase(index, count) + 0.5) % 1;
  return Math.round(reportMs * (shifted - 0.5));
}
