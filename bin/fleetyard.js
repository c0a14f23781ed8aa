#!/usr/bin/env node
// Runs the bundled CLI. `npm install` builds dist/ (the `prepare` script, scripts/build.mjs);
// one bundled file rather than a TypeScript loader or ~300 modules keeps startup near 150 ms.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/fleetyard.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    'fleetyard: dist/ is missing; run `npm install` (or `npm run build`) first\n',
  );
  process.exit(1);
}
await import(entry.href);
