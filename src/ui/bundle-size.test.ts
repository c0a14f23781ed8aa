/**
 * The dashboard's bundle budget (issue 19): app.js plus styles.css, gzipped, at most 150 KB.
 * Runs after `npm run build`; a missing bundle fails (a budget that cannot be measured is
 * not met).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { gzipSync } from 'node:zlib';

const BUDGET = 150 * 1024;

it('dist/ui/app.js + styles.css gzipped fit in 150 KB', () => {
  let total = 0;
  for (const file of ['app.js', 'styles.css']) {
    const url = new URL(`../../dist/ui/${file}`, import.meta.url);
    let bytes: Buffer;
    try {
      bytes = readFileSync(url);
    } catch (err) {
      assert.fail(`dist/ui/${file} is missing: run npm run build first (${String(err)})`);
    }
    const gz = gzipSync(bytes, { level: 9 }).length;
    console.log(`dist/ui/${file}: ${bytes.length} bytes, ${gz} gzipped`);
    total += gz;
  }
  console.log(`dashboard bundle: ${total} bytes gzipped of ${BUDGET}`);
  assert.ok(total <= BUDGET, `${total} gzipped bytes exceed the ${BUDGET} byte budget`);
});
