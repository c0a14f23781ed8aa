/**
 * Upstream `replica_calculator_test.go`'s fixture, rebuilt: pods `test-pod-<i>` with two
 * containers (`container1`, `container2`) requesting `requests[i]` each, Ready and Running unless
 * told otherwise, started at Go's zero time (or "hot": now, "cool": 3 min ago); samples per
 * container, read as the Metrics API client reads them (a pod's sum, or one container's).
 *
 * @module
 */
import type { Pod } from '../../../api/model/index.js';
import { formatTime } from '../../../api/time.js';
import { GO_ZERO_TIME_MS, type PodMetric, type ReadinessTiming } from '../replica-calculator.js';

/** A fixed "now" for the tables (upstream uses the wall clock). */
export const NOW = Date.parse('2026-01-01T00:00:00Z');
/** Upstream's testing timing: 2 min CPU initialization, 10 s initial readiness delay. */
export const TEST_TIMING: ReadinessTiming = {
  nowMs: NOW,
  cpuInitializationPeriodMs: 2 * 60_000,
  delayOfInitialReadinessStatusMs: 10_000,
};
export const TEST_TOLERANCES = { scaleDown: 0.1, scaleUp: 0.1 };

export type StartTime = 'zero' | 'hot' | 'cool';

export interface PodFixture {
  readonly current: number;
  readonly requests: readonly string[];
  readonly readiness?: readonly ('True' | 'False')[];
  readonly phase?: readonly string[];
  readonly deleting?: readonly boolean[];
  readonly start?: readonly StartTime[];
}

const GO_ZERO_ISO = '0001-01-01T00:00:00Z';

function startIso(s: StartTime | undefined): string {
  if (s === 'hot') return formatTime(NOW);
  if (s === 'cool') return formatTime(NOW - 3 * 60_000);
  return GO_ZERO_ISO;
}

/** The pods of a case (upstream `prepareTestClientSet`). */
export function fixturePods(f: PodFixture): Pod[] {
  const count = Math.max(f.current, f.phase?.length ?? 0);
  const pods: Pod[] = [];
  for (let i = 0; i < count; i++) {
    const request = f.requests[i];
    const resources = request === undefined ? {} : { requests: { cpu: request } };
    pods.push({
      metadata: {
        name: `test-pod-${i}`,
        namespace: 'test-namespace',
        labels: { name: 'test-pod' },
        ...(f.deleting?.[i] === true ? { deletionTimestamp: formatTime(NOW) } : {}),
      },
      spec: {
        containers: [
          { name: 'container1', resources },
          { name: 'container2', resources },
        ],
      },
      status: {
        phase: f.phase?.[i] ?? 'Running',
        startTime: startIso(f.start?.[i]),
        conditions: [{ type: 'Ready', status: f.readiness?.[i] ?? 'True' }],
      },
    });
  }
  return pods;
}

/** `makePodMetricLevels`: each pod's level for both of its containers. */
export function levels(...perPod: number[]): number[][] {
  return perPod.map((v) => [v, v]);
}

/**
 * The samples a case's Metrics API returns, read for `container` (`''`: the pod's sum; a pod
 * with fewer than two container samples has none, as upstream's client skips it).
 */
export function fixtureMetrics(
  perPod: readonly (readonly number[])[],
  container = '',
  podNames: readonly string[] = [],
): Map<string, PodMetric> {
  const out = new Map<string, PodMetric>();
  perPod.forEach((values, i) => {
    const name = podNames[i] ?? `test-pod-${i}`;
    const sample = (value: number) => ({ value, timestampMs: GO_ZERO_TIME_MS, windowMs: 60_000 });
    if (container === '') {
      if (values.length === 2) out.set(name, sample(values.reduce((a, b) => a + b, 0)));
      return;
    }
    const index = Number(container.replace('container', '')) - 1;
    const value = values[index];
    if (value !== undefined) out.set(name, sample(value));
  });
  return out;
}

/** One row of a {@link parseTable} table. */
export interface TableRow extends PodFixture {
  readonly name: string;
  /** Per pod, per container. */
  readonly levels: number[][];
  readonly container: string;
  readonly target: number;
  /** The expected numbers, or the expected error's start (a row whose want is `!text`). */
  readonly want: number[] | string;
}

function list(cell: string): string[] {
  return cell === '' || cell === '-' ? [] : cell.split(',');
}

const PHASES: Readonly<Record<string, string>> = { R: 'Running', P: 'Pending', F: 'Failed' };
const STARTS: Readonly<Record<string, StartTime>> = { z: 'zero', h: 'hot', c: 'cool' };

/** `300`: both containers; `1000/300`: one each; `=1000`: a sample for container1 only. */
function levelsOf(p: string): number[] {
  if (p.startsWith('=')) return [Number(p.slice(1))];
  return p.includes('/') ? p.split('/').map(Number) : [Number(p), Number(p)];
}

/**
 * Parses a `|`-separated table (a text block keeps upstream's cases one per line): name, current,
 * readiness (`TFF`), phases (`RRPF`), deleting (`0011`), starts (`zcch`), requests (`1.0,1.0` or
 * `1.0*3`), levels (`300,500`: both containers; `1000/300`: per container), container, target,
 * want (`5 50 1000`, or `!error text`). `-` is an empty cell; `#` starts a comment line.
 */
export function parseTable(text: string): TableRow[] {
  const rows: TableRow[] = [];
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t === '' || t.startsWith('#')) continue;
    const [
      name = '',
      cur = '',
      ready = '',
      phase = '',
      del = '',
      start = '',
      req = '',
      lv = '',
      ctr = '',
      target = '',
      want = '',
    ] = t.split('|').map((c) => c.trim());
    const cell = (c: string) => (c === '-' ? '' : c);
    const [reqValue = '', times] = cell(req).split('*');
    const requests =
      times !== undefined ? Array.from({ length: Number(times) }, () => reqValue) : list(req);
    rows.push({
      name,
      current: Number(cur),
      requests,
      ...(cell(ready) ? { readiness: [...ready].map((c) => (c === 'T' ? 'True' : 'False')) } : {}),
      ...(cell(phase) ? { phase: [...phase].map((c) => PHASES[c] ?? 'Running') } : {}),
      ...(cell(del) ? { deleting: [...del].map((c) => c === '1') } : {}),
      ...(cell(start) ? { start: [...start].map((c) => STARTS[c] ?? 'zero') } : {}),
      levels: list(lv).map(levelsOf),
      container: cell(ctr),
      target: Number(target),
      want: want.startsWith('!') ? want.slice(1) : want.split(/\s+/).map(Number),
    });
  }
  return rows;
}

/** The rows of a `|`-separated text table, cells trimmed; blank and `#` lines skipped. */
export function tableRows(text: string): string[][] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => l.split('|').map((c) => c.trim()));
}

/** `1,2,3` as numbers; `-` or empty as none. */
export function numbers(cell: string | undefined): number[] {
  return cell === undefined || cell === '' || cell === '-' ? [] : cell.split(',').map(Number);
}
