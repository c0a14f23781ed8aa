/**
 * The one-line title of each step, as the timeline and JUnit show it:
 * `wait condition=Ready Pod default/web-0 (timeout 5m)`, `advance 15m`.
 *
 * @module
 */
import { describeBounds } from './conditions.js';
import { CLUSTER_SCOPED_KINDS, describeTarget, formatDuration, oneLine } from './format.js';
import type { Condition, StepAction, Target } from './types.js';

/** `advanceText`: the advance duration as written (`15m`, not `15m0s`). */
export function titleOf(a: StepAction, advanceText: string): string {
  switch (a.action) {
    case 'apply':
      return applyTitle(
        a.objects.map((o) => `${o.kind?.toLowerCase()}/${o.metadata?.name}`),
        a.source,
      );
    case 'wait':
      return `wait ${conditionText(a.check.condition)} ${describeTarget(withNs(a.check.target))} (timeout ${formatDuration(a.timeoutMs)})`;
    case 'expect':
      return `expect ${describeTarget(withNs(a.check.target))}: ${conditionText(a.check.condition)}`;
    case 'fault':
      return `fault ${a.verb} ${a.target}${a.exitCode !== undefined ? ` exit code ${a.exitCode}` : ''}`;
    case 'advance':
      return `advance ${advanceText}`;
    case 'patch':
      return `patch ${describeTarget(withNs(a.target))}${a.subresource ? `/${a.subresource}` : ''} (${a.patchType})`;
    case 'scale':
      return `scale ${describeTarget(withNs(a.target))} to ${a.replicas}`;
    case 'delete': {
      const grace = a.gracePeriodSeconds !== undefined ? ` (grace ${a.gracePeriodSeconds}s)` : '';
      return `delete ${describeTarget(withNs(a.target))}${grace}`;
    }
    case 'cordon':
    case 'uncordon':
      return `${a.action} ${a.node}`;
    case 'drain':
      return `drain ${a.node} (expect ${a.outcome}, timeout ${formatDuration(a.timeoutMs)})`;
    case 'random-faults': {
      const p = a.plan;
      return `random-faults for ${formatDuration(p.durationMs)} every ${formatDuration(p.everyMs)}: ${p.faults.join(', ')} (seed ${p.seed})`;
    }
  }
}

function applyTitle(names: readonly string[], source: string): string {
  // Four names fit a line; more read as "a, b, c, 7 more".
  const shown = names.length > 4 ? [...names.slice(0, 3), `${names.length - 3} more`] : names;
  return `apply ${source === 'inline' ? '' : `${source}: `}${shown.join(', ')}`;
}

/** Titles show the namespace a step will use (`default` unless given). */
function withNs<T extends Target>(t: T): T {
  const namespaced = !CLUSTER_SCOPED_KINDS.has(t.kind);
  return t.namespace === undefined && t.name !== undefined && namespaced
    ? { ...t, namespace: 'default' }
    : t;
}

export function conditionText(c: Condition): string {
  switch (c.form) {
    case 'for':
      return c.text;
    case 'cel':
      return oneLine(c.cel.source, 80);
    case 'jsonpath':
      return c.equals === undefined ? `${c.path.source} set` : `${c.path.source}=${c.equals}`;
    case 'count':
      return `count ${c.count.jsonpath ? `of ${c.count.jsonpath.source} ` : ''}${describeBounds(c.count)}`;
  }
}
