/**
 * How long the dashboard takes to show an API change: the pod changes the benchmark's own
 * watch saw (when it saw them) against what the page rendered (when its MutationObserver saw
 * the `[data-pod]` element appear, change `data-phase`/`data-ready`/its node, or go away).
 * Both sides stamp `Date.now()` on the same machine.
 *
 * A page may skip a state it had no time to render (a pod created and scheduled within one
 * frame shows up scheduled): such a change counts as shown when the page first shows it or a
 * later state of the same pod, and is counted as `superseded`. A change the page never
 * reflected at all is `missing`.
 *
 * @module
 */

/** One observed state of one pod (`ns/name`); `phase` `DELETED` once it is gone. */
export interface PodChange {
  readonly at: number;
  readonly pod: string;
  readonly phase: string;
  readonly ready: boolean;
  /** Its node, `''` while unscheduled. */
  readonly node: string;
}

export interface Latencies {
  /** Per API change, page time minus watch time, ms. */
  readonly ms: number[];
  /** Changes shown only through a later state of their pod. */
  readonly superseded: number;
  /** Changes the page never reflected. */
  readonly missing: number;
  /** Unscheduled states left out because the page shows no unscheduled pods at all. */
  readonly unscheduledSkipped: number;
}

function stateOf(c: PodChange): string {
  return c.phase === 'DELETED' ? 'DELETED' : `${c.phase}|${c.ready}|${c.node}`;
}

function byPod(changes: readonly PodChange[]): Map<string, PodChange[]> {
  const out = new Map<string, PodChange[]>();
  for (const c of changes) {
    const list = out.get(c.pod) ?? [];
    list.push(c);
    out.set(c.pod, list);
  }
  for (const list of out.values()) list.sort((a, b) => a.at - b.at);
  return out;
}

/**
 * Pairs each API change with the first page render of it or of a later state of its pod.
 * Unscheduled API states (node `''`) only count when the page ever showed an unscheduled pod:
 * a map that places pods on their nodes has nothing to show for them.
 */
export function pageLatencies(api: readonly PodChange[], page: readonly PodChange[]): Latencies {
  const showsUnscheduled = page.some((c) => c.phase !== 'DELETED' && c.node === '');
  const pageByPod = byPod(page);
  const ms: number[] = [];
  let superseded = 0;
  let missing = 0;
  let unscheduledSkipped = 0;
  for (const [pod, all] of byPod(api)) {
    const changes = all.filter((c) => showsUnscheduled || c.phase === 'DELETED' || c.node !== '');
    unscheduledSkipped += all.length - changes.length;
    const shown = pageByPod.get(pod) ?? [];
    let from = 0;
    for (let i = 0; i < changes.length; i++) {
      const later = new Set(changes.slice(i).map(stateOf));
      const r = shown.findIndex((p, idx) => idx >= from && later.has(stateOf(p)));
      if (r < 0) {
        missing++;
        continue;
      }
      ms.push(shown[r]!.at - changes[i]!.at);
      if (stateOf(shown[r]!) === stateOf(changes[i]!)) from = r + 1;
      else {
        superseded++;
        from = r;
      }
    }
  }
  return { ms, superseded, missing, unscheduledSkipped };
}
