/**
 * `/healthz`, `/livez` and `/readyz`, in kube-apiserver's format (`k8s.io/apiserver/pkg/server/
 * healthz`): each endpoint runs its named checks; all passing answers 200 `ok` (with `?verbose`
 * the list, `[+]<name> ok` per check, then `<endpoint> check passed`); any failing answers 500
 * with the list, `[-]<name> failed: reason withheld` for the failed ones (the root endpoints
 * are public), then `<endpoint> check failed`. `?exclude=<name>` skips a check. `/<endpoint>/<name>`
 * runs one check and, failing, gives its reason (`internal server error: <reason>`); as upstream,
 * those paths need credentials (only the roots are public).
 *
 * The checks, after upstream's for etcd:
 * - `ping`: always passes.
 * - `storage` (upstream `etcd`, on all three endpoints): the store serves reads. It fails only
 *   when the store stopped for good or closed, which a restart fixes: liveness.
 * - `storage-readiness` (upstream `etcd-readiness`, `/readyz` only): the store also takes
 *   writes. It fails while the disk is full, read-only or failing. Upstream's etcd checks are
 *   reads and stay green under NOSPACE; here readiness says what a client will meet: writes
 *   fail until space is freed, with no restart needed (so `/livez` stays green).
 *
 * @module
 */
import type { ServerResponse } from 'node:http';
import { pathNotFound } from '../api/errors.js';
import type { Backend } from '../storage/backend.js';
import type { ApiServices } from './handlers/context.js';
import { sendText } from './http/respond.js';

/** A named check: undefined when it passes, the reason when it fails. */
export interface HealthCheck {
  readonly name: string;
  readonly check: () => string | undefined;
}

const ENDPOINTS = ['healthz', 'livez', 'readyz'] as const;
type Endpoint = (typeof ENDPOINTS)[number];

const ping: HealthCheck = { name: 'ping', check: () => undefined };

function storageLive(backend: Backend): HealthCheck {
  return {
    name: 'storage',
    check: () => {
      const h = backend.health();
      if (h.state !== 'stopped' && h.state !== 'closed') return undefined;
      return `storage ${h.state}${h.error ? `: ${h.error.message}` : ''}`;
    },
  };
}

function storageReady(backend: Backend): HealthCheck {
  return {
    name: 'storage-readiness',
    check: () => {
      const h = backend.health();
      if (h.state === 'ok') return undefined;
      const since = new Date(h.since).toISOString();
      return `storage ${h.state} since ${since}${h.error ? `: ${h.error.message}` : ''}`;
    },
  };
}

/** The checks of one endpoint, in upstream's order. */
export function healthChecks(api: Pick<ApiServices, 'backend'>, endpoint: Endpoint): HealthCheck[] {
  const checks = [ping, storageLive(api.backend)];
  if (endpoint === 'readyz') checks.push(storageReady(api.backend));
  return checks;
}

/** `/healthz`, `/livez`, `/readyz` or one of their checks; undefined for another path. */
export function healthEndpoint(path: string): { endpoint: Endpoint; check?: string } | undefined {
  const [, first, check, ...rest] = path.split('/');
  const endpoint = ENDPOINTS.find((e) => e === first);
  if (endpoint === undefined || rest.length > 0) return undefined;
  return check === undefined ? { endpoint } : { endpoint, check };
}

/** Answers a health request for `path` (which {@link healthEndpoint} recognised). */
export function serveHealth(
  api: Pick<ApiServices, 'backend'>,
  res: ServerResponse,
  path: string,
  query: URLSearchParams,
): void {
  const target = healthEndpoint(path);
  if (target === undefined) throw pathNotFound();
  const checks = healthChecks(api, target.endpoint);
  if (target.check !== undefined) {
    const one = checks.find((c) => c.name === target.check);
    if (one === undefined) throw pathNotFound();
    const reason = one.check();
    if (reason === undefined) sendText(res, 200, 'ok');
    else sendText(res, 500, `internal server error: ${reason}\n`);
    return;
  }
  const { code, text } = renderHealth(target.endpoint, checks, query);
  sendText(res, code, text);
}

/** The root endpoint's answer: status code and body, byte for byte as upstream's. */
export function renderHealth(
  endpoint: Endpoint,
  checks: readonly HealthCheck[],
  query: URLSearchParams,
): { code: number; text: string } {
  const excluded = new Set(query.getAll('exclude'));
  let lines = '';
  let failed = false;
  for (const c of checks) {
    if (excluded.delete(c.name)) {
      lines += `[+]${c.name} excluded: ok\n`;
      continue;
    }
    if (c.check() === undefined) {
      lines += `[+]${c.name} ok\n`;
    } else {
      // Withheld: the root endpoints are public; `/<endpoint>/<name>` (authenticated) says why.
      lines += `[-]${c.name} failed: reason withheld\n`;
      failed = true;
    }
  }
  if (excluded.size > 0) {
    const names = [...excluded].sort().map((n) => JSON.stringify(n));
    lines += `warn: some health checks cannot be excluded: no matches for ${names.join(',')}\n`;
  }
  // Go's http.Error ends the body with a newline.
  if (failed) return { code: 500, text: `${lines}${endpoint} check failed\n` };
  if (!query.has('verbose')) return { code: 200, text: 'ok' };
  return { code: 200, text: `${lines}${endpoint} check passed\n` };
}
