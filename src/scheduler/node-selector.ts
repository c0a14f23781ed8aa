/**
 * Node selectors as the scheduler evaluates them (component-helpers `nodeaffinity`):
 * `spec.nodeSelector`, required node affinity terms (ORed) and preferred terms.
 *
 * An invalid requirement (bad operator, non-integer Gt/Lt value, an unknown field) makes its
 * term match nothing rather than failing the whole attempt, as upstream's lazy-error selector does.
 *
 * @module
 */
import { parseInt64 } from '../api/labels/requirement.js';
import type { NodeSelectorRequirement, NodeSelectorTerm, PodSpec } from '../api/model/index.js';
import type { NodeInfo } from './types.js';

function requirementMatches(
  r: NodeSelectorRequirement,
  labels: Readonly<Record<string, string>>,
): boolean {
  const values = r.values ?? [];
  const present = Object.hasOwn(labels, r.key);
  const actual = present ? labels[r.key] : undefined;
  switch (r.operator) {
    case 'In':
      return actual !== undefined && values.includes(actual);
    case 'NotIn':
      return actual === undefined || !values.includes(actual);
    case 'Exists':
      return present;
    case 'DoesNotExist':
      return !present;
    case 'Gt':
    case 'Lt': {
      const [only] = values;
      if (actual === undefined || values.length !== 1 || only === undefined) return false;
      const lhs = parseInt64(actual);
      const rhs = parseInt64(only);
      if (lhs === undefined || rhs === undefined) return false;
      return r.operator === 'Gt' ? lhs > rhs : lhs < rhs;
    }
    default:
      return false;
  }
}

/** `matchFields` supports only `metadata.name` with `In`/`NotIn` and exactly one value for In. */
function fieldRequirementMatches(r: NodeSelectorRequirement, nodeName: string): boolean {
  if (r.key !== 'metadata.name') return false;
  if (r.operator !== 'In' && r.operator !== 'NotIn') return false;
  return requirementMatches(r, { 'metadata.name': nodeName });
}

/**
 * A term with neither expressions nor fields matches no node (upstream). Only the node's name
 * and labels are read (a PV's node affinity is checked against labels alone).
 */
export function nodeSelectorTermMatches(
  term: NodeSelectorTerm,
  node: Pick<NodeInfo, 'name' | 'labels'>,
): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  return (
    exprs.every((r) => requirementMatches(r, node.labels)) &&
    fields.every((r) => fieldRequirementMatches(r, node.name))
  );
}

/**
 * Upstream `RequiredNodeAffinity.Match`: every `nodeSelector` label equal, and (when required
 * node affinity is set) at least one of its terms matching. A required affinity with an empty
 * term list matches nothing.
 */
export function matchesRequiredNodeAffinity(spec: PodSpec, node: NodeInfo): boolean {
  for (const [k, v] of Object.entries(spec.nodeSelector ?? {})) {
    if (node.labels[k] !== v) return false;
  }
  const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (required === null || required === undefined) return true;
  return (required.nodeSelectorTerms ?? []).some((t) => nodeSelectorTermMatches(t, node));
}
