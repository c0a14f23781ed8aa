/**
 * Upstream TaintToleration score (weight 3): fewer untolerated `PreferNoSchedule` taints is
 * better. Only tolerations with an empty or PreferNoSchedule effect count here.
 *
 * @module
 */
import { tolerationsTolerate } from '../tolerations.js';
import type { ScorePlugin } from '../types.js';
import { defaultNormalize } from './normalize.js';

export const taintTolerationScore: ScorePlugin = {
  name: 'TaintToleration',
  weight: 3,
  score(ctx, feasible) {
    const tolerations = (ctx.podSpec.tolerations ?? []).filter(
      (t) => !t.effect || t.effect === 'PreferNoSchedule',
    );
    const raw = new Map<string, number>();
    for (const node of feasible) {
      const intolerable = (node.spec.taints ?? []).filter(
        (t) => t.effect === 'PreferNoSchedule' && !tolerationsTolerate(tolerations, t),
      ).length;
      raw.set(node.name, intolerable);
    }
    return defaultNormalize(raw, true);
  },
};
