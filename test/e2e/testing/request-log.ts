/**
 * The server's own account of a run: `fleetyard up --log-level debug` writes one JSON line per
 * finished request (`msg: "request"`, method, url, code, ms, userAgent). The kubectl matrix
 * reads these lines back and fails a test when the server answered a 4xx or 5xx that the test
 * did not declare: a flow that "works" only because kubectl shrugged off an error (a 404 on an
 * OpenAPI document, a 406 on a Table request, a 415 on a patch type) is a compatibility bug.
 *
 * Log lines are written asynchronously, so a check first sends a marker request and waits for
 * its line: the log is complete up to it, and every request of the test ran before it.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { afterEach, beforeEach } from 'node:test';
import type { Cluster } from './cluster.js';

/** One request as the server logged it. */
export interface LoggedRequest {
  readonly method: string;
  /** Path and query as sent. */
  readonly url: string;
  /** The path without the query. */
  readonly path: string;
  readonly code: number;
  readonly ms: number;
  readonly userAgent: string;
  /** Character offset of the line in the stderr text (orders requests and windows). */
  readonly offset: number;
}

/** An error answer a test provokes on purpose or knows a client to cause. */
export interface ExpectedStatus {
  /** Any method when absent. */
  readonly method?: string;
  /** The path without the query: a string must match exactly, a RegExp anywhere. */
  readonly path: string | RegExp;
  readonly code: number;
  /** Why it is expected; printed when a required one never happened. */
  readonly why: string;
  /** Fail when no request matched (the error is part of the flow under test). */
  readonly required?: boolean;
}

/** The request lines of a fleetyard stderr text; other log lines are skipped. */
export function parseRequestLog(stderr: string): LoggedRequest[] {
  const out: LoggedRequest[] = [];
  let offset = 0;
  for (const line of stderr.split('\n')) {
    const at = offset;
    offset += line.length + 1;
    if (!line.includes('"msg":"request"')) continue;
    const entry = parseLine(line);
    if (entry) out.push({ ...entry, offset: at });
  }
  return out;
}

function parseLine(line: string): Omit<LoggedRequest, 'offset'> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined; // a line cut by the pipe; the marker wait makes this the last one only
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (v.msg !== 'request' || typeof v.url !== 'string' || typeof v.code !== 'number') {
    return undefined;
  }
  const url = v.url;
  const q = url.indexOf('?');
  return {
    method: typeof v.method === 'string' ? v.method : '',
    url,
    path: q < 0 ? url : url.slice(0, q),
    code: v.code,
    ms: typeof v.ms === 'number' ? v.ms : 0,
    userAgent: typeof v.userAgent === 'string' ? v.userAgent : '',
  };
}

export function isError(r: LoggedRequest): boolean {
  return r.code >= 400;
}

export function matches(r: LoggedRequest, e: ExpectedStatus): boolean {
  if (r.code !== e.code) return false;
  if (e.method !== undefined && e.method !== r.method) return false;
  return typeof e.path === 'string' ? r.path === e.path : e.path.test(r.path);
}

/** The error answers no expectation covers. */
export function unexpectedErrors(
  requests: readonly LoggedRequest[],
  expected: readonly ExpectedStatus[],
): LoggedRequest[] {
  return requests.filter((r) => isError(r) && !expected.some((e) => matches(r, e)));
}

/** The required expectations no request matched. */
export function missingRequired(
  requests: readonly LoggedRequest[],
  expected: readonly ExpectedStatus[],
): ExpectedStatus[] {
  return expected.filter((e) => e.required && !requests.some((r) => matches(r, e)));
}

/** `kubectl.1.31/v1.31.9 (linux/amd64) kubernetes/8f38003` → `kubectl.1.31`. */
export function clientName(userAgent: string): string {
  return userAgent.split('/')[0] || '(no user agent)';
}

export function formatRequest(r: LoggedRequest): string {
  return `  ${r.code} ${r.method} ${r.url}  (${clientName(r.userAgent)}, ${r.ms} ms)`;
}

/** The failure text: what was unexpected, what was missing, and the test's expectations. */
export function auditReport(
  label: string,
  requests: readonly LoggedRequest[],
  expected: readonly ExpectedStatus[],
): string | undefined {
  const unexpected = unexpectedErrors(requests, expected);
  const missing = missingRequired(requests, expected);
  if (unexpected.length === 0 && missing.length === 0) return undefined;
  const parts = [`${label}: the server's request log does not match the test's expectations`];
  if (unexpected.length > 0) {
    parts.push(
      `unexpected error answers (${unexpected.length}):`,
      ...unexpected.map(formatRequest),
    );
  }
  if (missing.length > 0) {
    parts.push(
      'expected error answers that never happened:',
      ...missing.map((e) => `  ${e.code} ${e.method ?? '*'} ${String(e.path)}  (${e.why})`),
    );
  }
  if (expected.length > 0) {
    parts.push(
      'declared as expected:',
      ...expected.map((e) => `  ${e.code} ${e.method ?? '*'} ${String(e.path)}  (${e.why})`),
    );
  }
  return parts.join('\n');
}

/** Arguments that make `fleetyard up` log every request (pass through `clusterForFile`). */
export const REQUEST_LOG_ARGS = ['--log-level', 'debug'] as const;

let markers = 0;
const MARK = 'audit-mark-';

/**
 * GET /version?timeout=audit-mark-N with the cluster's token, then waits for its log line. The
 * mark rides in `timeout`, a parameter whose value the access log keeps (it redacts the values
 * of parameters Kubernetes does not define: docs/security.md).
 */
async function flush(cluster: Cluster): Promise<number> {
  const mark = `${MARK}${process.pid}-${++markers}`;
  await new Promise<void>((resolve, reject) => {
    const req = request(
      `${cluster.url}/version?timeout=${mark}`,
      { ca: cluster.ca, headers: { authorization: `Bearer ${cluster.token}` } },
      (res) => {
        res.resume();
        res.once('end', () => resolve());
      },
    );
    req.once('error', reject);
    req.end();
  });
  const deadline = Date.now() + 5_000;
  for (;;) {
    const text = cluster.stderr();
    const at = text.indexOf(mark);
    if (at >= 0) return text.lastIndexOf('\n', at) + 1;
    if (Date.now() > deadline) throw new Error(`the request log never showed ${mark}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Per-test audit of one cluster's request log. `perTest()` (inside a describe) opens a window
 * before each test and checks it after; `expect()` (inside a test) declares an error answer.
 * `sweep()` checks the requests of hooks, i.e. outside every window, against the expectations
 * given to `expectInHooks()`.
 */
export class RequestAudit {
  readonly #cluster: () => Cluster;
  #expected: ExpectedStatus[] = [];
  readonly #inHooks: ExpectedStatus[] = [];
  #windowStart = 0;
  readonly #windows: Array<readonly [number, number]> = [];

  constructor(cluster: () => Cluster) {
    this.#cluster = cluster;
  }

  /** Declares error answers the current test expects. */
  expect(...expected: ExpectedStatus[]): void {
    this.#expected.push(...expected);
  }

  /** Declares error answers that requests made by hooks (outside the tests) may get. */
  expectInHooks(...expected: ExpectedStatus[]): void {
    this.#inHooks.push(...expected);
  }

  /** Registers the beforeEach/afterEach pair in the enclosing describe. */
  perTest(): void {
    beforeEach(async () => {
      this.#expected = [];
      this.#windowStart = await flush(this.#cluster());
    });
    afterEach(async (t) => {
      const end = await flush(this.#cluster());
      this.#windows.push([this.#windowStart, end]);
      const inWindow = this.requests(this.#windowStart, end);
      const report = auditReport(t.name, inWindow, this.#expected);
      this.#expected = [];
      assert.equal(report, undefined, report);
    });
  }

  /** The logged requests between two stderr offsets, without the audit's own markers. */
  requests(from = 0, to = Number.POSITIVE_INFINITY): LoggedRequest[] {
    return parseRequestLog(this.#cluster().stderr()).filter(
      (r) => r.offset >= from && r.offset < to && !r.url.includes(MARK),
    );
  }

  /** Checks every request outside the test windows (before/after hooks). */
  async sweep(): Promise<void> {
    let cluster: Cluster;
    try {
      cluster = this.#cluster();
    } catch {
      return; // the cluster never started; its own hook reports that
    }
    await flush(cluster);
    const outside = this.requests().filter(
      (r) => !this.#windows.some(([from, to]) => r.offset >= from && r.offset < to),
    );
    const report = auditReport('hooks (outside the tests)', outside, this.#inHooks);
    assert.equal(report, undefined, report);
  }
}
