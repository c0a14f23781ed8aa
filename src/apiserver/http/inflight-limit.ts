/**
 * The max-in-flight filter (k8s.io/apiserver `pkg/server/filters/maxinflight.go`): at most
 * `--max-requests-inflight` (400) read-only and `--max-mutating-requests-inflight` (200)
 * mutating requests are served at once; one more is answered `429 Too Many Requests` with
 * `Retry-After: 1`, at once, without queueing. Long-running requests (watches, and the
 * attach/exec/log/portforward/proxy subresources) are not counted, as upstream.
 *
 * Upstream serves this filter only when API Priority and Fairness is disabled
 * (`--enable-priority-and-fairness=false`); APF, its default, shares the same total (600)
 * fairly among flows, a flow being a FlowSchema and a user or namespace. With one identity
 * every kubeconfig request is one flow, so APF would reduce to one limit with a queue; this
 * filter is that limit, refusing at once instead of queueing (nothing is held for a refused
 * request). The two limits are separate pools, so a flood of reads cannot refuse a write and
 * a flood of writes cannot refuse a read. APF belongs with identities (issue 18).
 *
 * Who is never refused: upstream lets a request through when the pool is full if its user is
 * in `system:masters` ("a super-admin or a loopback connection"). fleetyard has one identity
 * today (issue 18 adds more), and everyone holding its token is in effect that super-admin, so
 * exempting it would make the limit useless. Instead the server's own loopback credential (a
 * random token made at start and handed only to the in-process controllers, like upstream's
 * loopback client) is exempt: a flood from any kubeconfig holder cannot starve the
 * controllers. Like upstream, an exempt request takes a slot when one is free and passes
 * without one when none is. The health probes (`/healthz`, `/livez`, `/readyz`) are exempt
 * too, as upstream's default APF configuration exempts them (the `probes` FlowSchema).
 *
 * Upstream writes the 429 with `http.Error` (text/plain "Too many requests, please try again
 * later."); here the same message is a Status (reason TooManyRequests,
 * `details.retryAfterSeconds: 1`, what upstream's `NewTooManyRequests` makes), which client-go
 * turns into the same error as the text.
 *
 * @module
 */
import { StatusError } from '../../api/errors.js';
import { healthEndpoint } from '../health.js';
import type { RequestInfo } from '../request-info.js';

export interface InFlightLimits {
  /** Read-only requests (get, list) at once; 0: no limit. Upstream default 400. */
  readonly maxRequestsInFlight: number;
  /** Mutating requests at once; 0: no limit. Upstream default 200. */
  readonly maxMutatingRequestsInFlight: number;
}

export const DEFAULT_INFLIGHT_LIMITS: InFlightLimits = {
  maxRequestsInFlight: 400,
  maxMutatingRequestsInFlight: 200,
};

/** Upstream's `retryAfter` constant, in seconds. */
export const RETRY_AFTER_SECONDS = 1;

/** What the filter does with a request. */
export type RequestPool = 'readonly' | 'mutating' | 'exempt';

/** Upstream's `BasicLongRunningRequestCheck` sets for kube-apiserver. */
const LONG_RUNNING_VERBS = new Set(['watch', 'proxy']);
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);
const NON_MUTATING_VERBS = new Set(['get', 'list', 'watch']);

/**
 * The pool a request counts against; `exempt` for long-running requests and health probes.
 * `info` is the request's parsed path (the router gets the same one: it is parsed once).
 */
export function requestPool(method: string, pathname: string, info: RequestInfo): RequestPool {
  if (healthEndpoint(pathname) !== undefined) return 'exempt';
  if (info.kind === 'resource') {
    if (LONG_RUNNING_VERBS.has(info.verb)) return 'exempt';
    if (LONG_RUNNING_SUBRESOURCES.has(info.subresource)) return 'exempt';
    return NON_MUTATING_VERBS.has(info.verb) ? 'readonly' : 'mutating';
  }
  if (pathname.startsWith('/debug/pprof/')) return 'exempt';
  // A non-resource request's verb is its method, lower-cased: only GET is read-only.
  return method === 'GET' ? 'readonly' : 'mutating';
}

/** Upstream's 429, as a Status. */
export function tooManyRequests(): StatusError {
  return new StatusError(429, 'TooManyRequests', 'Too many requests, please try again later.', {
    retryAfterSeconds: RETRY_AFTER_SECONDS,
  });
}

/** Counts requests in flight per pool. */
export class InFlightLimiter {
  readonly #limits: InFlightLimits;
  readonly #inFlight = { readonly: 0, mutating: 0 };
  /** Requests refused so far, per pool (upstream's `apiserver_dropped_requests_total`). */
  readonly dropped = { readonly: 0, mutating: 0 };

  constructor(limits: InFlightLimits) {
    this.#limits = limits;
  }

  /** Requests counted in each pool right now. */
  get inFlight(): { readonly readonly: number; readonly mutating: number } {
    return { ...this.#inFlight };
  }

  /**
   * Takes a slot in `pool`. Returns the function that gives it back (call it once, when the
   * response is done), or undefined when the request must be refused. A `privileged` request
   * is never refused: it takes a slot when one is free and passes without one otherwise.
   */
  acquire(pool: RequestPool, privileged: boolean): (() => void) | undefined {
    if (pool === 'exempt') return noop;
    const limit =
      pool === 'mutating'
        ? this.#limits.maxMutatingRequestsInFlight
        : this.#limits.maxRequestsInFlight;
    if (limit <= 0) return noop;
    if (this.#inFlight[pool] >= limit) {
      if (privileged) return noop;
      this.dropped[pool]++;
      return undefined;
    }
    this.#inFlight[pool]++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inFlight[pool]--;
    };
  }
}

function noop(): void {}
