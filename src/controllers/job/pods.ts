/**
 * What the Job controller reads from one pod (upstream `job_controller.go` helpers): active,
 * terminating, succeeded, failed as the Job's replacement policy sees it, ready, its tracking
 * finalizer, its completion index, when it finished, and the pod failure policy rule it matches.
 *
 * @module
 */
import type { Job } from '../../api/model/batch.generated.js';
import type { Pod } from '../../api/model/index.js';
import { COMPLETION_INDEX_KEY, JOB_TRACKING_FINALIZER } from './constants.js';

const terminal = (p: Pod): boolean =>
  p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';

/** Running or pending and not being deleted (`controller.IsPodActive`). */
export function isActive(p: Pod): boolean {
  return !terminal(p) && !p.metadata?.deletionTimestamp;
}

/** Being deleted and not yet terminal (counted in `status.terminating`). */
export function isTerminating(p: Pod): boolean {
  return !terminal(p) && Boolean(p.metadata?.deletionTimestamp);
}

export function isSucceeded(p: Pod): boolean {
  return p.status?.phase === 'Succeeded';
}

/** Upstream `onlyReplaceFailedPods`: replacement waits for the old pod to be fully gone. */
export function onlyReplaceFailedPods(job: Job): boolean {
  return job.spec?.podReplacementPolicy === 'Failed' || job.spec?.podFailurePolicy != null;
}

/**
 * Upstream `isPodFailed`: phase Failed, or, unless only failed pods are replaced, deleted
 * before succeeding (an orphan never reaches Failed).
 */
export function isFailed(p: Pod, job: Job): boolean {
  if (p.status?.phase === 'Failed') return true;
  if (onlyReplaceFailedPods(job)) return false;
  return Boolean(p.metadata?.deletionTimestamp) && p.status?.phase !== 'Succeeded';
}

export function isReady(p: Pod): boolean {
  return (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

export function hasTrackingFinalizer(p: Pod): boolean {
  return (p.metadata?.finalizers ?? []).includes(JOB_TRACKING_FINALIZER);
}

/** The pod's completion index (annotation), or undefined when absent or not a number. */
export function completionIndex(p: Pod): number | undefined {
  const text = p.metadata?.annotations?.[COMPLETION_INDEX_KEY];
  if (text === undefined || !/^\d+$/.test(text)) return undefined;
  return Number(text);
}

function timeMs(v: string | undefined | null): number | undefined {
  if (!v) return undefined;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : t;
}

/**
 * Upstream `getFinishedTime`: the latest container `finishedAt`, else when Ready turned False,
 * else the deletion timestamp, else `now`.
 */
export function finishedAt(p: Pod, now: number): number {
  const statuses = [
    ...(p.status?.containerStatuses ?? []),
    ...(p.status?.initContainerStatuses ?? []),
  ];
  const ends = statuses
    .map((s) => timeMs(s.state?.terminated?.finishedAt))
    .filter((t): t is number => t !== undefined);
  if (ends.length > 0) return Math.max(...ends);
  const ready = (p.status?.conditions ?? []).find(
    (c) => c.type === 'Ready' && c.status === 'False',
  );
  return timeMs(ready?.lastTransitionTime) ?? timeMs(p.metadata?.deletionTimestamp) ?? now;
}

/** What a pod failure policy says about a failed pod (upstream `matchPodFailurePolicy`). */
export interface PolicyMatch {
  /** The rule's action, when a rule matched. */
  readonly action?: 'FailJob' | 'FailIndex' | 'Ignore' | 'Count';
  /** Whether the failure counts towards backoffLimit (false only for Ignore). */
  readonly countFailed: boolean;
  /** The FailJob message. */
  readonly message?: string;
}

type Rule = NonNullable<NonNullable<Job['spec']>['podFailurePolicy']>['rules'][number];
type ExitRequirement = NonNullable<Rule['onExitCodes']>;

function exitCodeMatch(p: Pod, req: ExitRequirement): { name: string; code: number } | undefined {
  for (const list of [p.status?.containerStatuses, p.status?.initContainerStatuses]) {
    for (const s of list ?? []) {
      const code = s.state?.terminated?.exitCode;
      if (code === undefined || code === 0) continue;
      if (req.containerName != null && req.containerName !== s.name) continue;
      const inValues = req.values.includes(code);
      if ((req.operator === 'In' && inValues) || (req.operator === 'NotIn' && !inValues)) {
        return { name: s.name, code };
      }
    }
  }
  return undefined;
}

function conditionMatch(p: Pod, rule: Rule): string | undefined {
  for (const c of p.status?.conditions ?? []) {
    if (
      (rule.onPodConditions ?? []).some((pat) => pat.type === c.type && pat.status === c.status)
    ) {
      return c.type;
    }
  }
  return undefined;
}

/** The first rule of the Job's pod failure policy that matches the failed pod `p`. */
export function matchPodFailurePolicy(job: Job, p: Pod): PolicyMatch {
  const rules = job.spec?.podFailurePolicy?.rules;
  if (rules == null) return { countFailed: true };
  const where = `${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`;
  for (const [i, rule] of rules.entries()) {
    let failJobText: string | undefined;
    if (rule.onExitCodes != null) {
      const hit = exitCodeMatch(p, rule.onExitCodes);
      if (hit === undefined) continue;
      failJobText = `Container ${hit.name} for pod ${where} failed with exit code ${hit.code} matching FailJob rule at index ${i}`;
    } else if (rule.onPodConditions != null) {
      const type = conditionMatch(p, rule);
      if (type === undefined) continue;
      failJobText = `Pod ${where} has condition ${type} matching FailJob rule at index ${i}`;
    } else continue;
    switch (rule.action) {
      case 'Ignore':
        return { action: 'Ignore', countFailed: false };
      case 'FailIndex':
        return { action: 'FailIndex', countFailed: true };
      case 'Count':
        return { action: 'Count', countFailed: true };
      case 'FailJob':
        return { action: 'FailJob', countFailed: true, message: failJobText };
      default:
        // An unknown action: clients skip the rule.
        continue;
    }
  }
  return { countFailed: true };
}
