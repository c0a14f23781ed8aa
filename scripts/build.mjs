// Builds dist/: one bundled ESM file for the CLI and one for the SQLite commit worker.
// A bundle starts in about half the time of the same code as ~300 separate modules (Node
// spends most of a cold start resolving and reading files), which is what keeps
// `fleetyard up` under its 250 ms startup target. Type-checking is `tsc` (npm test).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: {
    fleetyard: 'src/cli/main.ts',
    // `fleetyard/testing` (package.json exports): startCluster for users' own tests.
    testing: 'src/harness/index.ts',
    // Loaded by src/storage/sqlite/commit-thread.ts as `./commit-worker.js` next to the bundle.
    'commit-worker': 'src/storage/sqlite/commit-worker.ts',
    // Loaded by src/cluster/controller-thread.ts as `./controller-worker.js`: the controller manager's thread.
    'controller-worker': 'src/cluster/controller-worker.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  // Modules reached only through import() (the SQLite backend, protobuf and YAML decoding)
  // become chunks loaded on first use, so an `--ephemeral` start never reads them.
  splitting: true,
  // Chunks sit beside the entry points: the SQLite backend finds `./commit-worker.js` next
  // to itself.
  chunkNames: '[name]-[hash]',
  logLevel: 'warning',
  // Native code, and the X.509 library that is only loaded when certificates are made.
  external: ['better-sqlite3', '@peculiar/x509', 'reflect-metadata'],
  // CommonJS dependencies bundled into ESM still call require() for Node built-ins.
  banner: {
    js: "import { createRequire as __fyCreateRequire } from 'node:module'; const require = __fyCreateRequire(import.meta.url);",
  },
});

// The dashboard (`/ui/` of `fleetyard up`, src/apiserver/dashboard/): one browser bundle
// beside its page and stylesheet in dist/ui/, served from there with no CDN. Preact's JSX.
await build({
  entryPoints: { app: 'src/ui/main.tsx' },
  outdir: 'dist/ui',
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  logLevel: 'warning',
});
mkdirSync(new URL('../dist/ui', import.meta.url), { recursive: true });
for (const file of ['index.html', 'styles.css']) {
  copyFileSync(
    new URL(`../src/ui/${file}`, import.meta.url),
    new URL(`../dist/ui/${file}`, import.meta.url),
  );
}

// The types of `fleetyard/testing` (dist/types/harness/index.d.ts): declarations only.
const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.types.json'], { stdio: 'inherit' });
