/**
 * Heap cost of the OpenAPI surface: loading the built-in schemas, then building every
 * document (v3 root and each group-version, v2 JSON and protobuf) for the built-in kinds plus
 * one custom resource. Measured in a fresh child process run with `--expose-gc`: the code is
 * imported first, then `process.memoryUsage()` is read after two full collections before and
 * after each step, with everything built kept reachable. "Buffers" are the serialised
 * documents, held outside the JavaScript heap (`arrayBuffers`); the target counts both.
 *
 * Until `src/api/schema/builtin/index.ts` exists the schemas are the small test fixture set,
 * and the rows say so.
 *
 * Run alone: `node --import tsx bench/openapi-heap.ts`.
 *
 * @module
 */
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { track } from './lib/cleanup.js';
import type { BenchOptions } from './lib/options.js';
import { type BenchRow, median } from './lib/report.js';

const CHILD_FLAG = '--openapi-heap-child';
const TARGET_MB = 5;
const BUILTIN_LOADER = new URL('../src/api/schema/builtin/index.ts', import.meta.url);

interface HeapSample {
  readonly heapUsed: number;
  readonly arrayBuffers: number;
}

interface ChildResult {
  readonly realSchemas: boolean;
  readonly schemaHeap: number;
  readonly schemaBuffers: number;
  readonly documentsHeap: number;
  readonly documentsBuffers: number;
  readonly documentBytes: number;
  readonly documents: number;
  readonly largest: { readonly key: string; readonly bytes: number };
}

function sample(): HeapSample {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with --expose-gc');
  gc();
  gc();
  const m = process.memoryUsage();
  return { heapUsed: m.heapUsed, arrayBuffers: m.arrayBuffers };
}

/** The child: import, measure, load, measure, build, measure; send the figures. */
async function child(): Promise<ChildResult> {
  const { createBuiltinResources } = await import('../src/api/kinds/index.js');
  const { ResourceRegistry } = await import('../src/apiserver/registry.js');
  const { createOpenApiService } = await import('../src/apiserver/openapi/index.js');
  const { fixtureSchemas } = await import('../src/apiserver/openapi/testing/fixture-schemas.js');
  const { widgetDefinition } = await import('../src/apiserver/openapi/testing/document-checks.js');
  type Loaded = import('../src/apiserver/openapi/types.js').BuiltinSchemaSet;
  const builtins = createBuiltinResources();
  const realSchemas = existsSync(BUILTIN_LOADER);

  const s0 = sample();
  const schemas: Loaded = realSchemas
    ? await (
        (await import(BUILTIN_LOADER.href)) as { loadBuiltinSchemas(): Promise<Loaded> }
      ).loadBuiltinSchemas()
    : fixtureSchemas(builtins);
  const s1 = sample();
  const registry = new ResourceRegistry([...builtins, widgetDefinition()]);
  const service = createOpenApiService({ registry, loadBuiltinSchemas: async () => schemas });
  const snap = await service.snapshot();
  const s2 = sample();

  const sizes = [...snap.groupVersions].map(([key, d]) => ({ key, bytes: d.json.length }));
  sizes.push({ key: '/openapi/v3', bytes: snap.root.json.length });
  sizes.push({ key: '/openapi/v2 (JSON)', bytes: snap.v2Json.length });
  sizes.push({ key: '/openapi/v2 (protobuf)', bytes: snap.v2Protobuf.length });
  const largest = sizes.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  const result: ChildResult = {
    realSchemas,
    schemaHeap: s1.heapUsed - s0.heapUsed,
    schemaBuffers: s1.arrayBuffers - s0.arrayBuffers,
    documentsHeap: s2.heapUsed - s1.heapUsed,
    documentsBuffers: s2.arrayBuffers - s1.arrayBuffers,
    documentBytes: sizes.reduce((n, s) => n + s.bytes, 0),
    documents: sizes.length,
    largest,
  };
  // Keep everything measured reachable until the figures are taken.
  if (snap.groupVersions.size === 0 || schemas.components === undefined)
    throw new Error('nothing built');
  return result;
}

function runChild(): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const proc = track(
      fork(fileURLToPath(import.meta.url), [CHILD_FLAG], {
        execArgv: ['--expose-gc', '--import', 'tsx'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      }),
    );
    let result: ChildResult | undefined;
    proc.on('message', (m: ChildResult | { error: string }) => {
      if ('error' in m) reject(new Error(m.error));
      else result = m;
    });
    proc.on('error', reject);
    proc.on('exit', (code) => {
      if (result) resolve(result);
      else reject(new Error(`openapi heap child exited with ${code}`));
    });
  });
}

const mb = (bytes: number): number => Number((bytes / 2 ** 20).toFixed(2));

export async function benchOpenApiHeap(options?: BenchOptions): Promise<BenchRow[]> {
  const runs: ChildResult[] = [];
  for (let i = 0; i < (options?.quick ? 1 : 3); i++) {
    const r = await runChild();
    options?.log(
      `  run ${i + 1}: schemas ${mb(r.schemaHeap)} MB heap, documents ${mb(r.documentsHeap)} MB heap + ${mb(r.documentsBuffers)} MB buffers, ${r.documents} documents ${(r.documentBytes / 1024).toFixed(0)} KiB`,
    );
    runs.push(r);
  }
  const last = runs.at(-1)!;
  const source = last.realSchemas
    ? 'generated built-in schemas'
    : 'FIXTURE schemas (builtin loader missing)';
  const schemaMb = runs.map((r) => mb(r.schemaHeap + r.schemaBuffers));
  const docsMb = runs.map((r) => mb(r.documentsHeap + r.documentsBuffers));
  const totalMb = runs.map((r) =>
    mb(r.schemaHeap + r.schemaBuffers + r.documentsHeap + r.documentsBuffers),
  );
  return [
    {
      name: 'OpenAPI: built-in schemas loaded (heap + buffers)',
      value: median(schemaMb),
      unit: 'MB',
      runs: schemaMb,
      note: source,
    },
    {
      name: 'OpenAPI: every document built (heap + buffers)',
      value: median(docsMb),
      unit: 'MB',
      runs: docsMb,
      note: `of which serialised documents outside the heap ${mb(last.documentsBuffers)} MB (last run)`,
    },
    {
      name: 'OpenAPI: total memory (schemas + documents)',
      value: median(totalMb),
      unit: 'MB',
      runs: totalMb,
      target: `<= ${TARGET_MB}`,
      met: median(totalMb) <= TARGET_MB,
      note: source,
    },
    {
      name: 'OpenAPI: bytes of all documents',
      value: Math.round(last.documentBytes / 1024),
      unit: 'KiB',
      note: `${last.documents} documents (v3 root and group-versions, v2 JSON and protobuf); largest ${last.largest.key} ${(last.largest.bytes / 1024).toFixed(0)} KiB`,
    },
  ];
}

if (process.argv.includes(CHILD_FLAG)) {
  child().then(
    (r) => process.send?.(r),
    (e: unknown) =>
      process.send?.({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
  );
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  benchOpenApiHeap({ quick: false, log: (l) => console.error(l) }).then(
    (rows) => console.log(JSON.stringify(rows, null, 2)),
    (e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
