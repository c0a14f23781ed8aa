/**
 * Pods nominated to a node by a preemption, and what other scheduling attempts make of them
 * (upstream `nominator` in the scheduling queue and `addNominatedPods`): while a preemptor
 * waits for its victims to leave, pods of lower priority must not take the room it made, so
 * every attempt for a pod sees the nominated pods of equal or higher priority as if they
 * were already on their nominated nodes.
 *
 * @module
 */
import type { Pod } from '../../api/model/index.js';
import { buildNodeInfos } from '../node-info.js';
import { podSpecOf } from '../pod-view.js';
import { podKey } from '../scheduling-queue.js';
import type { NodeInfo } from '../types.js';
import { podPriority } from './victims.js';

interface Nomination {
  readonly pod: Pod;
  readonly node: string;
}

export class Nominator {
  readonly #byKey = new Map<string, Nomination>();

  nominate(pod: Pod, node: string): void {
    this.#byKey.set(podKey(pod), { pod, node });
  }

  /** The pod is bound, deleted, or its nomination was cleared. */
  forget(key: string): void {
    this.#byKey.delete(key);
  }

  nominatedNode(key: string): string | undefined {
    return this.#byKey.get(key)?.node;
  }

  /** Pods nominated to `node` with priority below `priority` (their nomination is taken). */
  lowerPriorityOn(node: string, priority: number): Pod[] {
    return [...this.#byKey.values()]
      .filter((n) => n.node === node && podPriority(n.pod) < priority)
      .map((n) => n.pod);
  }

  /**
   * `nodes` with the nominated pods of at least `pod`'s priority added to their nodes (the
   * pod itself excluded). `stillPending` drops nominations of pods bound or gone meanwhile.
   */
  withNominatedPods(
    pod: Pod,
    nodes: readonly NodeInfo[],
    stillPending: (key: string) => boolean,
  ): readonly NodeInfo[] {
    const own = podKey(pod);
    const priority = podPriority(pod);
    const extra = new Map<string, Pod[]>();
    for (const [key, n] of this.#byKey) {
      if (!stillPending(key)) {
        this.#byKey.delete(key);
        continue;
      }
      if (key === own || podPriority(n.pod) < priority) continue;
      const placed: Pod = { ...n.pod, spec: { ...podSpecOf(n.pod), nodeName: n.node } };
      extra.set(n.node, [...(extra.get(n.node) ?? []), placed]);
    }
    if (extra.size === 0) return nodes;
    return nodes.map((info) => {
      const add = extra.get(info.name);
      if (add === undefined) return info;
      return buildNodeInfos([info.node], [...info.pods, ...add])[0] ?? info;
    });
  }
}
