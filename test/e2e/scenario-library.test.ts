/**
 * The library of stateful failures (`examples/scenarios/*.yaml`, issue 15 item 6), run the
 * way a user runs it: every file through `fleetyard scenario run` on a fresh simulated
 * cluster under a paused virtual clock. Each file is one test and must exit 0; on failure
 * the runner's whole timeline is the assertion message, so the failing step, the event
 * history of a violated invariant and the cluster's story are in the test report.
 *
 * The last test proves that the invariants are live, not decoration: it derives a variant of
 * `node-loss-force-delete.yaml` with one invariant that must break ("no web pod is ever
 * evicted"), and checks that the run fails at the eviction, 300 s after the node was marked
 * Unknown, with a readable event history and the remaining steps skipped.
 *
 * The runs are in-process (`runScenarioCommand`, as `scenario-cli.test.ts`); each file's
 * wall time is reported as a test diagnostic.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { runScenarioCommand } from '../../src/cli/scenario-command.js';

const LIBRARY = join(dirname(fileURLToPath(import.meta.url)), '../../examples/scenarios');

/** The 24-hour celld run is the long one: minutes of wall time on a loaded CI machine. */
const TIMEOUT_MS = 15 * 60_000;

async function run(...argv: string[]): Promise<{ code: number; out: string; wallMs: number }> {
  let out = '';
  const start = performance.now();
  const code = await runScenarioCommand(['run', ...argv], {
    stdout: (s) => {
      out += s;
    },
    stderr: (s) => {
      out += s;
    },
  });
  return { code, out, wallMs: performance.now() - start };
}

const files = (await readdir(LIBRARY)).filter((f) => f.endsWith('.yaml')).sort();

describe('the library of stateful failures (examples/scenarios)', () => {
  it('has the nine stories', () => {
    assert.deepEqual(files, [
      'celld-24h-random-failures.yaml',
      'celld-member-replaced.yaml',
      'celld-two-down.yaml',
      'crashloop-hour.yaml',
      'lost-volume.yaml',
      'node-loss-force-delete.yaml',
      'pdb-blocked-drain.yaml',
      'statefulset-forced-rollback.yaml',
      'zone-outage.yaml',
    ]);
  });

  for (const file of files) {
    it(`${file} runs green`, { timeout: TIMEOUT_MS }, async (t) => {
      const r = await run(join(LIBRARY, file));
      t.diagnostic(`${file}: ${(r.wallMs / 1000).toFixed(1)} s of wall time`);
      assert.equal(r.code, 0, `fleetyard scenario run ${file} exited ${r.code}:\n${r.out}`);
      assert.match(r.out, /\n--- PASS [^\n]+: (\d+)\/\1 steps, \d+ invariants, /);
    });
  }
});

/** Replaces a scenario's invariants by one that fails once a web pod is being deleted. */
function brokenVariant(text: string): string {
  const doc = parseDocument(text);
  doc.set('name', 'node-loss-broken');
  doc.set('description', 'Deliberately broken: claims that no web pod is ever evicted.');
  doc.set('invariants', [
    {
      name: 'no web pod is ever evicted',
      kind: 'Pod',
      namespace: 'default',
      selector: 'app=web',
      cel: 'objects.all(p, !has(p.metadata.deletionTimestamp))',
    },
  ]);
  return doc.toString();
}

describe('a deliberately broken invariant', () => {
  it('fails the run at the eviction with the event history around it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scenario-library-'));
    try {
      const source = await readFile(join(LIBRARY, 'node-loss-force-delete.yaml'), 'utf8');
      const file = join(dir, 'node-loss-broken.yaml');
      await writeFile(file, brokenVariant(source));
      const r = await run('--history', '8', file);
      assert.equal(r.code, 1, r.out);
      // Step 16 ("evicted") moves time to 00:05:55, when the toleration of the taint added at
      // 00:00:55 runs out and the taint-eviction controller deletes web-1.
      assert.match(
        r.out,
        /\n\[\+00:05:55\.000\] {3}VIOLATED invariant "no web pod is ever evicted": objects\.all\(p, !has\(p\.metadata\.deletionTimestamp\)\) is false \(3 objects\)\n/,
        r.out,
      );
      assert.match(
        r.out,
        /\n {4}invariant "no web pod is ever evicted" violated at \[\+00:05:55\.000\] during step 16\n {6}rule: objects\.all\(p, !has\(p\.metadata\.deletionTimestamp\)\)\n/,
        r.out,
      );
      assert.match(r.out, /\n {6}event history \(last 8 events\):\n/, r.out);
      assert.match(
        r.out,
        /\n {5}>> \[\+00:05:55\.000\] MODIFIED Pod default\/web-1 rv=\d+: Running, not ready, on fleetyard-node-2, Terminating\n {6}then:\n/,
        r.out,
      );
      assert.match(r.out, /\n--- FAIL node-loss-broken: 16\/\d+ steps, 1 invariants, /, r.out);
      // The steps after the violation are skipped: the force-delete never happens.
      assert.doesNotMatch(r.out, /\] step 17 /, r.out);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
