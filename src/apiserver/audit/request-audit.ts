/**
 * Where the server's request path meets the audit log: a request that authenticated starts
 * its record (sent as `Audit-Id`, finished when the response ends; watches and followed logs
 * as long-running, with a `ResponseStarted` event), and a refused authentication gets its one
 * event. Without `--audit-log-path` there is no auditor and both do nothing.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestIdentity } from '../authentication/request-user.js';
import { parseRequestInfo } from '../request-info.js';
import { AUDIT_ID_RESPONSE_HEADER, type Auditor, attachAudit } from './auditor.js';

/** The request's decoded path and query (`http/request-url.ts` makes it). */
type RequestUrl = { readonly pathname: string; readonly searchParams: URLSearchParams };

export interface AuditedRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: RequestUrl;
  readonly identity: RequestIdentity;
  /** A watch or a followed log: a `ResponseStarted` event is written. */
  readonly longRunning: boolean;
}

/** Starts the request's audit record, finished when the response ends. */
export function startAudit(auditor: Auditor | undefined, r: AuditedRequest): void {
  if (auditor === undefined) return;
  const { req, res, url, identity } = r;
  const info = parseRequestInfo(req.method ?? 'GET', url.pathname, url.searchParams);
  const audit = auditor.begin({
    req,
    requestInfo: info,
    // The policy judges the authenticated user; the impersonated one is recorded beside it.
    user: identity.impersonator ?? identity.user,
    ...(identity.impersonator !== undefined ? { impersonatedUser: identity.user } : {}),
    longRunning: r.longRunning,
  });
  res.setHeader(AUDIT_ID_RESPONSE_HEADER, audit.auditID);
  if (audit.level === 'None') return;
  attachAudit(req, audit);
  res.once('close', () => audit.finish(res.headersSent ? res.statusCode : undefined));
}

/** The event of a request whose credentials were refused (401). */
export function auditRefusal(
  auditor: Auditor | undefined,
  req: IncomingMessage,
  url: RequestUrl,
): void {
  if (auditor === undefined) return;
  const info = parseRequestInfo(req.method ?? 'GET', url.pathname, url.searchParams);
  auditor.failedAuthentication({ req, requestInfo: info });
}
