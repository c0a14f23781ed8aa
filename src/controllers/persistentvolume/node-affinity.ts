/**
 * Whether a node satisfies a PersistentVolume's `spec.nodeAffinity` (upstream
 * `CheckNodeAffinity` in `component-helpers/storage/volume`), through the scheduler's own
 * node-selector term matching, and the scheduler-facing reason strings.
 *
 * Upstream evaluates the terms against a node built from the labels alone, so a `matchFields`
 * term (`metadata.name`) never matches a PV's affinity; this keeps that.
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import { nodeSelectorTermMatches } from '../../scheduler/node-selector.js';
import type { NodeInfo, NodeSelectorTerm } from '../../scheduler/types.js';
import { VOLUME_REASONS } from '../../scheduler/volume-binding-hook.js';
import { specOf } from './volume-util.js';

/** The messages the VolumeBinding plugin reports, as upstream words them. */
export { VOLUME_REASONS };

/** Upstream's error text when a PV's required terms exclude the node. */
export const NO_MATCHING_TERMS = 'no matching NodeSelectorTerms';

function requiredTerms(pv: KubeObject): readonly NodeSelectorTerm[] | undefined {
  const affinity = specOf(pv).nodeAffinity as
    | { required?: { nodeSelectorTerms?: NodeSelectorTerm[] | null } | null }
    | null
    | undefined;
  const required = affinity?.required;
  if (required === null || required === undefined) return undefined;
  return required.nodeSelectorTerms ?? [];
}

/**
 * True when the PV has no required node affinity, or one of its terms matches the labels
 * (terms are ORed, a term's expressions ANDed; an empty term list matches no node).
 */
export function volumeNodeAffinityMatches(
  pv: KubeObject,
  nodeLabels: Readonly<Record<string, string>>,
): boolean {
  const terms = requiredTerms(pv);
  if (terms === undefined) return true;
  // The scheduler's matcher reads only `labels` and `name`; upstream passes no name.
  const view = { name: '', labels: nodeLabels } as Pick<NodeInfo, 'name' | 'labels'> as NodeInfo;
  return terms.some((t) => nodeSelectorTermMatches(t, view));
}

/** The labels of a Node object (empty when it has none). */
export function nodeLabels(node: KubeObject): Readonly<Record<string, string>> {
  return node.metadata?.labels ?? {};
}
