import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { modelFiles, readComponents } from '../../../scripts/gen-api-types.js';

const REGENERATE = 'regenerate with `node --import tsx scripts/gen-builtin-schemas.ts`';

/** The first line where two texts differ, so a failure names it instead of printing 5,000 lines. */
function firstDifference(a: string, b: string): string {
  const left = a.split('\n');
  const right = b.split('\n');
  const at = left.findIndex((line, i) => line !== right[i]);
  const line = at < 0 ? left.length : at;
  return `line ${line + 1}: committed ${JSON.stringify(left[line])}, generator ${JSON.stringify(right[line])}`;
}

describe('the generated model is the generator output (no hand edits)', () => {
  const files = modelFiles(readComponents());

  for (const [file, want] of files) {
    it(file, () => {
      const have = readFileSync(new URL(file, import.meta.url), 'utf8');
      assert.ok(have === want, `${file} differs, ${firstDifference(have, want)}: ${REGENERATE}`);
    });
  }

  it('holds no generated file the generator does not write', () => {
    const generated = readdirSync(new URL('.', import.meta.url)).filter((f) =>
      f.endsWith('.generated.ts'),
    );
    assert.deepEqual(generated.sort(), [...files.keys()].sort());
  });
});
