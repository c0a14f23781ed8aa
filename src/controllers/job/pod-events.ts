/**
 * What a pod event means for the Job controller (upstream `job_controller.go: addPod,
 * updatePod, deletePod`), as data: Job keys to sync, creations and deletions the expectations
 * observe, finalizer removals now visible, and orphan pods whose tracking finalizer nobody
 * else will remove (their Job is gone or finished).
 *
 * @module
 */
import type { Job } from '../../api/model/batch.generated.js';
import type { Pod } from '../../api/model/index.js';
import { controllerRefOf } from '../../controller/controller-ref.js';
import { JOB_KIND } from './constants.js';
import { isJobFinished } from './plan.js';
import { hasTrackingFinalizer } from './pods.js';

export interface JobPodEffects {
  readonly creationsObserved: string[];
  readonly deletionsObserved: { readonly jobKey: string; readonly podKey: string }[];
  /** Pod UIDs whose tracking finalizer is gone (or the pod is): removals no longer pending. */
  readonly finalizerGone: string[];
  readonly enqueue: string[];
  /** Orphan pod keys (`<namespace>/<name>`) whose finalizer must go. */
  readonly orphans: string[];
}

/** Reads cached Jobs. */
export interface JobLookup {
  get(namespace: string, name: string): Job | undefined;
}

const podKey = (p: Pod): string => `${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`;

/** The Job key a pod's controllerRef names, when it names a batch/v1 Job. */
function ownerKey(p: Pod): string | undefined {
  const ref = controllerRefOf(p);
  if (ref === undefined || ref.kind !== JOB_KIND.kind || ref.apiVersion !== 'batch/v1')
    return undefined;
  return `${p.metadata?.namespace ?? ''}/${ref.name}`;
}

/** The cached Job controlling `p` (same UID), if any. */
function owner(jobs: JobLookup, p: Pod): Job | undefined {
  const ref = controllerRefOf(p);
  if (ref === undefined || ownerKey(p) === undefined) return undefined;
  const job = jobs.get(p.metadata?.namespace ?? '', ref.name);
  return job?.metadata?.uid === ref.uid ? job : undefined;
}

function empty(): JobPodEffects {
  return {
    creationsObserved: [],
    deletionsObserved: [],
    finalizerGone: [],
    enqueue: [],
    orphans: [],
  };
}

/** A pod with the finalizer whose Job is gone or finished, and not controlled by anything else. */
function orphaned(jobs: JobLookup, p: Pod): boolean {
  if (!hasTrackingFinalizer(p)) return false;
  const ref = controllerRefOf(p);
  if (ref !== undefined && ownerKey(p) === undefined) return false;
  const job = owner(jobs, p);
  return job === undefined || isJobFinished(job);
}

export function podAdded(jobs: JobLookup, p: Pod): JobPodEffects {
  const e = empty();
  const job = owner(jobs, p);
  const key = ownerKey(p);
  if (job !== undefined && key !== undefined) {
    if (p.metadata?.deletionTimestamp) e.deletionsObserved.push({ jobKey: key, podKey: podKey(p) });
    else e.creationsObserved.push(key);
    e.enqueue.push(key);
  }
  if (orphaned(jobs, p)) e.orphans.push(podKey(p));
  return e;
}

export function podUpdated(jobs: JobLookup, old: Pod, cur: Pod): JobPodEffects {
  const e = empty();
  if (hasTrackingFinalizer(old) && !hasTrackingFinalizer(cur))
    e.finalizerGone.push(cur.metadata?.uid ?? '');
  const key = ownerKey(cur);
  if (owner(jobs, cur) !== undefined && key !== undefined) {
    if (cur.metadata?.deletionTimestamp && !old.metadata?.deletionTimestamp) {
      e.deletionsObserved.push({ jobKey: key, podKey: podKey(cur) });
    }
    e.enqueue.push(key);
  }
  const oldKey = ownerKey(old);
  if (oldKey !== undefined && oldKey !== key && owner(jobs, old) !== undefined)
    e.enqueue.push(oldKey);
  if (orphaned(jobs, cur)) e.orphans.push(podKey(cur));
  return e;
}

export function podDeleted(jobs: JobLookup, p: Pod): JobPodEffects {
  const e = empty();
  e.finalizerGone.push(p.metadata?.uid ?? '');
  const key = ownerKey(p);
  if (owner(jobs, p) !== undefined && key !== undefined) {
    e.deletionsObserved.push({ jobKey: key, podKey: podKey(p) });
    e.enqueue.push(key);
  }
  return e;
}
