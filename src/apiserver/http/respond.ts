/**
 * Writing responses: JSON bodies (often pre-encoded stored JSON) and Status errors, as
 * kube-apiserver's JSON serializer writes them: `json.Encoder.Encode` (HTML-safe strings and
 * a closing newline) or, when the request asks for it, `json.MarshalIndent` with two spaces
 * and no newline.
 *
 * @module
 */

import type { ServerResponse } from 'node:http';
import { internalError, StatusError, statusJson, unclassifiedError } from '../../api/errors.js';
import { parseJson, stringifyJson } from '../../api/int64-json.js';
import { goHtmlSafe } from '../../api/managed-fields/go-json.js';
import { UnwritableError } from '../../storage/backend.js';
import { auditOf } from '../audit/auditor.js';
import { wantsPretty } from './pretty.js';

/** The body's bytes as upstream's serializer writes them for this request. */
function encodeBody(res: ServerResponse, body: string | object): string {
  if (wantsPretty(res.req)) {
    const value = typeof body === 'string' ? parseJson(body) : body;
    return goHtmlSafe(stringifyJson(value, 2));
  }
  const text = typeof body === 'string' ? body : stringifyJson(body);
  return text.endsWith('\n') ? goHtmlSafe(text) : `${goHtmlSafe(text)}\n`;
}

export function sendJson(
  res: ServerResponse,
  code: number,
  body: string | object,
  contentType = 'application/json',
): void {
  const text = encodeBody(res, body);
  const audit = auditOf(res.req);
  if (audit.recordsResponseBody) {
    if (typeof body === 'string') audit.responseJson(body);
    else audit.responseObject(body);
  }
  res.writeHead(code, {
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-cache, private',
  });
  res.end(text);
}

/**
 * `responsewriters.WriteRawJSON`, which `/version` answers with: always indented, whatever
 * the request asked.
 */
export function sendRawJson(res: ServerResponse, code: number, value: object): void {
  const text = goHtmlSafe(JSON.stringify(value, null, 2));
  res.writeHead(code, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-cache, private',
  });
  res.end(text);
}

export function sendText(res: ServerResponse, code: number, text: string): void {
  res.writeHead(code, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(text);
}

/**
 * Renders any thrown value as a Status; unknown errors become 500 without internals. A write
 * the disk refused (full, read-only, failing) is answered as kube-apiserver answers etcd's
 * NOSPACE ("etcdserver: mvcc: database space exceeded"), an error the registry does not
 * classify: 500 with no reason and the storage's message, which kubectl prints as
 * `Error from server: <message>`.
 */
export function toStatusError(e: unknown): StatusError {
  if (e instanceof StatusError) return e;
  if (e instanceof UnwritableError) return unclassifiedError(e.message);
  return internalError(e instanceof Error ? e.message : String(e));
}

export function sendError(res: ServerResponse, e: StatusError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // Every level keeps a Status's code, reason and message.
  auditOf(res.req).responseObject(e.status);
  sendJson(res, e.code, statusJson(e.status));
}

/**
 * A refused authentication or impersonation: a Status, or, where upstream answers with
 * `responsewriters.InternalError` (impersonation headers without a user), its plain-text body.
 */
export function sendRefusal(res: ServerResponse, e: StatusError, plainTextBody?: string): void {
  if (plainTextBody === undefined) {
    sendError(res, e);
    return;
  }
  res.writeHead(e.code, {
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(plainTextBody);
}
