/**
 * `npm run bench`: every benchmark group, then one table of figures with their targets.
 *
 *   npm run bench                          # the full, honest run (~5 minutes on a quiet machine)
 *   npm run bench -- --quick               # fewer, shorter runs while developing
 *   npm run bench -- --only api-writes     # one group (comma-separate several)
 *   npm run bench -- --json results.json   # also write the rows as JSON
 *   npm run bench -- --markdown table.md   # also write the table as Markdown (for docs)
 *   npm run bench -- --profile prof        # servers write V8 CPU profiles into ./prof
 *   npm run bench -- --scale               # the 1,000-node / 100,000-pod group (not in the default run)
 *   npm run bench -- --soak 48h            # the soak group for that much cluster time (not in the default run)
 *
 * Groups: storage (bench/storage.ts, when present), etcd, api-writes, startup, memory,
 * watch-fanout, table-render, kubectl-apply (and openapi-heap), workloads, statefulset, batch, operator, hostile,
 * fidelity, clock, dashboard. Servers and load generators only bind and target 127.0.0.1; every child
 * process and temp dir is removed at the end, on failure and on Ctrl-C.
 *
 * Exit code: 0 when every group ran (missed targets are results, not failures), 1 when a
 * group failed.
 *
 * @module
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ETCD_CEILING_ROW } from './etcd.js';
import { installCleanupHandlers } from './lib/cleanup.js';
import { profileServersInto } from './lib/fleetyard.js';
import { type BenchGroup, type BenchOptions, sleep } from './lib/options.js';
import { machineBusyCores, machineCpu } from './lib/proc.js';
import type { BenchRow } from './lib/report.js';
import { markdownTable, textTable } from './lib/table.js';

const STORAGE_FILE = new URL('./storage.ts', import.meta.url);
const STORAGE_ROW_PREFIX = 'durable writes/s (sqlite backend';
/** The target: the backend sustains at least 10× etcd's durable write ceiling. */
const BACKEND_OVER_ETCD = 10;

/** `bench/storage.ts` is another engineer's; it may not exist yet. */
async function storageGroup(): Promise<BenchRow[]> {
  if (!existsSync(STORAGE_FILE)) {
    return [
      {
        name: `${STORAGE_ROW_PREFIX})`,
        value: Number.NaN,
        unit: 'writes/s',
        note: 'bench/storage.ts is missing: storage figures not measured',
      },
    ];
  }
  const mod = (await import(STORAGE_FILE.href)) as { benchStorage?: () => Promise<BenchRow[]> };
  if (typeof mod.benchStorage !== 'function')
    throw new Error('bench/storage.ts exports no benchStorage()');
  return mod.benchStorage();
}

const GROUPS: Record<string, () => Promise<BenchGroup>> = {
  storage: async () => storageGroup,
  etcd: async () => (await import('./etcd.js')).benchEtcd,
  'api-writes': async () => (await import('./api-writes.js')).benchApiWrites,
  startup: async () => (await import('./startup.js')).benchStartup,
  memory: async () => (await import('./memory.js')).benchMemory,
  'watch-fanout': async () => (await import('./watch-fanout.js')).benchWatchFanout,
  'table-render': async () => (await import('./table-render.js')).benchTableRender,
  'kubectl-apply': async () => (await import('./kubectl-apply.js')).benchKubectlApply,
  'openapi-heap': async () => (await import('./openapi-heap.js')).benchOpenApiHeap,
  workloads: async () => (await import('./workloads.js')).benchWorkloads,
  statefulset: async () => (await import('./statefulset.js')).benchStatefulSet,
  batch: async () => (await import('./batch.js')).benchBatch,
  authz: async () => (await import('./authz.js')).benchAuthz,
  operator: async () => (await import('./operator.js')).benchOperator,
  hostile: async () => (await import('./hostile.js')).benchHostile,
  fidelity: async () => (await import('./fidelity.js')).benchFidelity,
  clock: async () => (await import('./clock.js')).benchClock,
  dashboard: async () => (await import('./dashboard.js')).benchDashboard,
};

/** Groups too long for the default run: chosen by their own flag (`--scale`, `--soak D`). */
const OPT_IN_GROUPS: Record<string, () => Promise<BenchGroup>> = {
  scale: async () => (await import('./scale.js')).benchScale,
  soak: async () => (await import('./soak.js')).benchSoak,
};

/** A group of the default run or an opt-in one (names are checked by parseOptions). */
function loadGroup(name: string): Promise<BenchGroup> {
  const load = GROUPS[name] ?? OPT_IN_GROUPS[name];
  if (load === undefined) throw new Error(`unknown group ${name}`);
  return load();
}

/** fleetyard's backend writes/s over etcd's ceiling, when both were measured. */
function ratioRow(rows: readonly BenchRow[]): BenchRow | undefined {
  const backend = rows.find((r) => r.name.startsWith(STORAGE_ROW_PREFIX));
  const etcd = rows.find((r) => r.name === ETCD_CEILING_ROW);
  if (backend === undefined || etcd === undefined) return undefined;
  const ratio = backend.value / etcd.value;
  const known = Number.isFinite(ratio);
  return {
    name: 'sqlite backend writes/s ÷ etcd ceiling',
    value: known ? Number(ratio.toFixed(2)) : Number.NaN,
    unit: '×',
    target: `>= ${BACKEND_OVER_ETCD}`,
    ...(known ? { met: ratio >= BACKEND_OVER_ETCD } : {}),
    note: known
      ? `${backend.value} ÷ ${etcd.value} (medians)`
      : 'one side was not measured (see its row)',
  };
}

/** Other processes may share this machine (other engineers' test runs use whole cores). */
const QUIET_CORES = 0.3;
const QUIET_WAIT_MS = 120_000;

async function busyCoresOverOneSecond(): Promise<number> {
  const before = machineCpu();
  await sleep(1000);
  return machineBusyCores(before, machineCpu());
}

/**
 * Waits (full runs only, up to 2 minutes) until the machine is nearly idle before a group, so
 * figures measure fleetyard rather than whatever else runs; returns the busy cores seen last.
 */
async function waitForQuiet(options: BenchOptions): Promise<number> {
  const deadline = performance.now() + (options.quick ? 0 : QUIET_WAIT_MS);
  let busy = await busyCoresOverOneSecond();
  while (busy > QUIET_CORES && performance.now() < deadline) {
    options.log(
      `  machine busy (${busy.toFixed(2)} cores used by other processes); waiting for it to settle`,
    );
    await sleep(4000);
    busy = await busyCoresOverOneSecond();
  }
  return busy;
}

function machineLine(): string {
  const model =
    /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? 'unknown';
  return `${cpus().length} cores (${model}), node ${process.version}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}, ${new Date().toISOString()}`;
}

interface Outputs {
  readonly json: string | undefined;
  readonly markdown: string | undefined;
}

function parseOptions(): { only: string[]; options: BenchOptions; outputs: Outputs } {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      quick: { type: 'boolean', default: false },
      json: { type: 'string' },
      markdown: { type: 'string' },
      profile: { type: 'string' },
      scale: { type: 'boolean', default: false },
      soak: { type: 'string' },
    },
    strict: true,
  });
  const optIn = [
    ...(values.scale ? ['scale'] : []),
    ...(values.soak !== undefined ? ['soak'] : []),
  ];
  const only = values.only
    ? values.only.split(',').map((s) => s.trim())
    : optIn.length > 0
      ? optIn
      : Object.keys(GROUPS);
  for (const name of only) {
    if (!(name in GROUPS) && !(name in OPT_IN_GROUPS))
      throw new Error(`unknown group ${name}; groups: ${Object.keys(GROUPS).join(', ')}`);
  }
  const log = (line: string): void => {
    process.stderr.write(`${line}\n`);
  };
  if (values.profile !== undefined) profileServersInto(resolve(values.profile));
  return {
    only,
    options: {
      quick: values.quick,
      log,
      ...(values.soak !== undefined ? { soakDuration: values.soak } : {}),
    },
    outputs: { json: values.json, markdown: values.markdown },
  };
}

async function main(): Promise<number> {
  const { only, options, outputs } = parseOptions();
  installCleanupHandlers();
  const machine = machineLine();
  options.log(`bench: ${machine}${options.quick ? ' (quick: fewer, shorter runs)' : ''}`);
  const rows: BenchRow[] = [];
  const background: string[] = [];
  let failed = false;
  for (const name of only) {
    const busy = await waitForQuiet(options);
    background.push(`${name} ${busy.toFixed(2)}`);
    const started = performance.now();
    options.log(`== ${name} (machine busy before: ${busy.toFixed(2)} cores)`);
    try {
      const group = await loadGroup(name);
      rows.push(...(await group(options)));
    } catch (e) {
      failed = true;
      const message = e instanceof Error ? e.message : String(e);
      options.log(`${name} failed: ${e instanceof Error ? e.stack : message}`);
      rows.push({
        name: `${name}: failed`,
        value: Number.NaN,
        unit: '',
        note: message.slice(0, 500),
      });
    }
    options.log(`== ${name} done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    if (name === 'etcd' || name === 'storage') {
      const ratio = ratioRow(rows);
      if (ratio && !rows.some((r) => r.name === ratio.name)) rows.push(ratio);
    }
  }
  const backgroundLine = `background: cores busy with other processes in the second before each group: ${background.join(', ')}`;
  process.stdout.write(`\n${textTable(rows)}\n\n${backgroundLine}\n`);
  if (outputs.json !== undefined) {
    const doc = { machine, background: backgroundLine, rows };
    writeFileSync(outputs.json, `${JSON.stringify(doc, null, 2)}\n`);
  }
  if (outputs.markdown !== undefined) {
    writeFileSync(outputs.markdown, `${markdownTable(rows)}\n\n${backgroundLine}\n`);
  }
  return failed ? 1 : 0;
}

// Exit explicitly: a stray keep-alive handle must not keep a finished run alive.
process.exit(await main());
