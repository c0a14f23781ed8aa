/**
 * Startup: from `spawn` of `node bin/fleetyard.js up --ephemeral` to the first HTTP 200 from
 * `GET /readyz`, polled every 2 ms over HTTPS with the cluster's CA (a new connection per
 * poll, as a readiness probe would). The data dir is initialised beforehand, so the CA and
 * serving certificate exist (the normal restart case); first-time startup, which also
 * generates the keys, is measured as context, and so is `node -e 0`, the floor.
 *
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { FLEETYARD_BIN } from '../test/e2e/testing/cluster.js';
import { removeDir, stopChild, tempDir, track } from './lib/cleanup.js';
import { contentionNote, cpuWindow, type Kept, quietRuns } from './lib/contention.js';
import { type BenchOptions, freePort, round, sleep } from './lib/options.js';
import { type BenchRow, median } from './lib/report.js';

const TARGET_MS = 250;
const POLL_MS = 2;
const GIVE_UP_MS = 15_000;

interface Start {
  readonly ms: number;
  /** Spawn → every simulated node (3 by default) Ready, i.e. a cluster pods can run on. */
  readonly clusterMs?: number;
  /** Cores other processes used meanwhile (lib/contention.ts). */
  readonly others: number;
}

/**
 * `node -e 0` exits before its CPU time can be read, so contention is judged over the
 * 200 ms just before the spawn instead.
 */
async function nodeFloorOnce(): Promise<Start> {
  const before = cpuWindow([]);
  await sleep(200);
  const others = before();
  const ms = await new Promise<number>((resolve, reject) => {
    const t0 = performance.now();
    const child = track(spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' }));
    child.once('error', reject);
    child.once('exit', () => resolve(performance.now() - t0));
  });
  return { ms, others };
}

/** One GET /readyz on a fresh connection: the status, or 0 when it could not connect. */
function readyz(port: number, ca: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/readyz', ca, agent: false, timeout: 2000 },
      (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(0));
    req.end();
  });
}

/** How many of the nodes are Ready (0 on any error), read with the data dir's token. */
function readyNodes(port: number, ca: string, token: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/v1/nodes',
        ca,
        agent: false,
        timeout: 2000,
        headers: { authorization: `Bearer ${token}` },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
        });
        res.once('end', () => {
          try {
            const list = JSON.parse(body) as {
              items?: { status?: { conditions?: { type: string; status: string }[] } }[];
            };
            const ready = (list.items ?? []).filter((n) =>
              n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
            );
            resolve(ready.length);
          } catch {
            resolve(0);
          }
        });
      },
    );
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(0));
    req.end();
  });
}

/** The default cluster's node count. */
const NODES = 3;

async function startOnce(dataDir: string, ca: () => string): Promise<Start> {
  const port = await freePort();
  const t0 = performance.now();
  const child: ChildProcess = track(
    spawn(
      process.execPath,
      [
        FLEETYARD_BIN,
        'up',
        '--data-dir',
        dataDir,
        '--port',
        String(port),
        '--ephemeral',
        '--log-level',
        'warn',
      ],
      { stdio: 'ignore' },
    ),
  );
  const others = cpuWindow([child.pid!]);
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`fleetyard up exited with ${child.exitCode}`);
      if (performance.now() - t0 > GIVE_UP_MS)
        throw new Error('fleetyard up: no 200 from /readyz in 15 s');
      // First-time runs create the CA while we poll; until it exists there is nothing to trust.
      let caPem: string;
      try {
        caPem = ca();
      } catch {
        await sleep(POLL_MS);
        continue;
      }
      if ((await readyz(port, caPem)) === 200) {
        const ms = performance.now() - t0;
        const token = readFileSync(join(dataDir, 'token'), 'utf8').trim();
        while ((await readyNodes(port, caPem, token)) < NODES) {
          if (performance.now() - t0 > GIVE_UP_MS) throw new Error('nodes not Ready in 15 s');
          await sleep(POLL_MS);
        }
        return { ms, clusterMs: performance.now() - t0, others: others() };
      }
      await sleep(POLL_MS);
    }
  } finally {
    await stopChild(child);
  }
}

export async function benchStartup(options: BenchOptions): Promise<BenchRow[]> {
  const warmRuns = options.quick ? 5 : 10;
  const firstRuns = options.quick ? 3 : 5;
  const othersOf = (r: Start) => r.others;
  const floor = await quietRuns(warmRuns, nodeFloorOnce, othersOf, options.log);

  const first = await quietRuns(
    firstRuns,
    async () => {
      const dir = tempDir('fleetyard-bench-start-');
      try {
        return await startOnce(dir, () => readFileSync(join(dir, 'pki', 'ca.crt'), 'utf8'));
      } finally {
        removeDir(dir);
      }
    },
    othersOf,
    options.log,
  );

  const dir = tempDir('fleetyard-bench-start-');
  let warm: Kept<Start>;
  try {
    await startOnce(dir, () => readFileSync(join(dir, 'pki', 'ca.crt'), 'utf8'));
    const ca = readFileSync(join(dir, 'pki', 'ca.crt'), 'utf8');
    warm = await quietRuns(warmRuns, () => startOnce(dir, () => ca), othersOf, options.log);
  } finally {
    removeDir(dir);
  }
  const ms = (k: Kept<Start>) => k.runs.map((r) => r.ms);
  const clusterMs = (k: Kept<Start>) => k.runs.map((r) => r.clusterMs ?? Number.NaN);
  options.log(
    `  warm starts: ${ms(warm)
      .map((x) => x.toFixed(0))
      .join(' ')} ms`,
  );
  const m = median(ms(warm));
  return [
    {
      name: 'startup: spawn → /readyz 200 (--ephemeral, initialised data dir)',
      value: round(m),
      unit: 'ms',
      runs: ms(warm).map(round),
      target: `<= ${TARGET_MS}`,
      met: m <= TARGET_MS,
      note: `median of ${warmRuns} starts, /readyz polled every ${POLL_MS} ms over HTTPS with the CA; ${contentionNote(warm)}`,
    },
    {
      name: 'startup: spawn → 3 simulated nodes Ready (the whole cluster)',
      value: round(median(clusterMs(warm))),
      unit: 'ms',
      runs: clusterMs(warm).map(round),
      target: '<= 1000',
      met: median(clusterMs(warm)) <= 1000,
      note: 'GET /api/v1/nodes polled after /readyz answered; the controller thread starts beside the API server',
    },
    {
      name: 'startup, first time (creates CA, certificate, token)',
      value: round(median(ms(first))),
      unit: 'ms',
      runs: ms(first).map(round),
    },
    {
      name: 'node -e 0 (the floor)',
      value: round(median(ms(floor))),
      unit: 'ms',
      runs: ms(floor).map(round),
    },
  ];
}
