/**
 * What the operator benchmark does around a running `fleetyard up` whose embedded operator is
 * off (`--controllers=*,-celld-operator`): starts the standalone `fleetyard operator` against
 * its kubeconfig (so the operator's CPU and memory are its own process's), creates
 * PersistentFleets without simulation annotations (zero simulated delays), waits through one
 * watch per wait (`watch-until.ts`), loses a member's volume as `fleetyard chaos lose-volume`
 * does, and counts the operator's requests from the server's debug request log (each line
 * names the client's User-Agent; the server's `/metrics` does not).
 *
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { FLEETYARD_BIN } from '../../test/e2e/testing/cluster.js';
import { stopChild, track } from './cleanup.js';
import type { ApiClient, Fleetyard } from './fleetyard.js';
import { freePort } from './options.js';
import { parsePrometheus, type Sample } from './prom-text.js';
import { RawConnection, type RawResponse } from './raw-http.js';
import { type KObject, statusNumber, type Waiter, watchUntil } from './watch-until.js';

const GROUP = 'celld.fleetyard.dev';
export const FLEETS = `/apis/${GROUP}/v1alpha1/namespaces/default/celldfleets`;
const PODS = '/api/v1/namespaces/default/pods';
const CLAIMS = '/api/v1/namespaces/default/persistentvolumeclaims';
const SERVICE_ACCOUNTS = '/api/v1/namespaces/default/serviceaccounts';
const LEASES = '/apis/coordination.k8s.io/v1/namespaces/celld-system/leases';
const FLEET_LABEL = `${GROUP}/fleet`;
/** The namespace the standalone operator holds its Lease in (its default). */
const OPERATOR_NAMESPACE = 'celld-system';
const LEASE_NAME = 'celld-operator.celld.fleetyard.dev';
/** The operator's clients name themselves `celld-operator/<version> (fleetyard)`. */
const OPERATOR_AGENT = 'celld-operator';
/** One ServiceAccount shared by every fleet of the namespace. */
export const SERVICE_ACCOUNT = 'bench-celld';
/** A digest, as the operator requires (it refuses a tag). */
const RUNTIME_IMAGE =
  'ghcr.io/ewhauser/celld@sha256:4f2c1a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a10';

/** A standalone `fleetyard operator` process. */
export interface OperatorProcess {
  readonly pid: number;
  readonly metricsPort: number;
  /** The last 64 KiB of its log (stderr), for a failure's message. */
  log(): string;
  stop(): Promise<void>;
}

/**
 * `fleetyard operator --kubeconfig K --network-policy-enforced --local-test`, metrics on
 * 127.0.0.1 and no probe listener, leader election on (as deployed); resolves once it holds
 * its Lease (the namespace it holds it in is created first, as `deploy/operator` does).
 */
export async function startOperator(fy: Fleetyard, client: ApiClient): Promise<OperatorProcess> {
  await createObject(client, '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: OPERATOR_NAMESPACE },
  });
  const metricsPort = await freePort();
  const args = [
    FLEETYARD_BIN,
    'operator',
    '--kubeconfig',
    fy.cluster.kubeconfig,
    '--network-policy-enforced',
    '--local-test',
    '--metrics-bind-address',
    `127.0.0.1:${metricsPort}`,
    '--health-probe-bind-address',
    '0',
    '--log-level',
    'info',
  ];
  const child = track(spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] }));
  const log = tailOf(child);
  const leading = await watchUntil(fy, LEASES, (leases) => holder(leases) !== '', 30_000);
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`fleetyard operator exited ${code}: ${log()}`))),
  );
  exited.catch(() => {});
  await Promise.race([leading.done, exited]);
  return { pid: child.pid!, metricsPort, log, stop: () => stopChild(child, 5000) };
}

function holder(leases: ReadonlyMap<string, KObject>): string {
  const id = leases.get(LEASE_NAME)?.spec?.holderIdentity;
  return typeof id === 'string' ? id : '';
}

function tailOf(child: ChildProcess): () => string {
  let text = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (d: string) => {
    text = (text + d).slice(-65_536);
  });
  return () => text;
}

/** The operator's `/metrics` (its controller's reconcile counters and Node's process ones). */
export function operatorMetrics(op: OperatorProcess): Promise<Sample[]> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: op.metricsPort, path: '/metrics', agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(parsePrometheus(Buffer.concat(chunks).toString('utf8'))));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Reconciles the operator finished so far (every result). */
export function reconcileCount(samples: readonly Sample[]): number {
  return samples
    .filter((s) => s.name === 'controller_runtime_reconcile_total')
    .reduce((a, s) => a + s.value, 0);
}

async function createObject(client: ApiClient, path: string, body: object): Promise<void> {
  const res = await client.request('POST', path, JSON.stringify(body));
  if (res.status !== 201 && res.status !== 409)
    throw new Error(`POST ${path}: HTTP ${res.status} ${res.body.toString()}`);
}

export async function createServiceAccount(client: ApiClient): Promise<void> {
  await createObject(client, SERVICE_ACCOUNTS, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: SERVICE_ACCOUNT },
  });
}

export function fleetName(index: number): string {
  return `fleet-${String(index).padStart(3, '0')}`;
}

/**
 * `examples/celld-persistent-fleet.yaml`'s PersistentFleet with its own bucket (a bucket is
 * reserved to one fleet) and the zonal `ebs` class.
 */
export function fleetBody(name: string, members: number): object {
  return {
    apiVersion: `${GROUP}/v1alpha1`,
    kind: 'CelldFleet',
    metadata: { name },
    spec: {
      profile: 'PersistentFleet',
      replicas: members,
      runtimeImage: RUNTIME_IMAGE,
      serviceAccountName: SERVICE_ACCOUNT,
      storage: {
        bucket: `bench-${name}`,
        region: 'us-east-1',
        storageClassName: 'ebs',
        sizeGiB: 10,
      },
      placement: { zones: ['local-a', 'local-b', 'local-c'], mode: 'Strict' },
    },
  };
}

export async function createFleets(
  client: ApiClient,
  names: readonly string[],
  members: number,
): Promise<void> {
  for (const name of names) {
    const res = await client.request('POST', FLEETS, JSON.stringify(fleetBody(name, members)));
    if (res.status !== 201)
      throw new Error(`create fleet ${name}: HTTP ${res.status} ${res.body.toString()}`);
  }
}

/** The fleet's `Ready` condition is True and every member is ready. */
export function fleetReady(f: KObject | undefined, members: number): boolean {
  if (f === undefined) return false;
  const conditions = (f.status?.conditions ?? []) as Array<{ type: string; status: string }>;
  return (
    conditions.some((c) => c.type === 'Ready' && c.status === 'True') &&
    statusNumber(f, 'readyReplicas') === members
  );
}

/** Every named fleet is Ready; `onReady` sees how many are, after each watch event. */
export function waitFleetsReady(
  fy: Fleetyard,
  names: readonly string[],
  members: number,
  timeoutMs: number,
): Promise<Waiter> {
  return watchUntil(
    fy,
    FLEETS,
    (fs) => names.every((n) => fleetReady(fs.get(n), members)),
    timeoutMs,
  );
}

/** `42 Ready; 58 not: Provisioning 50 (Waiting for ready replicas…), …; pods Running 300, Pending 20`. */
export async function fleetSummary(client: ApiClient, members: number): Promise<string> {
  const fleets = await client.getJson<{ items: KObject[] }>(FLEETS);
  const pods = await client.getJson<{ items: KObject[] }>(PODS);
  const reasons = new Map<string, number>();
  let ready = 0;
  for (const f of fleets.items) {
    if (fleetReady(f, members)) {
      ready++;
      continue;
    }
    const conditions = (f.status?.conditions ?? []) as Array<{ type: string; message?: string }>;
    const why = `${f.status?.state ?? '?'}: ${conditions.find((c) => c.type === 'Ready')?.message ?? 'no Ready condition'}`;
    reasons.set(why, (reasons.get(why) ?? 0) + 1);
  }
  const phases = new Map<string, number>();
  for (const p of pods.items) {
    const ph = `${p.status?.phase ?? '?'}${podReady(p) ? '/Ready' : ''}`;
    phases.set(ph, (phases.get(ph) ?? 0) + 1);
  }
  const list = (m: Map<string, number>): string =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([k, n]) => `${n}× ${k}`)
      .join('; ');
  return `${ready} of ${fleets.items.length} fleets Ready; not Ready: ${list(reasons) || 'none'}; pods: ${list(phases)}`;
}

function uidOf(o: KObject | undefined): string {
  const m = o?.metadata as { uid?: string } | undefined;
  return m?.uid ?? '';
}

function podReady(p: KObject | undefined): boolean {
  const conditions = (p?.status?.conditions ?? []) as Array<{ type: string; status: string }>;
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
}

export interface Member {
  readonly fleet: string;
  readonly pod: string;
  readonly claim: string;
  readonly podUid: string;
  readonly claimUid: string;
}

/** Ordinal 0 of `fleet` as it is now: its pod and claim (`data-<fleet>-0`) with their UIDs. */
export async function memberNow(client: ApiClient, fleet: string): Promise<Member> {
  const pod = `${fleet}-0`;
  const claim = `data-${fleet}-0`;
  const p = await client.getJson<KObject>(`${PODS}/${pod}`);
  const c = await client.getJson<KObject>(`${CLAIMS}/${claim}`);
  return { fleet, pod, claim, podUid: uidOf(p), claimUid: uidOf(c) };
}

/**
 * Arms the three watches of a replacement: a new pod (other UID) Ready, a new claim (other
 * UID) Bound, and the fleet Ready again after it was seen not Ready. `done` is the last of
 * the three.
 */
export async function waitReplaced(
  fy: Fleetyard,
  m: Member,
  members: number,
  timeoutMs: number,
): Promise<{ done: Promise<{ at: number }> }> {
  const selector = `?labelSelector=${encodeURIComponent(`${FLEET_LABEL}=${m.fleet}`)}`;
  const pod = await watchUntil(
    fy,
    `${PODS}${selector}`,
    (ps) => {
      const p = ps.get(m.pod);
      return p !== undefined && uidOf(p) !== m.podUid && podReady(p);
    },
    timeoutMs,
  );
  const claim = await watchUntil(
    fy,
    `${CLAIMS}${selector}`,
    (cs) => {
      const c = cs.get(m.claim);
      return c !== undefined && uidOf(c) !== m.claimUid && c.status?.phase === 'Bound';
    },
    timeoutMs,
  );
  let sawDown = false;
  const fleet = await watchUntil(
    fy,
    FLEETS,
    (fs) => {
      const ready = fleetReady(fs.get(m.fleet), members);
      sawDown ||= !ready;
      return sawDown && ready;
    },
    timeoutMs,
  );
  const done = Promise.all([pod.done, claim.done, fleet.done]).then((rs) => ({
    at: Math.max(...rs.map((r) => r.at)),
  }));
  return { done };
}

/**
 * `fleetyard chaos lose-volume <claim>`: the claim's PV is deleted, then its finalizers are
 * stripped (that order, as `src/sim/chaos/storage-chaos.ts` explains), so the claim turns `Lost`.
 */
export async function loseVolume(fy: Fleetyard, client: ApiClient, claim: string): Promise<void> {
  const c = await client.getJson<KObject>(`${CLAIMS}/${claim}`);
  const volume = c.spec?.volumeName;
  if (typeof volume !== 'string' || volume === '')
    throw new Error(`claim ${claim} is not bound to a volume`);
  const path = `/api/v1/persistentvolumes/${volume}`;
  const del = await client.request('DELETE', path);
  if (del.status !== 200 && del.status !== 202)
    throw new Error(`DELETE ${path}: HTTP ${del.status} ${del.body.toString()}`);
  const patch = await mergePatch(fy, path, { metadata: { finalizers: null } });
  if (patch.status !== 200 && patch.status !== 404)
    throw new Error(`PATCH ${path}: HTTP ${patch.status} ${patch.body.toString()}`);
}

/** A JSON merge patch (`ApiClient.request` sends `application/json` only). */
export async function mergePatch(fy: Fleetyard, path: string, patch: object): Promise<RawResponse> {
  const conn = await RawConnection.open(fy.target);
  try {
    const head = `PATCH ${path} HTTP/1.1\r\nHost: ${fy.authority}\r\nAuthorization: Bearer ${fy.token}\r\nAccept: application/json\r\nContent-Type: application/merge-patch+json\r\n`;
    return await conn.request(head, JSON.stringify(patch));
  } finally {
    conn.close();
  }
}

/** One request of the server's debug log (`fleetyard up --log-level debug`). */
interface RequestLine {
  readonly method: string;
  readonly url: string;
  readonly code: number;
  readonly userAgent: string;
}

function requestLines(log: string): RequestLine[] {
  const out: RequestLine[] = [];
  for (const line of log.split('\n')) {
    if (!line.includes('"userAgent"')) continue;
    try {
      const e = JSON.parse(line) as Partial<RequestLine> & { msg?: string };
      if (e.msg !== 'request' || typeof e.url !== 'string') continue;
      out.push({
        method: e.method ?? '',
        url: e.url,
        code: e.code ?? 0,
        userAgent: e.userAgent ?? '',
      });
    } catch {
      // A partial line at the window's edge.
    }
  }
  return out;
}

function isWatch(url: string): boolean {
  return /[?&]watch=(true|1)(&|$)/.test(url);
}

/** `GET pods`, `PUT leases`, `PUT celldfleets/status`: a request's verb and resource. */
function requestKey(r: RequestLine): string {
  const path = r.url.split('?')[0] ?? '';
  const parts = path.split('/').filter((p) => p !== '');
  // /api/v1/… or /apis/<group>/<version>/…, then [namespaces/<ns>/]<resource>[/<name>[/<sub>]].
  let rest = parts.slice(parts[0] === 'api' ? 2 : 3);
  if (rest[0] === 'namespaces' && rest.length > 2) rest = rest.slice(2);
  const resource = rest.length >= 3 ? `${rest[0]}/${rest[2]}` : (rest[0] ?? path);
  return `${r.method} ${resource} ${r.code}`;
}

export interface OperatorRequests {
  /** Non-watch requests other than its leader-election Lease. */
  readonly reconcile: number;
  readonly lease: number;
  /** Watch requests that ended in the window (a re-established watch). */
  readonly watches: number;
  /** Every client's non-watch requests, for context. */
  readonly everyone: number;
  /** `GET pods 200 12, …` of the operator's non-watch, non-Lease requests. */
  readonly breakdown: string;
}

/** The operator's requests among the debug log lines `log` holds. */
export function operatorRequests(log: string): OperatorRequests {
  const lines = requestLines(log);
  const ours = lines.filter((r) => r.userAgent.startsWith(OPERATOR_AGENT));
  const plain = ours.filter((r) => !isWatch(r.url));
  const lease = plain.filter(
    (r) => r.url.includes(`/leases/${LEASE_NAME}`) || r.url.endsWith('/leases'),
  );
  const reconcile = plain.filter((r) => !lease.includes(r));
  const counts = new Map<string, number>();
  for (const r of reconcile) counts.set(requestKey(r), (counts.get(requestKey(r)) ?? 0) + 1);
  return {
    reconcile: reconcile.length,
    lease: lease.length,
    watches: ours.length - plain.length,
    everyone: lines.filter((r) => !isWatch(r.url)).length,
    breakdown: [...counts]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k} ${n}`)
      .join(', '),
  };
}
