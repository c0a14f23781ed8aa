/**
 * Golden-file assertions for the kubelet tests. Goldens live in `src/sim/kubelet/testdata/golden/<name>.json`
 * (repository-relative). To regenerate after an intended behaviour change, run the tests with
 * `UPDATE_GOLDEN=1` (e.g. `UPDATE_GOLDEN=1 node --import tsx --test src/sim/kubelet/*.test.ts`),
 * then review the diff before committing.
 *
 * @module
 */

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const GOLDEN_DIR = new URL('../testdata/golden/', import.meta.url);

/** Compares `value` (as JSON) with the golden `name`, or rewrites it when UPDATE_GOLDEN=1. */
export function assertGolden(name: string, value: unknown): void {
  const file = fileURLToPath(new URL(`${name}.json`, GOLDEN_DIR));
  const text = `${JSON.stringify(value, null, 2)}\n`;
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return;
  }
  assert.ok(existsSync(file), `golden ${name}.json missing: run with UPDATE_GOLDEN=1`);
  assert.deepEqual(
    JSON.parse(text),
    JSON.parse(readFileSync(file, 'utf8')),
    `golden ${name}.json differs`,
  );
}
