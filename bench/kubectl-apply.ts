/**
 * `kubectl apply -f` of a 100-object manifest against `fleetyard up`, wall time of one
 * kubectl run, client-side apply beside server-side apply (`--server-side`), each into its
 * own fresh namespace with a cold kubectl cache (discovery and OpenAPI are fetched, as on a
 * user's first apply). A second, warm-cache run of each updates every object (one field
 * changed), which exercises strategic merge patch and server-side apply merges.
 *
 * The manifest mixes the kinds a platform manifest holds: 40 ConfigMaps, 30 Deployments,
 * 20 Services and 10 Secrets.
 *
 * @module
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { kubectl } from '../test/e2e/testing/kubectl.js';
import { startFleetyard } from './lib/fleetyard.js';
import type { BenchOptions } from './lib/options.js';
import { round } from './lib/options.js';
import { cpuTimes, exitedChildrenCpuSeconds } from './lib/proc.js';
import type { BenchRow } from './lib/report.js';

const KUBECTL_VERSION = '1.33';
/** kubectl sends one GET and one write per object: 100 objects in 3 s is 15 ms a round trip pair. */
const TARGET_MS = 3000;

function manifest(namespace: string, generation: number): string {
  const docs: object[] = [];
  const meta = (name: string) => ({
    name,
    namespace,
    labels: { app: name, gen: String(generation) },
  });
  for (let i = 0; i < 40; i++) {
    docs.push({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: meta(`cm-${i}`),
      data: { key: `v${generation}`, other: 'x'.repeat(200) },
    });
  }
  for (let i = 0; i < 30; i++) {
    const labels = { app: `web-${i}` };
    docs.push({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: meta(`web-${i}`),
      spec: {
        replicas: 2,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            containers: [
              {
                name: 'web',
                image: `nginx:1.${generation}`,
                ports: [{ containerPort: 80 }],
                env: [{ name: 'MODE', value: 'prod' }],
              },
            ],
          },
        },
      },
    });
  }
  for (let i = 0; i < 20; i++) {
    docs.push({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta(`svc-${i}`),
      spec: { selector: { app: `web-${i}` }, ports: [{ port: 80, targetPort: 8080 }] },
    });
  }
  for (let i = 0; i < 10; i++) {
    docs.push({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: meta(`secret-${i}`),
      stringData: { password: `p${generation}` },
    });
  }
  return docs.map((d) => stringify(d)).join('---\n');
}

interface TimedApply {
  readonly ms: number;
  /** CPU kubectl itself used (user + system), ms. */
  readonly kubectlCpuMs: number;
  /** CPU the server (all threads) used meanwhile, ms. */
  readonly serverCpuMs: number;
}

/**
 * One kubectl run's wall time beside kubectl's own CPU and the server's: client-side apply
 * spends most of its time in kubectl (kubectl parses the whole OpenAPI v3 document of the
 * object's group-version for every object, kubernetes/kubernetes#127095), which no server
 * can shorten; the two CPU figures say which side a run's time is on.
 */
async function timed(serverPid: number, run: () => Promise<void>): Promise<TimedApply> {
  const kubectl0 = exitedChildrenCpuSeconds();
  const server0 = cpuTimes(serverPid).total;
  const t0 = performance.now();
  await run();
  const ms = performance.now() - t0;
  return {
    ms: round(ms),
    kubectlCpuMs: round((exitedChildrenCpuSeconds() - kubectl0) * 1000),
    serverCpuMs: round((cpuTimes(serverPid).total - server0) * 1000),
  };
}

export async function benchKubectlApply(_options: BenchOptions): Promise<BenchRow[]> {
  const fy = await startFleetyard({ ephemeral: true });
  const dir = mkdtempSync(join(tmpdir(), 'fleetyard-apply-bench-'));
  try {
    const rows: BenchRow[] = [];
    for (const serverSide of [false, true]) {
      // A fresh kubectl (and cache dir) per mode: the first run is a user's cold start.
      const k = kubectl(KUBECTL_VERSION, fy.cluster.kubeconfig);
      if (k === undefined) {
        return [
          {
            name: 'kubectl apply -f (100 objects)',
            value: Number.NaN,
            unit: 'ms',
            note: `kubectl.${KUBECTL_VERSION} is not installed`,
          },
        ];
      }
      const ns = serverSide ? 'apply-ssa' : 'apply-csa';
      await k.ok(['create', 'namespace', ns]);
      const label = serverSide ? 'kubectl apply --server-side -f' : 'kubectl apply -f';
      const args = ['apply', ...(serverSide ? ['--server-side'] : []), '-f'];
      for (const [generation, what] of [
        [1, 'create, cold cache'],
        [2, 'update, warm cache'],
      ] as const) {
        const file = join(dir, `${ns}-${generation}.yaml`);
        writeFileSync(file, manifest(ns, generation));
        const t = await timed(fy.pid, async () => {
          await k.ok([...args, file], { timeoutMs: 120_000 });
        });
        rows.push({
          name: `${label} (100 objects, ${what})`,
          value: t.ms,
          unit: 'ms',
          runs: [t.ms],
          target: `<= ${TARGET_MS}`,
          met: t.ms <= TARGET_MS,
          note: `kubectl ${KUBECTL_VERSION}, one run; CPU meanwhile: kubectl ${t.kubectlCpuMs} ms, server ${t.serverCpuMs} ms`,
        });
      }
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await fy.stop();
  }
}
