#!/usr/bin/env node
// Runs the compiled CLI. `npm install` builds dist/ (the `prepare` script); running compiled
// JavaScript rather than a TypeScript loader keeps `fleetyard up` startup near 100 ms.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    'fleetyard: dist/ is missing; run `npm install` (or `npm run build`) first\n',
  );
  process.exit(1);
}
await import(entry.href);
