/**
 * The 24-hour celld scenario as a benchmark: `examples/scenarios/celld-24h-random-failures.yaml`
 * through the scenario runner (as `fleetyard scenario run` does), its wall time, and the
 * reconciles and writes the cluster did, read from `/metrics` just before the cluster stops.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { request } from 'node:https';
import { fileURLToPath } from 'node:url';
import { loadKubeconfigConnection } from '../../src/client/kubeconfig-connection.js';
import { startCluster } from '../../src/harness/index.js';
import type { TestCluster } from '../../src/sim/cluster.js';
import { scenarioCluster } from '../../src/sim/scenario/cluster.js';
import { readScenarioFile } from '../../src/sim/scenario/parse.js';
import { runScenario } from '../../src/sim/scenario/runner.js';
import type { BenchOptions } from './options.js';
import { round } from './options.js';
import { parsePrometheus, sumBy } from './prom-text.js';
import type { BenchRow } from './report.js';

const FILE = fileURLToPath(
  new URL('../../examples/scenarios/celld-24h-random-failures.yaml', import.meta.url),
);
const TARGET_WALL_S = 60;
/** `apiserver_request_total`'s verb label, as kube-apiserver's (lowercase). */
const MUTATING = new Set(['create', 'update', 'patch', 'delete']);

export async function celld24hRows(options: BenchOptions): Promise<BenchRow[]> {
  const name = '24 h of seeded celld node and disk failures at speed max, wall time';
  if (!existsSync(FILE)) {
    const note = 'examples/scenarios/celld-24h-random-failures.yaml is missing: not measured';
    return [{ name, value: Number.NaN, unit: 's', note }];
  }
  options.log('clock: celld 24 h scenario');
  const scenario = await readScenarioFile(FILE);
  let metrics = '';
  const result = await runScenario(scenario, {
    startCluster,
    adapt: async (cluster) => {
      const adapted = await scenarioCluster(cluster);
      return {
        ...adapted,
        stop: async () => {
          metrics = await metricsText(cluster).catch(() => '');
          await adapted.stop();
        },
      };
    },
  });
  const samples = parsePrometheus(metrics);
  const total = (m: Map<string, number>): number => [...m.values()].reduce((a, b) => a + b, 0);
  const reconciles = total(sumBy(samples, 'controller_runtime_reconcile_total', () => 'all'));
  const writes = total(
    sumBy(samples, 'apiserver_request_total', (l) =>
      MUTATING.has(l.verb ?? '') ? 'w' : undefined,
    ),
  );
  const wallS = result.wallMs / 1000;
  return [
    {
      name,
      value: round(wallS),
      unit: 's',
      target: `<= ${TARGET_WALL_S}`,
      met: result.passed && wallS <= TARGET_WALL_S,
      note:
        `${result.passed ? 'passed' : 'FAILED'}; ${round(result.virtualMs / 3_600_000)} virtual h; ` +
        `${reconciles} reconciles, ${writes} writes (create/update/patch/delete requests)`,
    },
  ];
}

/** The server's `/metrics` text (it includes the controller thread's series). */
async function metricsText(cluster: TestCluster): Promise<string> {
  const { server, ca, token } = await loadKubeconfigConnection(cluster.kubeconfigPath);
  return new Promise((resolve, reject) => {
    const req = request(
      new URL('/metrics', server),
      { ca, headers: token ? { authorization: `Bearer ${token}` } : {} },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve(text));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}
