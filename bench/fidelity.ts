/**
 * What issue 14's fidelity costs: quota and limit-range admission on the create path, and the
 * int64-exact JSON codec on every decode.
 *
 * - Pod creates/s, one sequential keep-alive client against the real `fleetyard up` (API
 *   server alone, SQLite), in a plain namespace and in one holding a ResourceQuota over six
 *   resources (with `status.hard` set as the quota controller would) and a LimitRange whose
 *   defaults LimitRanger fills into every pod. Admission reads the namespace's quotas and
 *   limit ranges and queues the charge to the quota in the same tick as the pod, so both land
 *   in one durable commit (upstream writes the quota, then the object: two etcd round trips).
 *   Target: at least 0.8 of the plain rate, i.e. admission's reads, defaulting and the charge
 *   cost at most a fifth. (On a machine whose cores are busy the ratio swings both ways:
 *   0.39 and 1.37 were seen with 2 cores taken by other work.)
 * - The codec, in process: `parseJson` over a 5 KiB pod-like object without large integers
 *   (the common case: one regular-expression scan, then `JSON.parse`) against `JSON.parse`
 *   itself; and over the same object holding one integer beyond 2^53 (the slow path).
 *
 * @module
 */
import { parseJson } from '../src/api/int64-json.js';
import { ApiClient, startFleetyard } from './lib/fleetyard.js';
import { type BenchOptions, round, runCount } from './lib/options.js';
import { type BenchRow, median } from './lib/report.js';

const QUOTA_OVER_PLAIN = 0.8;
const FAST_PATH_OVERHEAD = 1.15;

function pod(name: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { app: 'bench' } },
    spec: {
      containers: [
        { name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '1m', memory: '1Mi' } } },
      ],
    },
  });
}

async function must(api: ApiClient, method: string, path: string, body: object): Promise<void> {
  const r = await api.request(method, path, JSON.stringify(body));
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.body.toString()}`);
}

/** A namespace with a quota (its status as the controller leaves it) and a limit range. */
async function quotaNamespace(api: ApiClient, ns: string, pods: number): Promise<void> {
  const hard = {
    pods: String(pods + 10),
    'requests.cpu': '1000',
    'requests.memory': '1000Gi',
    'limits.cpu': '1000',
    'limits.memory': '1000Gi',
    configmaps: '100',
  };
  const base = `/api/v1/namespaces/${ns}`;
  await must(api, 'POST', `${base}/resourcequotas`, { metadata: { name: 'q' }, spec: { hard } });
  const used = Object.fromEntries(Object.keys(hard).map((k) => [k, '0']));
  const quota = JSON.parse((await api.request('GET', `${base}/resourcequotas/q`)).body.toString());
  await must(api, 'PUT', `${base}/resourcequotas/q/status`, { ...quota, status: { hard, used } });
  await must(api, 'POST', `${base}/limitranges`, {
    metadata: { name: 'l' },
    spec: { limits: [{ type: 'Container', default: { cpu: '10m', memory: '10Mi' } }] },
  });
}

async function createRate(
  api: ApiClient,
  ns: string,
  count: number,
  prefix = 'p',
): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const r = await api.request('POST', `/api/v1/namespaces/${ns}/pods`, pod(`${prefix}${i}`));
    if (r.status !== 201) throw new Error(`pod ${i} in ${ns}: ${r.status} ${r.body.toString()}`);
  }
  return count / ((performance.now() - started) / 1000);
}

async function admissionRates(count: number): Promise<{ plain: number; quota: number }> {
  const fy = await startFleetyard();
  try {
    const api = await ApiClient.open(fy);
    for (const ns of ['plain', 'quota'])
      await must(api, 'POST', '/api/v1/namespaces', { metadata: { name: ns } });
    await quotaNamespace(api, 'quota', count);
    await createRate(api, 'plain', 50, 'warm'); // warm-up: the JIT and SQLite's page cache
    const plain = await createRate(api, 'plain', count);
    const quota = await createRate(api, 'quota', count);
    api.close();
    return { plain, quota };
  } finally {
    await fy.stop();
  }
}

function sampleObject(big: boolean): string {
  const env = Array.from({ length: 120 }, (_, i) => ({ name: `VAR_${i}`, value: `value-${i}-x` }));
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'sample', resourceVersion: '123456', generation: big ? 'BIG' : 7 },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27', env }] },
  }).replace('"BIG"', '3546343826724305832');
}

/** Microseconds per decode, median of 5 batches. */
function decodeMicros(decode: (text: string) => unknown, text: string, iterations: number): number {
  const batches: number[] = [];
  for (let b = 0; b < 5; b++) {
    const started = performance.now();
    for (let i = 0; i < iterations; i++) decode(text);
    batches.push(((performance.now() - started) * 1000) / iterations);
  }
  return median(batches);
}

export async function benchFidelity(options: BenchOptions): Promise<BenchRow[]> {
  const count = options.quick ? 200 : 1000;
  const plainRuns: number[] = [];
  const quotaRuns: number[] = [];
  for (let run = 0; run < runCount(options); run++) {
    const { plain, quota } = await admissionRates(count);
    options.log(
      `fidelity: ${count} pod creates: ${Math.round(plain)}/s plain, ${Math.round(quota)}/s with quota`,
    );
    plainRuns.push(plain);
    quotaRuns.push(quota);
  }
  const ratio = median(quotaRuns) / median(plainRuns);
  const plainText = sampleObject(false);
  const bigText = sampleObject(true);
  const iterations = options.quick ? 2000 : 10_000;
  decodeMicros(parseJson, plainText, iterations); // warm-up
  const jsonParse = decodeMicros(JSON.parse, plainText, iterations);
  const fast = decodeMicros(parseJson, plainText, iterations);
  const slow = decodeMicros(parseJson, bigText, iterations);
  return [
    {
      name: 'pod creates/s, plain namespace (1 sequential client)',
      value: round(median(plainRuns)),
      unit: 'creates/s',
      runs: plainRuns.map(round),
    },
    {
      name: 'pod creates/s, namespace with ResourceQuota + LimitRange',
      value: round(median(quotaRuns)),
      unit: 'creates/s',
      runs: quotaRuns.map(round),
    },
    {
      name: 'quota + limit-range admission: rate ÷ plain rate',
      value: Number(ratio.toFixed(2)),
      unit: '×',
      target: `>= ${QUOTA_OVER_PLAIN}`,
      met: ratio >= QUOTA_OVER_PLAIN,
    },
    {
      name: `int64 codec: parseJson ÷ JSON.parse, ${Math.round(plainText.length / 1024)} KiB object`,
      value: Number((fast / jsonParse).toFixed(2)),
      unit: '×',
      target: `<= ${FAST_PATH_OVERHEAD}`,
      met: fast / jsonParse <= FAST_PATH_OVERHEAD,
      note: `${fast.toFixed(1)} µs against ${jsonParse.toFixed(1)} µs`,
    },
    {
      name: 'int64 codec: parseJson with one integer beyond 2^53',
      value: Number(slow.toFixed(1)),
      unit: 'µs',
      note: 'the slow path (marks the literal, parses with a reviver)',
    },
  ];
}
