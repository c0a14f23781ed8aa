/**
 * Writes the flag lists into the docs from the flag tables (src/cli/flag-docs.ts): the text
 * between each `<!-- flags:NAME:begin -->` and `<!-- flags:NAME:end -->` pair. Run it after
 * changing a flag; src/cli/flag-docs.test.ts fails until the docs match.
 *
 *   node --import tsx scripts/gen-flag-docs.ts
 *
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FLAG_DOC_SECTIONS, withFlagDocs } from '../src/cli/flag-docs.js';

const root = fileURLToPath(new URL('..', import.meta.url));

for (const { file, name, table } of FLAG_DOC_SECTIONS) {
  const path = `${root}${file}`;
  const before = readFileSync(path, 'utf8');
  const after = withFlagDocs(before, name, table);
  if (after === before) {
    console.log(`${file}: flags:${name} up to date`);
  } else {
    writeFileSync(path, after);
    console.log(`${file}: flags:${name} written`);
  }
}
