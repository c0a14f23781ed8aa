/**
 * A scheduling-gated pod's required node affinity may narrow (upstream's mutable scheduling
 * directives, KEP-3838, GA in v1.30; `validateNodeAffinityMutation` in ValidatePodUpdate): set
 * when it had none or no terms; otherwise the same number of terms, each term's
 * `matchExpressions` and `matchFields` keeping the old requirements as a prefix. Preferred
 * terms may change freely. A controller narrows where a pod may go before it lifts the gate
 * (the celld operator keeps fresh members off the nodes that kept disks need).
 *
 * @module
 */
import { type FieldError, fieldErrors } from '../field-error.js';
import { SPEC, semanticEqual } from './common.js';
import { getObj, type JsonObject, objects } from './json.js';

const AFFINITY = SPEC.child('affinity').child('nodeAffinity');
const TERMS = AFFINITY.child('requiredDuringSchedulingIgnoredDuringExecution').child(
  'nodeSelectorTerms',
);

function nodeAffinityOf(spec: JsonObject): JsonObject | undefined {
  return getObj(getObj(spec, 'affinity'), 'nodeAffinity');
}

function requiredTerms(nodeAffinity: JsonObject | undefined): JsonObject[] | undefined {
  const required = getObj(nodeAffinity, 'requiredDuringSchedulingIgnoredDuringExecution');
  return required === undefined ? undefined : objects(required, 'nodeSelectorTerms');
}

function onlyAdded(next: JsonObject, old: JsonObject, key: string): boolean {
  const before = objects(old, key);
  const after = objects(next, key);
  return before.length <= after.length && semanticEqual(before, after.slice(0, before.length));
}

/** The errors of a gated pod's node-affinity change (none when it only narrowed). */
export function gatedNodeAffinityErrors(spec: JsonObject, oldSpec: JsonObject): FieldError[] {
  const oldTerms = requiredTerms(nodeAffinityOf(oldSpec));
  if (oldTerms === undefined || oldTerms.length === 0) return [];
  const newTerms = requiredTerms(nodeAffinityOf(spec)) ?? [];
  if (newTerms.length !== oldTerms.length) {
    return [
      fieldErrors.invalid(
        TERMS,
        newTerms,
        'no additions/deletions to non-empty NodeSelectorTerms list are allowed while pod is gated',
      ),
    ];
  }
  const errs: FieldError[] = [];
  oldTerms.forEach((old, i) => {
    const next = newTerms[i]!;
    for (const key of ['matchExpressions', 'matchFields']) {
      if (onlyAdded(next, old, key)) continue;
      errs.push(
        fieldErrors.invalid(
          TERMS.index(i),
          next,
          'only additions are allowed (no mutations or deletions)',
        ),
      );
    }
  });
  return errs;
}

/**
 * Upstream's munging of a gated pod's node affinity: whatever changed there is judged by
 * {@link gatedNodeAffinityErrors}, so the rest of the update is compared with the old value.
 */
export function mungeGatedNodeAffinity(munged: JsonObject, oldSpec: JsonObject): void {
  const oldNodeAffinity = nodeAffinityOf(oldSpec);
  if (semanticEqual(oldNodeAffinity, nodeAffinityOf(munged))) return;
  const affinity = getObj(munged, 'affinity');
  if (affinity === undefined) {
    if (oldNodeAffinity !== undefined) munged.affinity = { nodeAffinity: oldNodeAffinity };
    return;
  }
  if (
    getObj(oldSpec, 'affinity') === undefined &&
    !affinity.podAffinity &&
    !affinity.podAntiAffinity
  ) {
    delete munged.affinity;
    return;
  }
  if (oldNodeAffinity === undefined) delete affinity.nodeAffinity;
  else affinity.nodeAffinity = oldNodeAffinity;
}
