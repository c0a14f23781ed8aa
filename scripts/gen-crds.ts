/**
 * Writes the celld CustomResourceDefinitions to `deploy/crds/` from `src/operator/api/`.
 * A test (`src/operator/api/crds.test.ts`) fails when the checked-in files differ, so change
 * the TypeScript schema and rerun:
 *
 *     node --import tsx scripts/gen-crds.ts
 *
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { celldCrdFiles } from '../src/operator/api/crds.js';

const OUT = new URL('../deploy/crds/', import.meta.url);

mkdirSync(OUT, { recursive: true });
for (const [file, text] of Object.entries(celldCrdFiles())) {
  writeFileSync(new URL(file, OUT), text);
  console.log(`wrote deploy/crds/${file}`);
}
