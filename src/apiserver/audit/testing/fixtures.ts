/**
 * What the audit tests share: a sink that keeps lines, an auditor on a fake clock with
 * numbered IDs, and Node-like requests.
 *
 * @module
 */
import { FakeClock } from '../../../util/clock.js';
import type { UserInfo } from '../../authentication/user.js';
import { parseRequestInfo } from '../../request-info.js';
import { Auditor } from '../auditor.js';
import type { AuditSink } from '../log-backend.js';
import { parsePolicy } from '../policy.js';
import type { Policy } from '../types.js';

/** A sink that keeps the lines it is given. */
export class MemorySink implements AuditSink {
  readonly lines: string[] = [];
  write(line: string): boolean {
    this.lines.push(line);
    return true;
  }
  async close(): Promise<void> {}
  events(): Record<string, unknown>[] {
    return this.lines.map((l) => JSON.parse(l));
  }
}

export const START = Date.UTC(2026, 11, 2, 5, 10, 0, 123);
export const ALL_STAGES = parsePolicy(`
apiVersion: audit.k8s.io/v1
kind: Policy
rules:
  - level: Metadata
    resources: [{group: "", resources: [secrets, "serviceaccounts/token"]}]
  - level: RequestResponse
    resources: [{group: authentication.k8s.io, resources: [tokenreviews]}]
    verbs: [update]
  - level: Request
    resources: [{group: authentication.k8s.io, resources: [tokenreviews]}]
  - level: Request
    verbs: [create]
    omitManagedFields: true
  - level: Metadata
`);

export function setup(policy: Policy = ALL_STAGES) {
  const sink = new MemorySink();
  const clock = new FakeClock(START);
  let n = 0;
  const auditor = new Auditor({ policy, sink, clock, newId: () => `id-${++n}` });
  return { sink, clock, auditor };
}

export function request(method: string, url: string, headers: Record<string, string> = {}) {
  const u = new URL(url, 'https://x');
  return {
    req: {
      method,
      url,
      headers: { 'user-agent': 'kubectl/v1.33.0', ...headers },
      socket: { remoteAddress: '::ffff:127.0.0.1' },
    },
    requestInfo: parseRequestInfo(method, u.pathname, u.searchParams),
  };
}

export const dev: UserInfo = { username: 'dev', uid: 'u-1', groups: ['system:authenticated'] };
