/**
 * Sets of completion indexes and their text form (upstream `indexed_job_utils.go`:
 * `orderedIntervals`, `String`): sorted, comma separated, runs of three or more as `a-b`
 * (`1,3-5,7`; two neighbours stay `3,4`).
 *
 * @module
 */
import { parseIndexIntervals } from '../../api/kinds/batch-job.js';

/** The indexes a status string holds (below `completions`; a malformed tail is dropped). */
export function parseIndexSet(text: string | undefined, completions: number): Set<number> {
  const out = new Set<number>();
  for (const [x, y] of parseIndexIntervals(text ?? '', completions).intervals) {
    for (let i = x; i <= y; i++) out.add(i);
  }
  return out;
}

/** The text form of a set of indexes. */
export function formatIndexSet(indexes: Iterable<number>): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const parts: string[] = [];
  let i = 0;
  while (i < sorted.length) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === (sorted[j] ?? 0) + 1) j++;
    const first = sorted[i] ?? 0;
    const last = sorted[j] ?? 0;
    if (j - i >= 2) parts.push(`${first}-${last}`);
    else for (let k = i; k <= j; k++) parts.push(String(sorted[k]));
    i = j + 1;
  }
  return parts.join(',');
}
