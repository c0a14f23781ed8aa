/**
 * Upstream `helper.DefaultNormalizeScore`: scale raw scores so the largest becomes 100, with
 * integer division; `reverse` turns "fewer is better" counts into scores (then all-zero raw
 * scores become 100 everywhere). Example: raw [0, 1, 3] → [0, 33, 100], reversed [100, 67, 0].
 *
 * @module
 */
import { MAX_NODE_SCORE } from '../types.js';

export function defaultNormalize(
  raw: ReadonlyMap<string, number>,
  reverse: boolean,
): Map<string, number> {
  let max = 0;
  for (const v of raw.values()) if (v > max) max = v;
  const out = new Map<string, number>();
  for (const [name, v] of raw) {
    if (max === 0) {
      out.set(name, reverse ? MAX_NODE_SCORE : v);
      continue;
    }
    const scaled = Math.trunc((MAX_NODE_SCORE * v) / max);
    out.set(name, reverse ? MAX_NODE_SCORE - scaled : scaled);
  }
  return out;
}
