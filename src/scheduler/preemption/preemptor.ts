/**
 * DefaultPreemption as the scheduling loop runs it: the PostFilter step after a failed
 * attempt ({@link preempt}, pure) and its writes, after upstream `prepareCandidate`:
 *
 * 1. each victim gets `DisruptionTarget=True` (reason `PreemptionByScheduler`, message
 *    `<scheduler>: preempting to accommodate a higher priority pod`) through `pods/status`,
 *    then is deleted (its own grace period), then a `Preempted` event
 *    (`Preempted by pod <uid> on node <node>`);
 * 2. lower-priority pods nominated to the same node lose their nomination
 *    (`status.nominatedNodeName` cleared);
 * 3. the preemptor is nominated to the node; the loop writes `status.nominatedNodeName` with
 *    its `PodScheduled=False` condition and requeues it, and the victims' deletions wake it.
 *
 * A victim's uid is remembered as "being preempted" at once, so an attempt before the
 * condition and deletion come back through the informer does not preempt a second time.
 *
 * @module
 */
import type { Pod, PodDisruptionBudget } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { formatTime } from '../../api/time.js';
import { type ApiClient, isNotFound } from '../../client/api-client.js';
import { RESOURCES } from '../../controller/context.js';
import type { EventRecorder } from '../../controller/events.js';
import { DEFAULT_SCHEDULER_NAME } from '../event-handlers.js';
import { fitErrorWithPostFilter } from '../fit-error.js';
import { podSpecOf } from '../pod-view.js';
import type { ScheduleOptions } from '../schedule.js';
import { podKey } from '../scheduling-queue.js';
import type { FilterStatus, NodeInfo } from '../types.js';
import { Nominator } from './nominator.js';
import { preempt } from './preempt.js';
import { podPriority } from './victims.js';

export const EVENT_PREEMPTED = 'Preempted';
export const DISRUPTION_TARGET = 'DisruptionTarget';
export const REASON_PREEMPTION_BY_SCHEDULER = 'PreemptionByScheduler';

/** What the loop writes after PostFilter: the full message and the nomination change. */
export interface PostFilterOutcome {
  /** The `FailedScheduling` and condition message (filter part plus PostFilter part). */
  readonly message: string;
  /** A node to nominate, '' to clear the nomination, undefined to leave it. */
  readonly nominatedNodeName: string | undefined;
}

export interface PreemptorOptions {
  readonly client: ApiClient;
  readonly recorder: EventRecorder;
  readonly pdbs: () => readonly PodDisruptionBudget[];
  /** Whether a pod key is still an unbound pod (nominations of others are dropped). */
  readonly stillPending: (key: string) => boolean;
  readonly now: () => number;
  /** Collects the write promises (the loop waits for them when it stops). */
  readonly track: (p: Promise<void>) => void;
  readonly onError: (err: unknown, what: string) => void;
  readonly schedule?: ScheduleOptions;
}

/** Upstream `podTerminatingByPreemption`'s condition. */
function hasPreemptionCondition(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some(
    (c) =>
      c.type === DISRUPTION_TARGET &&
      c.status === 'True' &&
      c.reason === REASON_PREEMPTION_BY_SCHEDULER,
  );
}

function podRef(pod: KubeObject) {
  return {
    ...RESOURCES.pods,
    namespace: pod.metadata?.namespace ?? '',
    name: pod.metadata?.name ?? '',
  };
}

export class Preemptor {
  readonly nominator = new Nominator();
  readonly #o: PreemptorOptions;
  /** uids of victims this scheduler deleted (or is deleting). */
  readonly #preempting = new Set<string>();

  constructor(options: PreemptorOptions) {
    this.#o = options;
  }

  /**
   * The nodes an attempt for `pod` sees: with nominated pods of at least its priority. A pod
   * that arrives already nominated (by an earlier scheduler run) is taken into the nominator
   * here, as upstream's queue does when it adds such a pod.
   */
  nodeInfosFor(pod: Pod, nodes: readonly NodeInfo[]): readonly NodeInfo[] {
    const nominated = pod.status?.nominatedNodeName ?? '';
    const key = podKey(pod);
    if (nominated !== '' && this.nominator.nominatedNode(key) === undefined)
      this.nominator.nominate(pod, nominated);
    return this.nominator.withNominatedPods(pod, nodes, this.#o.stillPending);
  }

  /** The pod was bound or deleted. */
  forget(pod: Pod): void {
    this.nominator.forget(podKey(pod));
  }

  #terminatingByPreemption = (pod: Pod): boolean => {
    const uid = pod.metadata?.uid ?? '';
    if (uid !== '' && this.#preempting.has(uid)) return true;
    return pod.metadata?.deletionTimestamp != null && hasPreemptionCondition(pod);
  };

  /** PostFilter for a pod that fits nowhere; starts the victims' writes when it preempts. */
  postFilter(
    pod: Pod,
    nodes: readonly NodeInfo[],
    rejected: ReadonlyMap<string, FilterStatus>,
  ): PostFilterOutcome {
    const now = this.#o.now();
    const result = preempt({
      pod,
      nodes,
      rejected,
      pdbs: this.#o.pdbs(),
      now,
      terminatingByPreemption: this.#terminatingByPreemption,
      ...(this.#o.schedule !== undefined ? { schedule: this.#o.schedule } : {}),
    });
    const statuses = [...rejected.values()];
    if ('message' in result) {
      if (result.clearNomination) this.nominator.forget(podKey(pod));
      return {
        message: fitErrorWithPostFilter(nodes.length, statuses, result.message),
        nominatedNodeName: result.clearNomination ? '' : undefined,
      };
    }
    const { node, victims } = result.preempt;
    for (const victim of victims) {
      const uid = victim.metadata?.uid ?? '';
      if (uid !== '') this.#preempting.add(uid);
      this.#o.track(this.#evict(pod, victim, node));
    }
    for (const other of this.nominator.lowerPriorityOn(node, podPriority(pod))) {
      this.nominator.forget(podKey(other));
      this.#o.track(this.#clearNomination(other));
    }
    this.nominator.nominate(pod, node);
    return { message: fitErrorWithPostFilter(nodes.length, statuses, ''), nominatedNodeName: node };
  }

  async #evict(preemptor: Pod, victim: Pod, node: string): Promise<void> {
    const { client, recorder } = this.#o;
    const scheduler = podSpecOf(preemptor).schedulerName || DEFAULT_SCHEDULER_NAME;
    try {
      if (!hasPreemptionCondition(victim)) {
        const condition = {
          type: DISRUPTION_TARGET,
          status: 'True',
          lastProbeTime: null,
          lastTransitionTime: formatTime(this.#o.now()),
          reason: REASON_PREEMPTION_BY_SCHEDULER,
          message: `${scheduler}: preempting to accommodate a higher priority pod`,
        };
        await client.patch(podRef(victim), { status: { conditions: [condition] } }, 'strategic', {
          subresource: 'status',
        });
      }
      await client.delete(podRef(victim));
      recorder.event(
        victim,
        'Normal',
        EVENT_PREEMPTED,
        `Preempted by pod ${preemptor.metadata?.uid ?? ''} on node ${node}`,
      );
    } catch (err) {
      // Gone already: nothing to preempt. Anything else: the next attempt decides again.
      if (!isNotFound(err)) {
        this.#preempting.delete(victim.metadata?.uid ?? '');
        this.#o.onError(err, `preempting ${podKey(victim)}`);
      }
    }
  }

  async #clearNomination(pod: Pod): Promise<void> {
    try {
      await this.#o.client.patch(podRef(pod), { status: { nominatedNodeName: null } }, 'merge', {
        subresource: 'status',
      });
    } catch (err) {
      if (!isNotFound(err)) this.#o.onError(err, `clearing the nomination of ${podKey(pod)}`);
    }
  }
}
