/**
 * The hostile-input fuzz bench, shared by the API server's suite (built-in kinds,
 * `../hostile-input.test.ts`) and apiextensions' (custom resources,
 * `src/apiextensions/hostile-input.test.ts`): generated requests with large effects, each
 * answered below 500 in bounded time and heap growth while a concurrent client's GET keeps
 * being answered. The figures are printed at the end of a run.
 *
 * @module
 */
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import fc from 'fast-check';
import type { TestResponse, TestServer } from './test-server.js';

v8.setFlagsFromString('--expose-gc');
const gc: unknown = vm.runInNewContext('gc');

/** Generous: the machine is shared (2 cores); requests take milliseconds to a second idle. */
const MAX_LATENCY_MS = 10_000;
const MAX_HEAP_GROWTH_MB = 256;

export interface HostileCase {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly raw?: string;
  readonly contentType?: string;
  /** The statuses allowed (all below 500); default: any 4xx. */
  readonly expect?: readonly number[];
}

/** A JSON object `d` levels deep. */
export const nestedJson = (d: number): string => `${'{"a":'.repeat(d - 1)}{}${'}'.repeat(d - 1)}`;
/** A YAML flow sequence `d` levels deep. */
export const nestedFlowYaml = (d: number): string => `${'['.repeat(d)}${']'.repeat(d)}`;

/** Sends one case as it is written. */
export function sendCase(t: TestServer, c: HostileCase): Promise<TestResponse> {
  return t.request(c.method, c.path, {
    ...(c.raw !== undefined ? { raw: c.raw } : {}),
    ...(c.contentType !== undefined ? { contentType: c.contentType } : {}),
  });
}

export interface HostileRun {
  readonly seed: number;
  readonly numRuns: number;
  /** What the concurrent client GETs (it must answer 200 throughout). */
  readonly getPath: string;
  /** Runs after a case answered 201 (to remove what it created). */
  readonly created?: () => Promise<unknown>;
}

/** Runs `numRuns` generated cases; asserts each answer and the concurrent client's. */
export async function runHostileCases(
  t: TestServer,
  arbCase: fc.Arbitrary<HostileCase>,
  run: HostileRun,
): Promise<void> {
  if (typeof gc !== 'function') throw new Error('--expose-gc did not expose gc()');
  let worstLatency = 0;
  let worstHeap = 0;
  let worstName = '';
  let cases = 0;
  // The concurrent client: one GET at a time, as long as the fuzzing runs.
  let running = true;
  let gets = 0;
  let worstGet = 0;
  const getter = (async () => {
    while (running) {
      const start = performance.now();
      const r = await t.request('GET', run.getPath);
      assert.equal(r.status, 200);
      worstGet = Math.max(worstGet, performance.now() - start);
      gets++;
      await new Promise((res) => setTimeout(res, 20));
    }
  })();
  const started = performance.now();
  try {
    await fc.assert(
      fc.asyncProperty(arbCase, async (c) => {
        gc();
        const heapBefore = process.memoryUsage().heapUsed;
        const start = performance.now();
        const r = await sendCase(t, c);
        const latency = performance.now() - start;
        const heap = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
        cases++;
        if (latency > worstLatency) {
          worstLatency = latency;
          worstName = c.name;
        }
        worstHeap = Math.max(worstHeap, heap);
        assert.ok(r.status < 500, `${c.name}: ${r.status} ${r.text.slice(0, 300)}`);
        if (c.expect)
          assert.ok(c.expect.includes(r.status), `${c.name}: ${r.status} ${r.text.slice(0, 300)}`);
        else assert.ok(r.status >= 400, `${c.name}: ${r.status}`);
        assert.ok(latency < MAX_LATENCY_MS, `${c.name}: ${latency} ms`);
        assert.ok(heap < MAX_HEAP_GROWTH_MB, `${c.name}: heap grew ${heap} MB`);
        if (r.status === 201) await run.created?.();
      }),
      { seed: run.seed, numRuns: run.numRuns, endOnFailure: true },
    );
  } finally {
    running = false;
    await getter;
  }
  const total = performance.now() - started;
  assert.ok(gets > 0, 'the concurrent GET was never answered');
  assert.ok(worstGet < MAX_LATENCY_MS, `a concurrent GET waited ${worstGet} ms`);
  console.log(
    `hostile input: ${cases} cases in ${Math.round(total)} ms; worst latency ${Math.round(worstLatency)} ms (${worstName}); worst heap growth ${worstHeap.toFixed(1)} MB per request; ${gets} concurrent GETs, worst ${Math.round(worstGet)} ms`,
  );
}

/** The regression of a deep case: 400 with the decoder's text, never a stack overflow. */
export async function assertRefusedDeep(t: TestServer, c: HostileCase): Promise<void> {
  const r = await sendCase(t, c);
  assert.equal(r.status, 400, r.text.slice(0, 300));
  assert.match(
    String(r.body.message),
    c.name.includes('10001') ? /exceeded max depth/ : /more than 500 levels deep/,
  );
}
