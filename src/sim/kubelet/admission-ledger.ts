/**
 * The kubelet's memory of its admission decisions, per node: which pods it admitted (they
 * count against the next pod) and which it rejected (the verdict is final: it is written as
 * phase `Failed` and never reconsidered). The decision itself is the pure `admitPod`.
 *
 * Order, as upstream's kubelet: at start every pod already bound to the node is admitted
 * again in creation-time order (`HandlePodAdditions` sorts its first batch; ties by namespace
 * and name here, where Go's sort leaves them unordered), so an older pod keeps its port over a
 * newer one after a restart; afterwards pods are decided in arrival order, the order the pod
 * workers pick them up. A decision is synchronous (no await between reading the admitted pods
 * and recording the new one), so concurrent workers cannot admit two pods into one slot.
 *
 * The admitted pods are re-read through `lookup` at every decision, so a pod that has turned
 * terminal (Succeeded, Failed) or been deleted — or replaced by a pod of the same name —
 * frees its ports and resources at once; a pod that is being deleted still counts until then,
 * as its containers may still run.
 *
 * @module
 */
import { asKind, type Pod } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { parseTime } from '../../api/time.js';
import { objectKey } from '../../client/store.js';
import { boundNodeOf, isTerminal } from '../../scheduler/pod-view.js';
import { admitPod, type Rejection } from './admission.js';

/** The verdict for one pod; `fresh` = decided just now (record the Event once). */
export interface Decision {
  readonly rejection?: Rejection;
  readonly fresh?: boolean;
}

/** Reads the newest known copy of a pod by `namespace/name`. */
export type PodLookup = (key: string) => KubeObject | undefined;

const uidOf = (pod: KubeObject): string => pod.metadata?.uid ?? '';

export class AdmissionLedger {
  readonly #lookup: PodLookup;
  /** node name → admitted pod uid → key. */
  readonly #admitted = new Map<string, Map<string, string>>();
  /**
   * admitted pod uid → its node's map, so forgetting a pod is one lookup, not a pass over
   * every node (1,000 of them with `--nodes 1000`, for each pod that ends or goes).
   */
  readonly #nodeOfUid = new Map<string, Map<string, string>>();
  readonly #rejected = new Map<string, Rejection>();

  constructor(lookup: PodLookup) {
    this.#lookup = lookup;
  }

  /** The verdict for `pod` (bound to `node`): the remembered one, or decided now. */
  decide(obj: KubeObject, node: KubeObject): Decision {
    const pod = asKind(obj, 'Pod');
    const uid = uidOf(pod);
    if (isTerminal(pod)) {
      this.forget(uid);
      return {};
    }
    const rejection = this.#rejected.get(uid);
    if (rejection !== undefined) return { rejection };
    const onNode = this.#onNode(boundNodeOf(pod));
    if (onNode.has(uid)) return {};
    const result = admitPod(pod, node, this.admitted(boundNodeOf(pod)));
    if (result.admit) {
      onNode.set(uid, objectKey(pod));
      this.#nodeOfUid.set(uid, onNode);
      return {};
    }
    const decided: Rejection = { reason: result.reason, message: result.message };
    this.#rejected.set(uid, decided);
    return { rejection: decided, fresh: true };
  }

  /**
   * Decides every live pod in `pods` in creation-time order (a kubelet's start); returns the
   * pods rejected now. `nodeOf` gives the Node object of a pod's node (undefined: not ours).
   */
  seed(
    pods: readonly KubeObject[],
    nodeOf: (name: string) => KubeObject | undefined,
  ): { pod: KubeObject; rejection: Rejection }[] {
    const rejected: { pod: KubeObject; rejection: Rejection }[] = [];
    for (const pod of [...pods].sort(byCreation)) {
      const typed = asKind(pod, 'Pod');
      const node = nodeOf(boundNodeOf(typed));
      if (node === undefined || isTerminal(typed)) continue;
      const d = this.decide(pod, node);
      if (d.rejection && d.fresh) rejected.push({ pod, rejection: d.rejection });
    }
    return rejected;
  }

  /** The live pods admitted on `nodeName`, newest copies; prunes the ones gone or finished. */
  admitted(nodeName: string): Pod[] {
    const onNode = this.#onNode(nodeName);
    const out: Pod[] = [];
    for (const [uid, key] of onNode) {
      const found = this.#lookup(key);
      const pod = found === undefined ? undefined : asKind(found, 'Pod');
      if (pod === undefined || uidOf(pod) !== uid || isTerminal(pod)) {
        onNode.delete(uid);
        this.#nodeOfUid.delete(uid);
      } else out.push(pod);
    }
    return out;
  }

  /** Drops everything known about a pod (deleted, or terminal). */
  forget(uid: string): void {
    this.#rejected.delete(uid);
    this.#nodeOfUid.get(uid)?.delete(uid);
    this.#nodeOfUid.delete(uid);
  }

  #onNode(name: string): Map<string, string> {
    let m = this.#admitted.get(name);
    if (m === undefined) {
      m = new Map();
      this.#admitted.set(name, m);
    }
    return m;
  }
}

function byCreation(a: KubeObject, b: KubeObject): number {
  const ta = parseTime(a.metadata?.creationTimestamp) ?? 0;
  const tb = parseTime(b.metadata?.creationTimestamp) ?? 0;
  if (ta !== tb) return ta - tb;
  const ka = objectKey(a);
  const kb = objectKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}
