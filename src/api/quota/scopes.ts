/**
 * Quota scopes (upstream `podMatchesScopeFunc` and `getScopeSelectorsFromQuota`): which pods a
 * scoped quota tracks. `spec.scopes` entries act as `Exists` requirements; `spec.scopeSelector`
 * adds its match expressions. Only pods can match a scope; every other kind matches none, so
 * a scoped quota never counts services or claims.
 *
 * - `Terminating` / `NotTerminating`: `activeDeadlineSeconds >= 0` or not;
 * - `BestEffort` / `NotBestEffort`: the pod's QoS class (`status.qosClass`, else computed);
 * - `PriorityClass`: `Exists` means a `priorityClassName` is set; `In`/`NotIn`/`DoesNotExist`
 *   treat the class as the value of a label named `PriorityClass`;
 * - `CrossNamespacePodAffinity`: an affinity or anti-affinity term names other namespaces.
 *
 * @module
 */
import { podQOSClass } from '../kinds/qos.js';
import { isJsonObject, type KubeObject } from '../object.js';

export interface ScopeRequirement {
  readonly scopeName: string;
  readonly operator: string;
  readonly values: readonly string[];
}

function record(v: unknown): Record<string, unknown> {
  return isJsonObject(v) ? v : {};
}

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** The quota's scopes and scope selector as one list of requirements. */
export function quotaScopeRequirements(quota: KubeObject): ScopeRequirement[] {
  const spec = record(quota.spec);
  const out: ScopeRequirement[] = [];
  for (const s of list(spec.scopes)) {
    if (typeof s === 'string') out.push({ scopeName: s, operator: 'Exists', values: [] });
  }
  for (const e of list(record(spec.scopeSelector).matchExpressions)) {
    const r = record(e);
    out.push({
      scopeName: typeof r.scopeName === 'string' ? r.scopeName : '',
      operator: typeof r.operator === 'string' ? r.operator : '',
      values: list(r.values).filter((v): v is string => typeof v === 'string'),
    });
  }
  return out;
}

function isTerminating(spec: Record<string, unknown>): boolean {
  const ads = spec.activeDeadlineSeconds;
  return typeof ads === 'number' && ads >= 0;
}

function isBestEffort(pod: KubeObject): boolean {
  const qos = record(pod.status).qosClass;
  if (typeof qos === 'string' && qos !== '') return qos === 'BestEffort';
  return podQOSClass(record(pod.spec)) === 'BestEffort';
}

/** A label-selector requirement on `{PriorityClass: <class>}` (no label when the class is ''). */
function priorityClassMatches(className: string, req: ScopeRequirement): boolean {
  const has = className !== '';
  switch (req.operator) {
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'In':
      return has && req.values.includes(className);
    case 'NotIn':
      return !has || !req.values.includes(className);
    default:
      return false;
  }
}

function crossNamespaceTerm(term: unknown): boolean {
  const t = record(term);
  return (
    list(t.namespaces).length > 0 ||
    (t.namespaceSelector !== undefined && t.namespaceSelector !== null)
  );
}

function crossNamespaceAffinity(spec: Record<string, unknown>): boolean {
  const affinity = record(spec.affinity);
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const a = record(affinity[kind]);
    if (list(a.requiredDuringSchedulingIgnoredDuringExecution).some(crossNamespaceTerm))
      return true;
    const preferred = list(a.preferredDuringSchedulingIgnoredDuringExecution);
    if (preferred.some((w) => crossNamespaceTerm(record(w).podAffinityTerm))) return true;
  }
  return false;
}

/** Upstream `podMatchesScopeFunc`. */
export function podMatchesScope(req: ScopeRequirement, pod: KubeObject): boolean {
  const spec = record(pod.spec);
  switch (req.scopeName) {
    case 'Terminating':
      return isTerminating(spec);
    case 'NotTerminating':
      return !isTerminating(spec);
    case 'BestEffort':
      return isBestEffort(pod);
    case 'NotBestEffort':
      return !isBestEffort(pod);
    case 'PriorityClass': {
      const name = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : '';
      return priorityClassMatches(name, req);
    }
    case 'CrossNamespacePodAffinity':
      return crossNamespaceAffinity(spec);
    default:
      return false;
  }
}
