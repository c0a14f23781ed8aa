/**
 * A small simulated world for the Job planner: pods created from plans, ended by the test
 * (or by deletion), finalizers removed (or the removal lost), and the status the plan wrote.
 * No server: each step runs `planJob` and applies what it says, as `sync.ts` would.
 *
 * @module
 */
import type { Job, JobSpec } from '../../../api/model/batch.generated.js';
import type { Pod } from '../../../api/model/index.js';
import { formatTime } from '../../../api/time.js';
import { COMPLETION_INDEX_KEY, JOB_TRACKING_FINALIZER } from '../constants.js';
import { planJob } from '../plan.js';
import type { JobPlan } from '../plan-types.js';

export const T0 = Date.parse('2026-01-01T00:00:00Z');

export function makeJob(spec: Partial<JobSpec>): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'j', namespace: 'ns', uid: 'job-uid', creationTimestamp: formatTime(T0) },
    spec: {
      parallelism: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      suspend: false,
      podReplacementPolicy: 'TerminatingOrFailed',
      template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
      ...spec,
    },
    status: {},
  };
}

export interface PodOptions {
  readonly phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed';
  readonly index?: number;
  readonly exitCode?: number;
  readonly finalizer?: boolean;
  readonly deleted?: boolean;
  readonly ready?: boolean;
  readonly at?: number;
  readonly annotations?: Record<string, string>;
}

/** A pod of the Job in the shape the kubelet and the API server leave it. */
export function makePod(uid: string, o: PodOptions = {}): Pod {
  const at = formatTime(o.at ?? T0);
  const annotations: Record<string, string> = { ...o.annotations };
  if (o.index !== undefined) annotations[COMPLETION_INDEX_KEY] = String(o.index);
  const terminated =
    o.exitCode !== undefined ? { exitCode: o.exitCode, finishedAt: at } : undefined;
  return {
    metadata: {
      name: `p-${uid}`,
      namespace: 'ns',
      uid,
      creationTimestamp: at,
      annotations,
      finalizers: o.finalizer === false ? [] : [JOB_TRACKING_FINALIZER],
      ownerReferences: [
        { apiVersion: 'batch/v1', kind: 'Job', name: 'j', uid: 'job-uid', controller: true },
      ],
      ...(o.deleted ? { deletionTimestamp: at } : {}),
    },
    spec: { containers: [{ name: 'c', image: 'busybox' }] },
    status: {
      phase: o.phase ?? 'Running',
      conditions: [{ type: 'Ready', status: o.ready ? 'True' : 'False' }],
      ...(terminated
        ? {
            containerStatuses: [
              {
                name: 'c',
                image: 'busybox',
                imageID: '',
                ready: false,
                restartCount: 0,
                state: { terminated },
              },
            ],
          }
        : {}),
    },
  };
}

/** The world: the Job as stored, its pods by UID, the time. */
export class JobWorld {
  job: Job;
  readonly pods = new Map<string, Pod>();
  now = T0;
  #next = 0;
  /** Every pod that ended (succeeded, failed or deleted before success), by how it ended. */
  readonly ended = new Map<string, 'succeeded' | 'failed'>();

  constructor(spec: Partial<JobSpec>) {
    this.job = makeJob(spec);
  }

  /** One sync: plan, then apply creates, deletes, the status and (some) finalizer removals. */
  step(loseRemoval: (uid: string) => boolean = () => false): JobPlan {
    const plan = planJob({ job: this.job, pods: [...this.pods.values()], now: this.now });
    for (const want of plan.create) {
      const uid = `u${this.#next++}`;
      this.pods.set(
        uid,
        makePod(uid, { phase: 'Pending', index: want.index, at: this.now, annotations: {} }),
      );
    }
    for (const p of plan.delete) this.end(p.metadata?.uid ?? '', 'deleted');
    this.job = { ...this.job, status: plan.status };
    for (const p of plan.removeFinalizers) {
      const uid = p.metadata?.uid ?? '';
      const cur = this.pods.get(uid);
      if (cur === undefined || loseRemoval(uid)) continue;
      this.pods.set(uid, { ...cur, metadata: { ...cur.metadata, finalizers: [] } });
    }
    this.now += 1000;
    return plan;
  }

  active(): Pod[] {
    return [...this.pods.values()].filter(
      (p) =>
        !p.metadata?.deletionTimestamp &&
        p.status?.phase !== 'Succeeded' &&
        p.status?.phase !== 'Failed',
    );
  }

  /** Ends a pod: `succeeded`, `failed` (exit 1), or `deleted` (deletionTimestamp, then Failed). */
  end(uid: string, how: 'succeeded' | 'failed' | 'deleted'): void {
    const p = this.pods.get(uid);
    if (p === undefined || p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') return;
    if (how === 'deleted') {
      if (p.metadata?.deletionTimestamp) return;
      this.pods.set(uid, {
        ...p,
        metadata: { ...p.metadata, deletionTimestamp: formatTime(this.now) },
      });
      if (!this.ended.has(uid)) this.ended.set(uid, 'failed');
      return;
    }
    const exitCode = how === 'succeeded' ? 0 : 1;
    const index = p.metadata?.annotations?.[COMPLETION_INDEX_KEY];
    const ended = makePod(uid, {
      phase: how === 'succeeded' ? 'Succeeded' : 'Failed',
      exitCode,
      at: this.now,
      finalizer: (p.metadata?.finalizers ?? []).length > 0,
      deleted: Boolean(p.metadata?.deletionTimestamp),
      ...(index !== undefined ? { index: Number(index) } : {}),
    });
    this.pods.set(uid, ended);
    if (!this.ended.has(uid)) this.ended.set(uid, how);
  }

  /** Removes deleted pods that no finalizer holds (the API server's part). */
  collect(): void {
    for (const [uid, p] of this.pods) {
      if (p.metadata?.deletionTimestamp && (p.metadata.finalizers ?? []).length === 0)
        this.pods.delete(uid);
    }
  }

  condition(type: string): string | undefined {
    return this.job.status?.conditions?.find((c) => c.type === type)?.status;
  }
}
