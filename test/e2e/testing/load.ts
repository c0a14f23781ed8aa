/**
 * Crash-safety harness for the real `fleetyard up` on its SQLite backend: concurrent
 * create/update/patch/delete load over HTTPS, a ledger of every write the server
 * acknowledged, a stop (SIGKILL or SIGTERM) at a random moment, a restart on the same data
 * dir and a verification of the stored state against the ledger.
 *
 * The model: each object is written by one worker, one request at a time, so after a stop an
 * object is in one of two states. Either exactly its last acknowledged state (same uid, data and
 * resourceVersion; absent after an acknowledged delete), or, when a request for it was in
 * flight when the process died, that request's outcome (a write the server never answered may
 * have been committed; one that was refused, by ECONNREFUSED or a 503 while shutting down,
 * must not have been). Anything else (a lost or altered acknowledged write, a torn object, an
 * object nobody wrote, a resourceVersion that goes backwards or is reused) is a violation.
 * After each verification the observed state becomes the new baseline, so one data dir
 * survives many crash rounds and earlier acknowledged writes are re-checked after every later
 * crash.
 *
 * A few watches stay open during each round, so a stop also meets streaming responses; after a
 * SIGTERM the report says whether they ended with their terminating chunk.
 *
 * Used by `test/e2e/crash.test.ts` (a few rounds) and `scripts/crash-soak.ts` (hundreds).
 *
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import { Agent, request } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { type Cluster, newDataDir, startCluster } from './cluster.js';

// ---------------------------------------------------------------------------------------------
// HTTPS

export interface Target {
  readonly url: string;
  readonly token: string;
  readonly ca: string;
}

export interface Reply {
  readonly status: number;
  /** The parsed JSON body (undefined when there was none). */
  readonly body: unknown;
}

/**
 * One request. Resolves only with a complete response whose body parses: a response cut off
 * by a crash rejects, so it never counts as an acknowledgement.
 */
export function send(
  target: Target,
  agent: Agent,
  method: string,
  path: string,
  body?: unknown,
  timeoutMs = 15_000,
): Promise<Reply> {
  const url = new URL(path, target.url);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = {
    authorization: `Bearer ${target.token}`,
    accept: 'application/json',
  };
  if (payload !== undefined) {
    headers['content-type'] =
      method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('aborted', () => reject(new Error(`${method} ${path}: response aborted`)));
      res.on('end', () => {
        if (!res.complete) {
          reject(new Error(`${method} ${path}: incomplete response`));
          return;
        }
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({
            status: res.statusCode ?? 0,
            body: text === '' ? undefined : JSON.parse(text),
          });
        } catch (e) {
          reject(
            new Error(`${method} ${path}: unparsable body (${String(e)}): ${text.slice(0, 200)}`),
          );
        }
      });
    });
    req.on('timeout', () =>
      req.destroy(new Error(`${method} ${path}: no answer in ${timeoutMs} ms`)),
    );
    req.on('error', reject);
    req.end(payload);
  });
}

// ---------------------------------------------------------------------------------------------
// Objects and their content

type Data = Readonly<Record<string, string>>;

interface StoredConfigMap {
  readonly name: string;
  readonly uid: string;
  readonly rv: number;
  readonly data: Data;
}

/** The content of write number `counter` to `name`: a payload of random size and its checksum. */
export function makeData(name: string, counter: number): Data {
  const size = 16 + Math.floor(Math.random() ** 2 * 6000);
  const payload = randomBytes(Math.ceil(size * 0.75))
    .toString('base64')
    .slice(0, size);
  return { counter: String(counter), payload, checksum: checksum(name, String(counter), payload) };
}

function checksum(name: string, counter: string, payload: string): string {
  return createHash('sha256').update(`${name}\n${counter}\n${payload}`).digest('hex');
}

/** Why `data` is not a whole object written by this harness, or undefined when it is. */
export function tornReason(name: string, data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return 'no data';
  const d = data as Record<string, unknown>;
  if (!isDeepStrictEqual(Object.keys(d).sort(), ['checksum', 'counter', 'payload'])) {
    return `unexpected keys ${Object.keys(d).join(',')}`;
  }
  const { counter, payload } = d;
  if (typeof counter !== 'string' || typeof payload !== 'string' || !/^\d+$/.test(counter)) {
    return 'malformed counter or payload';
  }
  return d.checksum === checksum(name, counter, payload) ? undefined : 'checksum mismatch';
}

/** A ConfigMap from the API as the fields the ledger compares; throws on a malformed one. */
function parseConfigMap(obj: unknown): StoredConfigMap {
  const o = obj as { kind?: unknown; metadata?: Record<string, unknown>; data?: unknown };
  const meta = o.metadata ?? {};
  const rv = Number(meta.resourceVersion);
  if (typeof meta.name !== 'string' || typeof meta.uid !== 'string' || !Number.isSafeInteger(rv)) {
    throw new Error(`malformed object: ${JSON.stringify(obj).slice(0, 300)}`);
  }
  return { name: meta.name, uid: meta.uid, rv, data: (o.data ?? {}) as Data };
}

// ---------------------------------------------------------------------------------------------
// The ledger

type Op = 'create' | 'update' | 'patch' | 'delete';

interface Known {
  readonly present: boolean;
  readonly uid?: string;
  readonly rv?: number;
  readonly data?: Data;
}

interface Pending {
  readonly op: Op;
  readonly data?: Data;
}

interface ObjectRecord {
  readonly name: string;
  /** The last acknowledged (or verified) state. */
  known: Known;
  /** The request in flight when the load stopped (its outcome is unknown). */
  pending: Pending | undefined;
  /** Writes attempted so far; each attempt gets its own content. */
  counter: number;
}

export interface WriteCounts {
  create: number;
  update: number;
  patch: number;
  delete: number;
}

/** Every object the load writes, its last acknowledged state, and what went wrong. */
export class Ledger {
  readonly namespace: string;
  readonly records: ObjectRecord[] = [];
  readonly byName = new Map<string, ObjectRecord>();
  /** Every resourceVersion acknowledged for a create or update, over all rounds. */
  readonly revisions = new Set<number>();
  maxRevision = 0;
  readonly acknowledged: WriteCounts = { create: 0, update: 0, patch: 0, delete: 0 };
  readonly violations: string[] = [];
  /** Prefixes violations. */
  round = 0;

  constructor(options: { namespace: string; workers: number; objectsPerWorker: number }) {
    this.namespace = options.namespace;
    for (let w = 0; w < options.workers; w++) {
      for (let i = 0; i < options.objectsPerWorker; i++) {
        const rec: ObjectRecord = {
          name: `crash-w${w}-o${i}`,
          known: { present: false },
          pending: undefined,
          counter: 0,
        };
        this.records.push(rec);
        this.byName.set(rec.name, rec);
      }
    }
  }

  objectsOf(worker: number, objectsPerWorker: number): ObjectRecord[] {
    return this.records.slice(worker * objectsPerWorker, (worker + 1) * objectsPerWorker);
  }

  violation(message: string): void {
    this.violations.push(`round ${this.round}: ${message}`);
  }

  /** Records an acknowledged write after checking the reply against what was sent. */
  acknowledge(rec: ObjectRecord, op: Op, reply: Reply, sent: Data | undefined): void {
    rec.pending = undefined;
    this.acknowledged[op]++;
    if (op === 'delete') {
      rec.known = { present: false };
      return;
    }
    let obj: StoredConfigMap;
    try {
      obj = parseConfigMap(reply.body);
    } catch (e) {
      this.violation(`${op} ${rec.name}: ${String(e)}`);
      return;
    }
    if (!isDeepStrictEqual(obj.data, sent)) {
      this.violation(`${op} ${rec.name}: the reply's data is not what was written`);
    }
    if (op !== 'create' && obj.uid !== rec.known.uid) {
      this.violation(`${op} ${rec.name}: uid changed from ${rec.known.uid} to ${obj.uid}`);
    }
    if (op !== 'create' && !(obj.rv > (rec.known.rv ?? 0))) {
      this.violation(`${op} ${rec.name}: resourceVersion ${obj.rv} after ${rec.known.rv}`);
    }
    if (this.revisions.has(obj.rv)) {
      this.violation(`${op} ${rec.name}: resourceVersion ${obj.rv} was acknowledged twice`);
    }
    this.revisions.add(obj.rv);
    this.maxRevision = Math.max(this.maxRevision, obj.rv);
    rec.known = { present: true, uid: obj.uid, rv: obj.rv, data: obj.data };
  }
}

// ---------------------------------------------------------------------------------------------
// Load

export interface LoadOptions {
  readonly workers: number;
  readonly objectsPerWorker: number;
}

export interface RunningLoad {
  /** From now on, errors are expected (the process is being stopped): workers end at the first. */
  expectErrors(): void;
  /** Resolves when every worker has ended, with how their last requests ended. */
  readonly done: Promise<Readonly<Record<string, number>>>;
}

/** Starts `workers` concurrent workers, each cycling through its own objects. */
export function startLoad(target: Target, ledger: Ledger, options: LoadOptions): RunningLoad {
  const agent = new Agent({ keepAlive: true, maxSockets: options.workers, ca: target.ca });
  let stopping = false;
  const workers: Promise<string>[] = [];
  for (let w = 0; w < options.workers; w++) {
    const own = ledger.objectsOf(w, options.objectsPerWorker);
    workers.push(runWorker(target, agent, ledger, own, () => stopping));
  }
  return {
    expectErrors: () => {
      stopping = true;
    },
    done: Promise.all(workers).then((endings) => {
      agent.destroy();
      const tally: Record<string, number> = {};
      for (const e of endings) tally[e] = (tally[e] ?? 0) + 1;
      return tally;
    }),
  };
}

function chooseOp(rec: ObjectRecord): Op {
  if (!rec.known.present) return 'create';
  const r = Math.random();
  if (r < 0.5) return 'update';
  if (r < 0.8) return 'patch';
  return 'delete';
}

function requestFor(
  ledger: Ledger,
  rec: ObjectRecord,
  op: Op,
  data: Data | undefined,
): { method: string; path: string; body?: unknown } {
  const collection = `/api/v1/namespaces/${ledger.namespace}/configmaps`;
  const item = `${collection}/${rec.name}`;
  switch (op) {
    case 'create':
      return { method: 'POST', path: collection, body: { metadata: { name: rec.name }, data } };
    case 'update':
      return {
        method: 'PUT',
        path: item,
        body: { metadata: { name: rec.name, resourceVersion: String(rec.known.rv) }, data },
      };
    case 'patch':
      return { method: 'PATCH', path: item, body: { data } };
    case 'delete':
      return { method: 'DELETE', path: `${item}?propagationPolicy=Background` };
  }
}

/** One write; returns undefined when acknowledged, else how it ended (the worker stops). */
async function attempt(
  target: Target,
  agent: Agent,
  ledger: Ledger,
  rec: ObjectRecord,
  stopping: () => boolean,
): Promise<string | undefined> {
  const op = chooseOp(rec);
  rec.counter++;
  const data = op === 'delete' ? undefined : makeData(rec.name, rec.counter);
  rec.pending = data === undefined ? { op } : { op, data };
  const { method, path, body } = requestFor(ledger, rec, op, data);
  let reply: Reply;
  try {
    reply = await send(target, agent, method, path, body);
  } catch (e) {
    if (!stopping()) ledger.violation(`${op} ${rec.name}: ${String(e)} before the stop`);
    const code = (e as NodeJS.ErrnoException).code;
    // Refused: the request never reached the server, so the object keeps its known state.
    if (code === 'ECONNREFUSED') rec.pending = undefined;
    return code ?? String(e);
  }
  if (reply.status >= 200 && reply.status < 300) {
    ledger.acknowledge(rec, op, reply, data);
    return undefined;
  }
  if (!stopping()) {
    ledger.violation(`${op} ${rec.name}: HTTP ${reply.status} ${JSON.stringify(reply.body)}`);
  }
  // A refusal while stopping (503: shutting down) must not have been applied either.
  if (reply.status === 503) rec.pending = undefined;
  return `HTTP ${reply.status}`;
}

/** Writes random objects of `own` until a write is not acknowledged; returns how it ended. */
async function runWorker(
  target: Target,
  agent: Agent,
  ledger: Ledger,
  own: readonly ObjectRecord[],
  stopping: () => boolean,
): Promise<string> {
  for (;;) {
    const rec = own[Math.floor(Math.random() * own.length)]!;
    const ending = await attempt(target, agent, ledger, rec, stopping);
    if (ending !== undefined) return ending;
  }
}

// ---------------------------------------------------------------------------------------------
// Verification after a restart

export interface VerifyResult {
  /** Objects present after the restart (all checksummed and compared). */
  readonly present: number;
  /** In-flight writes that turned out committed, and ones that did not. */
  readonly pendingApplied: number;
  readonly pendingLost: number;
  readonly listRevision: number;
  /** The resourceVersion of the first write after the restart. */
  readonly firstRevisionAfter: number;
}

function matchesKnown(known: Known, stored: StoredConfigMap | undefined): boolean {
  if (!known.present) return stored === undefined;
  return (
    stored !== undefined &&
    stored.uid === known.uid &&
    stored.rv === known.rv &&
    isDeepStrictEqual(stored.data, known.data)
  );
}

function matchesPending(
  known: Known,
  pending: Pending,
  stored: StoredConfigMap | undefined,
): boolean {
  if (pending.op === 'delete') return stored === undefined;
  if (stored === undefined || !isDeepStrictEqual(stored.data, pending.data)) return false;
  if (pending.op === 'create') return true;
  return stored.uid === known.uid && stored.rv > (known.rv ?? 0);
}

function show(s: Known | StoredConfigMap | undefined): string {
  if (s === undefined || ('present' in s && !s.present)) return 'absent';
  return `uid=${s.uid} rv=${s.rv} counter=${s.data?.counter}`;
}

/** Lists the harness's objects; records torn objects and objects nobody wrote. */
async function listStored(
  target: Target,
  agent: Agent,
  ledger: Ledger,
): Promise<{ revision: number; stored: Map<string, StoredConfigMap> }> {
  const list = await send(
    target,
    agent,
    'GET',
    `/api/v1/namespaces/${ledger.namespace}/configmaps`,
  );
  if (list.status !== 200) throw new Error(`list: HTTP ${list.status}`);
  const body = list.body as { metadata?: { resourceVersion?: string }; items?: unknown[] };
  const stored = new Map<string, StoredConfigMap>();
  for (const item of body.items ?? []) {
    const obj = parseConfigMap(item);
    if (!obj.name.startsWith('crash-w')) continue;
    const torn = tornReason(obj.name, obj.data);
    if (torn !== undefined) ledger.violation(`${obj.name} rv=${obj.rv} is torn: ${torn}`);
    if (!ledger.byName.has(obj.name)) ledger.violation(`${obj.name}: stored, never written`);
    stored.set(obj.name, obj);
  }
  return { revision: Number(body.metadata?.resourceVersion), stored };
}

/**
 * Judges every object against its last acknowledged state (or its in-flight write), then makes
 * the stored state the new baseline.
 */
function reconcileLedger(
  ledger: Ledger,
  stored: ReadonlyMap<string, StoredConfigMap>,
): { pendingApplied: number; pendingLost: number } {
  let pendingApplied = 0;
  let pendingLost = 0;
  for (const rec of ledger.records) {
    const s = stored.get(rec.name);
    if (matchesKnown(rec.known, s)) {
      if (rec.pending !== undefined) pendingLost++;
    } else if (rec.pending !== undefined && matchesPending(rec.known, rec.pending, s)) {
      pendingApplied++;
    } else {
      const inFlight = rec.pending === undefined ? '' : ` (or its in-flight ${rec.pending.op})`;
      ledger.violation(`${rec.name}: acknowledged ${show(rec.known)}${inFlight}, found ${show(s)}`);
    }
    rec.known = s === undefined ? { present: false } : { present: true, ...s };
    rec.pending = undefined;
  }
  return { pendingApplied, pendingLost };
}

/**
 * Compares the restarted server with the ledger (reading through list and get), then makes the
 * observed state the new baseline and performs one write to check the revision went forward.
 */
export async function verifyAfterRestart(target: Target, ledger: Ledger): Promise<VerifyResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 8, ca: target.ca });
  try {
    const { revision: listRevision, stored } = await listStored(target, agent, ledger);
    await checkGets(target, agent, ledger, stored);
    const { pendingApplied, pendingLost } = reconcileLedger(ledger, stored);
    const maxStored = Math.max(0, ...[...stored.values()].map((o) => o.rv));
    if (!(listRevision >= Math.max(ledger.maxRevision, maxStored))) {
      ledger.violation(
        `list resourceVersion ${listRevision} is behind acknowledged ${ledger.maxRevision} / stored ${maxStored}`,
      );
    }
    const firstRevisionAfter = await writeMarker(target, agent, ledger);
    if (!(firstRevisionAfter > Math.max(ledger.maxRevision, maxStored, listRevision))) {
      ledger.violation(
        `first write after restart got resourceVersion ${firstRevisionAfter}, not above acknowledged ${ledger.maxRevision} / stored ${maxStored} / list ${listRevision}`,
      );
    }
    return { present: stored.size, pendingApplied, pendingLost, listRevision, firstRevisionAfter };
  } finally {
    agent.destroy();
  }
}

/** A GET of every object agrees with the list, and a GET of an absent one is 404. */
async function checkGets(
  target: Target,
  agent: Agent,
  ledger: Ledger,
  stored: ReadonlyMap<string, StoredConfigMap>,
): Promise<void> {
  const base = `/api/v1/namespaces/${ledger.namespace}/configmaps`;
  const queue = [...ledger.records];
  const getter = async (): Promise<void> => {
    for (let rec = queue.pop(); rec !== undefined; rec = queue.pop()) {
      const reply = await send(target, agent, 'GET', `${base}/${rec.name}`);
      const listed = stored.get(rec.name);
      if (listed === undefined) {
        if (reply.status !== 404)
          ledger.violation(`GET ${rec.name}: ${reply.status}, list: absent`);
        continue;
      }
      if (reply.status !== 200) {
        ledger.violation(`GET ${rec.name}: HTTP ${reply.status}, list: ${show(listed)}`);
        continue;
      }
      if (!isDeepStrictEqual(parseConfigMap(reply.body), listed)) {
        ledger.violation(`GET ${rec.name} differs from the list`);
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, getter));
}

/** Creates or updates `crash-marker`; returns its new resourceVersion. */
async function writeMarker(target: Target, agent: Agent, ledger: Ledger): Promise<number> {
  const path = `/api/v1/namespaces/${ledger.namespace}/configmaps/crash-marker`;
  const body = { metadata: { name: 'crash-marker' }, data: { at: new Date().toISOString() } };
  let reply = await send(target, agent, 'PUT', path, body);
  if (reply.status === 404) {
    reply = await send(
      target,
      agent,
      'POST',
      `/api/v1/namespaces/${ledger.namespace}/configmaps`,
      body,
    );
  }
  if (reply.status !== 200 && reply.status !== 201) {
    throw new Error(`marker write: HTTP ${reply.status} ${JSON.stringify(reply.body)}`);
  }
  return parseConfigMap(reply.body).rv;
}

// ---------------------------------------------------------------------------------------------
// Rounds

export type StopMode = 'kill' | 'term';

export interface CrashSeriesOptions {
  readonly rounds: number;
  /** SIGKILL (a crash) or SIGTERM (a clean stop that must exit 0). @default 'kill' */
  readonly mode?: StopMode;
  /** @default 24 */
  readonly workers?: number;
  /** @default 4 */
  readonly objectsPerWorker?: number;
  /** The stop comes a random time in [min, max] ms after the load starts. @default [50, 400] */
  readonly stopAfterMs?: readonly [number, number];
  /** Extra `fleetyard up` flags. */
  readonly args?: readonly string[];
  /** Keep the data dir when something failed (its path is in the report). @default false */
  readonly keepFailedDataDir?: boolean;
  /** Called after each round (the soak prints a line). */
  readonly onRound?: (report: RoundReport) => void;
}

export interface RoundReport {
  readonly round: number;
  readonly stopAfterMs: number;
  /** Writes acknowledged during this round's load. */
  readonly acknowledged: number;
  /** How each worker's last request ended (ECONNRESET, ECONNREFUSED, HTTP 503, …). */
  readonly endings: Readonly<Record<string, number>>;
  /** SIGTERM only: the exit code. */
  readonly exitCode?: number | null;
  /**
   * SIGTERM only: how the watches that were open (and receiving the load's events) ended:
   * `end` when every stream ended with its terminating chunk, else what happened instead.
   */
  readonly watchEnd?: string;
  readonly verify: VerifyResult;
  readonly durationMs: number;
  /** Violations found in this round (also in the series report). */
  readonly violations: readonly string[];
}

export interface CrashSeriesReport {
  readonly rounds: readonly RoundReport[];
  readonly acknowledged: WriteCounts;
  readonly violations: readonly string[];
  readonly durationMs: number;
  /** The server's stderr of every run that had a violation. */
  readonly logs: readonly string[];
  /** The data dir, when kept after a failure. */
  readonly keptDataDir?: string;
}

const TERM_DEADLINE_MS = 10_000;
/** Watches open (and receiving the load's events) during each round. */
const WATCHES = 8;

function totalAcknowledged(c: WriteCounts): number {
  return c.create + c.update + c.patch + c.delete;
}

/** Sends the stop; for SIGTERM, returns the exit code (or records a hang and kills). */
async function stopProcess(
  cluster: Cluster,
  mode: StopMode,
  ledger: Ledger,
): Promise<number | null | undefined> {
  if (mode === 'kill') {
    await cluster.kill();
    return undefined;
  }
  const deadline = sleep(TERM_DEADLINE_MS, 'timeout' as const, { ref: false });
  const result = await Promise.race([cluster.stop(), deadline]);
  if (result === 'timeout') {
    ledger.violation(`SIGTERM: still running after ${TERM_DEADLINE_MS} ms`);
    await cluster.kill();
    return undefined;
  }
  if (result !== 0) ledger.violation(`SIGTERM: exit code ${result}`);
  return result;
}

/**
 * Watches configmaps from the current revision until the stream ends; resolves with how it
 * ended. A clean stop must end it with the terminating chunk, not a reset.
 */
function openWatch(target: Target): Promise<{ readonly ended: Promise<string> }> {
  const agent = new Agent({ ca: target.ca });
  return new Promise((opened, failed) => {
    const req = request(
      new URL('/api/v1/configmaps?watch=true', target.url),
      { agent, headers: { authorization: `Bearer ${target.token}` } },
      (res) => {
        const ended = new Promise<string>((resolve) => {
          let bytes = 0;
          res.on('data', (c: Buffer) => {
            bytes += c.length;
          });
          res.on('end', () => resolve(res.complete ? 'end' : `incomplete after ${bytes} bytes`));
          res.on('error', (e) => resolve(`${String(e)} after ${bytes} bytes`));
          res.on('aborted', () => resolve(`aborted after ${bytes} bytes`));
          res.on('close', () => resolve(`closed without end after ${bytes} bytes`));
        });
        opened({ ended: ended.finally(() => agent.destroy()) });
      },
    );
    req.on('error', failed);
    req.end();
  });
}

/** `end` when every watch ended with its terminating chunk, else how many did not and how. */
async function howWatchesEnded(
  watches: readonly { readonly ended: Promise<string> }[],
): Promise<string> {
  const ends = await Promise.all(watches.map((w) => w.ended));
  const bad = ends.filter((e) => e !== 'end');
  return bad.length === 0 ? 'end' : `${bad.length}/${ends.length} watches ${bad[0]}`;
}

async function runRound(
  round: number,
  cluster: Cluster,
  ledger: Ledger,
  options: Required<
    Pick<CrashSeriesOptions, 'mode' | 'workers' | 'objectsPerWorker' | 'stopAfterMs'>
  > &
    Pick<CrashSeriesOptions, 'args'>,
): Promise<{ report: Omit<RoundReport, 'verify' | 'durationMs' | 'violations'>; next: Cluster }> {
  const [min, max] = options.stopAfterMs;
  const stopAfterMs = Math.round(min + Math.random() * (max - min));
  const before = totalAcknowledged(ledger.acknowledged);
  const watches = await Promise.all(Array.from({ length: WATCHES }, () => openWatch(cluster)));
  const load = startLoad(cluster, ledger, options);
  await sleep(stopAfterMs);
  load.expectErrors();
  const exitCode = await stopProcess(cluster, options.mode, ledger);
  const endings = await load.done;
  const watchEnd = options.mode === 'term' ? await howWatchesEnded(watches) : undefined;
  const next = await startCluster({ dataDir: cluster.dataDir, args: options.args ?? [] });
  return {
    report: {
      round,
      stopAfterMs,
      acknowledged: totalAcknowledged(ledger.acknowledged) - before,
      ...(exitCode !== undefined ? { exitCode } : {}),
      ...(watchEnd !== undefined ? { watchEnd } : {}),
      endings,
    },
    next,
  };
}

/**
 * Runs `rounds` stop/restart cycles on one SQLite data dir: load, stop at a random moment,
 * restart, verify. Never throws for a violation; returns them all.
 */
export async function runCrashSeries(options: CrashSeriesOptions): Promise<CrashSeriesReport> {
  const started = Date.now();
  const settings = {
    mode: options.mode ?? 'kill',
    workers: options.workers ?? 24,
    objectsPerWorker: options.objectsPerWorker ?? 4,
    stopAfterMs: options.stopAfterMs ?? ([50, 400] as const),
    args: options.args ?? [],
  };
  const ledger = new Ledger({ namespace: 'default', ...settings });
  const rounds: RoundReport[] = [];
  const logs: string[] = [];
  const dataDir = newDataDir('fleetyard-crash-');
  let cluster = await startCluster({ dataDir, args: settings.args });
  let failed = true;
  try {
    for (let round = 1; round <= options.rounds; round++) {
      const roundStarted = Date.now();
      const violationsBefore = ledger.violations.length;
      ledger.round = round;
      const previousLog = cluster.stderr();
      const { report, next } = await runRound(round, cluster, ledger, settings);
      cluster = next;
      const verify = await verifyAfterRestart(cluster, ledger);
      const violations = ledger.violations.slice(violationsBefore);
      if (violations.length > 0) logs.push(previousLog, cluster.stderr());
      const full: RoundReport = {
        ...report,
        verify,
        durationMs: Date.now() - roundStarted,
        violations,
      };
      rounds.push(full);
      options.onRound?.(full);
    }
    failed = false;
  } catch (e) {
    const where = options.keepFailedDataDir ? `data dir kept: ${dataDir}` : 'data dir removed';
    const found = ledger.violations.slice(0, 20).join('\n  ');
    throw new Error(
      `crash series failed in round ${ledger.round} (${where}): ${String(e)}${found ? `\nviolations so far:\n  ${found}` : ''}`,
      { cause: e },
    );
  } finally {
    const code = await cluster.stop();
    if (code !== 0) ledger.violation(`final SIGTERM: exit code ${code}`);
    failed ||= ledger.violations.length > 0;
    if (!(failed && options.keepFailedDataDir)) cluster.cleanup();
  }
  return {
    rounds,
    acknowledged: { ...ledger.acknowledged },
    violations: [...ledger.violations],
    durationMs: Date.now() - started,
    logs,
    ...(failed && options.keepFailedDataDir ? { keptDataDir: dataDir } : {}),
  };
}
