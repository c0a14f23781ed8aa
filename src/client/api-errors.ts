/**
 * How callers classify the write client's errors, with upstream apimachinery's semantics
 * (`k8s.io/apimachinery/pkg/api/errors`): a Status reason decides, and a bare code only when
 * the reason is none upstream knows. Also the client's own timeout error.
 *
 * @module
 */
import { StatusCodeError } from './lister-watcher.js';

/** The request ran past its time limit and was aborted. */
export class RequestTimeoutError extends Error {
  readonly timeoutMs: number;
  constructor(method: string, path: string, timeoutMs: number) {
    super(`${method} ${path} timed out after ${timeoutMs} ms`);
    this.name = 'RequestTimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

/** The StatusReasons upstream knows; a code alone decides only when the reason is none of them. */
const KNOWN_REASONS: ReadonlySet<string> = new Set([
  'Unauthorized',
  'Forbidden',
  'NotFound',
  'AlreadyExists',
  'Conflict',
  'Gone',
  'Invalid',
  'ServerTimeout',
  'Timeout',
  'TooManyRequests',
  'BadRequest',
  'MethodNotAllowed',
  'NotAcceptable',
  'RequestEntityTooLarge',
  'UnsupportedMediaType',
  'InternalError',
  'Expired',
  'ServiceUnavailable',
]);

function reasonOrCode(err: unknown, reason: string, code: number): boolean {
  if (!(err instanceof StatusCodeError)) return false;
  const given = err.status?.reason ?? '';
  return given === reason || (!KNOWN_REASONS.has(given) && err.code === code);
}

/** 404 NotFound (upstream `IsNotFound`: the reason, or the code when the reason is unknown). */
export function isNotFound(err: unknown): boolean {
  return reasonOrCode(err, 'NotFound', 404);
}

/** 409 Conflict: a stale resourceVersion, a failed precondition or an apply conflict. */
export function isConflict(err: unknown): boolean {
  return reasonOrCode(err, 'Conflict', 409);
}

/** 409 AlreadyExists: only the reason says so (a bare 409 is a conflict), as upstream. */
export function isAlreadyExists(err: unknown): boolean {
  return err instanceof StatusCodeError && err.status?.reason === 'AlreadyExists';
}

/** 429 TooManyRequests (e.g. an eviction a disruption budget blocks): the reason or the code. */
export function isTooManyRequests(err: unknown): boolean {
  return (
    err instanceof StatusCodeError && (err.status?.reason === 'TooManyRequests' || err.code === 429)
  );
}

/** 403 Forbidden (RBAC refused the request): the reason or the code. */
export function isForbidden(err: unknown): boolean {
  return reasonOrCode(err, 'Forbidden', 403);
}
