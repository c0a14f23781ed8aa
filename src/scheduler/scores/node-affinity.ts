/**
 * Upstream NodeAffinity score (weight 2): the sum of the weights of the preferred node
 * affinity terms a node matches, normalised so the best node scores 100.
 *
 * @module
 */
import { nodeSelectorTermMatches } from '../node-selector.js';
import type { ScorePlugin } from '../types.js';
import { defaultNormalize } from './normalize.js';

export const nodeAffinityScore: ScorePlugin = {
  name: 'NodeAffinity',
  weight: 2,
  score(ctx, feasible) {
    const terms =
      ctx.podSpec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
    if (terms.length === 0) return null;
    const raw = new Map<string, number>();
    for (const node of feasible) {
      let sum = 0;
      for (const t of terms) {
        if (t.weight !== 0 && nodeSelectorTermMatches(t.preference, node)) sum += t.weight;
      }
      raw.set(node.name, sum);
    }
    return defaultNormalize(raw, false);
  },
};
