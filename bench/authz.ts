/**
 * The cost of authorization on the write path (issue 18): durable 1 KiB ConfigMap creates
 * through `fleetyard up` (SQLite, not ephemeral) over HTTPS with 64 clients, as `api-writes.ts`
 * measures them, once per identity on a fresh server with the same stored policy:
 *
 * - (a) the admin (`kubernetes-admin` in `system:masters`): the privileged-group shortcut, the
 *   first authorizer of the chain, which never reaches RBAC;
 * - (b) a ServiceAccount authenticated by its TokenRequest JWT, allowed by a RoleBinding to the
 *   ClusterRole `edit` in its namespace, among 200 other RoleBindings (20 in each of 10
 *   namespaces, its own included) and 50 ClusterRoleBindings, so RBAC searches a realistic
 *   index rather than one binding.
 *
 * Both servers run the ClusterRole aggregation controller and nothing else
 * (`--nodes 0 --controllers clusterrole-aggregation-controller`): `edit` is an aggregated role
 * whose rules that controller fills, as on a real cluster. The admin's server gets the same
 * ServiceAccount, token and bindings, so the two differ only in the identity the load uses.
 *
 * Per identity: 1 s warm-up, then 64 connections (2 generator processes × 32) paced to
 * 2,000 creates/s in total for 10 s (p99 from each request's due time, a load both paths should
 * sustain, so the p99s compare per-request costs), then the same connections unpaced for 10 s
 * (throughput; p99 as context). Both identities get the same schedule: the paced phase sends
 * the same requests at the same times, the unpaced one runs for the same window, each on a store
 * the paced phase filled alike (when both kept the pace). The target is the issue's: RBAC
 * costs at most 10 % of the admin's throughput, i.e. (b) ÷ (a) ≥ 0.9, taken per run (the two
 * servers of one run ran back to back) and the median printed. The identities' order
 * alternates between runs, so a drift of the machine over a run does not always count against
 * the same one. The server's CPU per create, (b) minus (a), is the same cost measured in a way
 * less sensitive to what else runs on the machine: it holds the JWT's verification, the
 * ServiceAccount's lookup and the RBAC search (CPU profiles of two quick runs put ~80 % of it
 * in authentication, about half of that the RS256 verification every request pays, and ~20 % in
 * RBAC).
 *
 * Not measured: a user authenticated by a client certificate (the load generators' raw TLS
 * connections present none); the 1,000-replica Deployment with every component as itself is the
 * `workloads` group's figure (`fleetyard up` runs every component under its own identity).
 *
 * @module
 */
import { contentionNote, quietRuns } from './lib/contention.js';
import { ApiClient, type Fleetyard, startFleetyard } from './lib/fleetyard.js';
import { cpuSummary, type LoadResult, runLoad } from './lib/load.js';
import { type BenchOptions, round, runCount, sleep } from './lib/options.js';
import { type BenchRow, median, percentile } from './lib/report.js';

const NAMESPACE = 'bench-authz';
const SERVICE_ACCOUNT = 'writer';
const RBAC = '/apis/rbac.authorization.k8s.io/v1';
/** Other namespaces holding the other RoleBindings (the ServiceAccount's holds its share too). */
const OTHER_NAMESPACES = 9;
const OTHER_ROLE_BINDINGS = 200;
const CLUSTER_ROLE_BINDINGS = 50;
const PROCESSES = 2;
const CONNECTIONS_PER_PROCESS = 32;
const VALUE_BYTES = 1024;
const PACED_RATE = 2000;
/** The target: authorization costs at most 10 % of the admin path's throughput. */
const TARGET_RATIO = 0.9;

type Identity = 'admin' | 'serviceaccount';

interface Durations {
  readonly warmupMs: number;
  readonly windowMs: number;
}

function durations(options: BenchOptions): Durations {
  return options.quick ? { warmupMs: 500, windowMs: 3000 } : { warmupMs: 1000, windowMs: 10_000 };
}

async function post(client: ApiClient, path: string, body: unknown): Promise<string> {
  const res = await client.request('POST', path, JSON.stringify(body));
  if (res.status !== 201) throw new Error(`POST ${path}: HTTP ${res.status} ${res.body}`);
  return res.body.toString('utf8');
}

function namespaceOf(i: number): string {
  const k = i % (OTHER_NAMESPACES + 1);
  return k === 0 ? NAMESPACE : `${NAMESPACE}-${k}`;
}

/** A binding's three subjects, none of them the benchmark's ServiceAccount. */
function otherSubjects(i: number, namespace: string): unknown[] {
  return [
    { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: `user-${i}` },
    { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: `team-${i % 7}` },
    { kind: 'ServiceAccount', name: `other-${i}`, namespace },
  ];
}

/** The namespaces, the ServiceAccount and its binding, and the other bindings. */
async function populate(client: ApiClient): Promise<void> {
  for (let k = 0; k <= OTHER_NAMESPACES; k++) {
    const name = k === 0 ? NAMESPACE : `${NAMESPACE}-${k}`;
    await post(client, '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name },
    });
  }
  await post(client, `/api/v1/namespaces/${NAMESPACE}/serviceaccounts`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: SERVICE_ACCOUNT },
  });
  const roleRef = (name: string) => ({
    apiGroup: 'rbac.authorization.k8s.io',
    kind: 'ClusterRole',
    name,
  });
  await post(client, `${RBAC}/namespaces/${NAMESPACE}/rolebindings`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: `${SERVICE_ACCOUNT}-edit` },
    roleRef: roleRef('edit'),
    subjects: [{ kind: 'ServiceAccount', name: SERVICE_ACCOUNT, namespace: NAMESPACE }],
  });
  const roles = ['view', 'edit', 'admin'];
  for (let i = 0; i < OTHER_ROLE_BINDINGS; i++) {
    const namespace = namespaceOf(i);
    await post(client, `${RBAC}/namespaces/${namespace}/rolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: `other-${i}` },
      roleRef: roleRef(roles[i % roles.length]!),
      subjects: otherSubjects(i, namespace),
    });
  }
  for (let i = 0; i < CLUSTER_ROLE_BINDINGS; i++) {
    await post(client, `${RBAC}/clusterrolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: `bench-other-${i}` },
      roleRef: roleRef(i % 2 === 0 ? 'view' : 'system:basic-user'),
      subjects: otherSubjects(1000 + i, namespaceOf(i)),
    });
  }
}

/** `kubectl create token`: a one-hour JWT from TokenRequest. */
async function serviceAccountToken(client: ApiClient): Promise<string> {
  const body = await post(
    client,
    `/api/v1/namespaces/${NAMESPACE}/serviceaccounts/${SERVICE_ACCOUNT}/token`,
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: 3600 },
    },
  );
  const token = (JSON.parse(body) as { status?: { token?: string } }).status?.token;
  if (!token) throw new Error(`TokenRequest answered no token: ${body.slice(0, 300)}`);
  return token;
}

/**
 * Waits until the ServiceAccount may create a ConfigMap: the aggregation controller has filled
 * `edit` and the RBAC index (kept by a watch) has the binding. Its probes are in the store of
 * both servers alike.
 */
async function waitAuthorized(fy: Fleetyard, token: string): Promise<void> {
  const client = await ApiClient.open({ ...fy, token });
  try {
    const deadline = performance.now() + 30_000;
    let last = '';
    for (let i = 0; performance.now() < deadline; i++) {
      const body = JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `probe-${i}` },
      });
      const res = await client.request('POST', `/api/v1/namespaces/${NAMESPACE}/configmaps`, body);
      if (res.status === 201) return;
      last = `HTTP ${res.status} ${res.body.toString('utf8', 0, 300)}`;
      await sleep(100);
    }
    throw new Error(`the ServiceAccount never got to create ConfigMaps: ${last}`);
  } finally {
    client.close();
  }
}

interface PhaseResult {
  readonly paced: LoadResult;
  readonly saturated: LoadResult;
  readonly pid: number;
}

function check(r: LoadResult, what: string): void {
  if (r.errors > 0) throw new Error(`${what}: ${r.errors} failed requests, first: ${r.firstError}`);
}

async function onePhase(identity: Identity, d: Durations): Promise<PhaseResult> {
  const fy = await startFleetyard({
    cluster: true,
    args: ['--nodes', '0', '--controllers', 'clusterrole-aggregation-controller'],
    timeoutMs: 30_000,
  });
  try {
    const admin = await ApiClient.open(fy);
    let saToken: string;
    try {
      await populate(admin);
      saToken = await serviceAccountToken(admin);
    } finally {
      admin.close();
    }
    await waitAuthorized(fy, saToken);
    const token = identity === 'admin' ? fy.token : saToken;
    const load = (workerIdBase: number, ratePerSecond?: number) =>
      runLoad({
        target: fy.target,
        workload: {
          kind: 'configmap-create',
          authority: fy.authority,
          token,
          namespace: NAMESPACE,
          valueBytes: VALUE_BYTES,
        },
        processes: PROCESSES,
        connectionsPerProcess: CONNECTIONS_PER_PROCESS,
        warmupMs: d.warmupMs,
        durationMs: d.windowMs,
        ...(ratePerSecond !== undefined ? { ratePerSecond } : {}),
        observePids: [fy.pid],
        workerIdBase,
      });
    const paced = await load(200, PACED_RATE);
    check(paced, `${identity}: paced creates`);
    const saturated = await load(0);
    check(saturated, `${identity}: concurrent creates`);
    return { paced, saturated, pid: fy.pid };
  } finally {
    await fy.stop();
  }
}

type RunResult = Record<Identity, PhaseResult>;

/** Server CPU per create, µs (all threads), at saturation. */
function cpuPerCreateUs(p: PhaseResult): number {
  const cores = p.saturated.observed.get(p.pid)?.total ?? Number.NaN;
  return (cores / p.saturated.perSecond) * 1e6;
}

function describe(p: PhaseResult): string {
  const s = p.saturated;
  return `${Math.round(s.perSecond)} creates/s, p99 ${percentile(s.latenciesMs, 99).toFixed(1)} ms, ${Math.round(cpuPerCreateUs(p))} µs server CPU/create; at ${PACED_RATE}/s p99 ${percentile(p.paced.latenciesMs, 99).toFixed(1)} ms`;
}

export async function benchAuthz(options: BenchOptions): Promise<BenchRow[]> {
  const d = durations(options);
  const kept = await quietRuns(
    runCount(options),
    async (i) => {
      const order: Identity[] =
        i % 2 === 0 ? ['admin', 'serviceaccount'] : ['serviceaccount', 'admin'];
      const result: Partial<RunResult> = {};
      for (const identity of order) {
        const p = await onePhase(identity, d);
        options.log(
          `  run ${i + 1} ${identity}: ${describe(p)}; ${cpuSummary(p.saturated, p.pid, 'server')}`,
        );
        result[identity] = p;
      }
      return { admin: result.admin!, serviceaccount: result.serviceaccount! };
    },
    (r) =>
      Math.max(
        ...[r.admin, r.serviceaccount].flatMap((p) => [p.paced.otherCores, p.saturated.otherCores]),
      ),
    options.log,
  );
  return rows(kept.runs, contentionNote(kept));
}

function rows(runs: readonly RunResult[], contention: string): BenchRow[] {
  const of = (id: Identity, f: (p: PhaseResult) => number) => runs.map((r) => f(r[id]));
  const rate = (p: PhaseResult) => p.saturated.perSecond;
  const p99 = (p: PhaseResult) => percentile(p.saturated.latenciesMs, 99);
  const pacedP99 = (p: PhaseResult) => percentile(p.paced.latenciesMs, 99);
  const ratios = runs.map((r) => rate(r.serviceaccount) / rate(r.admin));
  const ratio = median(ratios);
  const extraCpu = runs.map((r) => cpuPerCreateUs(r.serviceaccount) - cpuPerCreateUs(r.admin));
  const last = runs.at(-1)!;
  const setup = `fleetyard up (SQLite), ${PROCESSES} × ${CONNECTIONS_PER_PROCESS} keep-alive connections; ${OTHER_ROLE_BINDINGS + 1} RoleBindings and ${CLUSTER_ROLE_BINDINGS} ClusterRoleBindings stored besides the bootstrap policy`;
  const rowsOf = (id: Identity, who: string): BenchRow[] => [
    {
      name: `durable creates/s via HTTPS as ${who} (64 clients, 1 KiB ConfigMaps)`,
      value: Math.round(median(of(id, rate))),
      unit: 'creates/s',
      runs: of(id, rate).map(Math.round),
      note: `${cpuSummary(last[id].saturated, last[id].pid, 'server')} (last run)`,
    },
    {
      name: `create latency p99 as ${who}, 64 clients saturated (context)`,
      value: round(median(of(id, p99))),
      unit: 'ms',
      runs: of(id, p99).map(round),
    },
    {
      name: `create latency p99 as ${who} at ${PACED_RATE} creates/s (64 clients, paced)`,
      value: round(median(of(id, pacedP99))),
      unit: 'ms',
      runs: of(id, pacedP99).map(round),
      note: `achieved ${of(id, (p) => p.paced.perSecond)
        .map(Math.round)
        .join(
          ' / ',
        )} creates/s; latency from each request's due time; NaN: the server fell so far behind the pace that no request due inside the window was answered`,
    },
    {
      name: `server CPU per create as ${who} (saturated)`,
      value: Math.round(median(of(id, cpuPerCreateUs))),
      unit: 'µs',
      runs: of(id, cpuPerCreateUs).map(Math.round),
    },
  ];
  return [
    ...rowsOf('admin', 'the admin (system:masters)'),
    ...rowsOf('serviceaccount', 'a ServiceAccount (JWT, RBAC: RoleBinding to edit)'),
    {
      name: 'ServiceAccount (RBAC) ÷ admin creates/s',
      value: Number(ratio.toFixed(3)),
      unit: '×',
      runs: ratios.map((x) => Number(x.toFixed(3))),
      target: `>= ${TARGET_RATIO}`,
      met: ratio >= TARGET_RATIO,
      note: `per run (the two servers ran back to back), median; ${setup}; ${contention}`,
    },
    {
      name: 'authentication + RBAC: server CPU per create over the admin path',
      value: Math.round(median(extraCpu)),
      unit: 'µs',
      runs: extraCpu.map(Math.round),
      note: 'ServiceAccount minus admin, saturated; JWT verification, the ServiceAccount lookup and the RBAC search',
    },
  ];
}
