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
import type { NodeSelectorTerm, PersistentVolume } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { nodeSelectorTermMatches } from '../../scheduler/node-selector.js';
import { VOLUME_REASONS } from '../../scheduler/volume-binding-hook.js';

/** The messages the VolumeBinding plugin reports, as upstream words them. */
export { VOLUME_REASONS };

/** Upstream's error text when a PV's required terms exclude the node. */
export const NO_MATCHING_TERMS = 'no matching NodeSelectorTerms';

function requiredTerms(pv: PersistentVolume): readonly NodeSelectorTerm[] | undefined {
  const required = pv.spec?.nodeAffinity?.required;
  if (required === null || required === undefined) return undefined;
  return required.nodeSelectorTerms ?? [];
}

/**
 * True when the PV has no required node affinity, or one of its terms matches the labels
 * (terms are ORed, a term's expressions ANDed; an empty term list matches no node).
 */
export function volumeNodeAffinityMatches(
  pv: PersistentVolume,
  nodeLabels: Readonly<Record<string, string>>,
): boolean {
  const terms = requiredTerms(pv);
  if (terms === undefined) return true;
  // Upstream matches against a node with the labels and no name.
  const node = { name: '', labels: nodeLabels };
  return terms.some((t) => nodeSelectorTermMatches(t, node));
}

/** The labels of a Node object (empty when it has none). */
export function nodeLabels(node: KubeObject): Readonly<Record<string, string>> {
  return node.metadata?.labels ?? {};
}
