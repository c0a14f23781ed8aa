/**
 * Writing a document the way Go's `http.ServeContent` does for kube-openapi's handlers:
 * quoted `ETag`, `Last-Modified`, `304 Not Modified` for a matching `If-None-Match` (or an
 * unchanged `If-Modified-Since` when no `If-None-Match` is sent), no body for HEAD.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface DocumentAnswer {
  readonly body: Buffer;
  readonly contentType: string;
  /** Unquoted; sent as `"…"`. */
  readonly etag: string;
  readonly modified: Date;
  /** Extra headers (`Cache-Control`, `Expires`, `Vary`). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The apiserver's default for responses that set no caching policy (`WithCacheControl`). */
export const NO_CACHE = 'no-cache, private';

export function sendDocument(req: IncomingMessage, res: ServerResponse, a: DocumentAnswer): void {
  const etag = `"${a.etag}"`;
  const headers: Record<string, string> = {
    'Cache-Control': NO_CACHE,
    ...a.headers,
    'Content-Type': a.contentType,
    ETag: etag,
    'Last-Modified': a.modified.toUTCString(),
  };
  if (notModified(req, etag, a.modified)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  headers['Content-Length'] = String(a.body.length);
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : a.body);
}

/** A permanent redirect with no body (kube-openapi's answer to an outdated `?hash=`). */
export function sendRedirect(
  res: ServerResponse,
  location: string,
  headers: Readonly<Record<string, string>>,
): void {
  res.writeHead(301, { ...headers, Location: location, 'Content-Length': '0' });
  res.end();
}

function notModified(req: IncomingMessage, etag: string, modified: Date): boolean {
  const inm = req.headers['if-none-match'];
  if (inm !== undefined) {
    return inm.split(',').some((t) => {
      const tag = t.trim();
      return tag === '*' || tag.replace(/^W\//, '') === etag;
    });
  }
  const ims = req.headers['if-modified-since'];
  if (ims === undefined) return false;
  const since = Date.parse(ims);
  // HTTP dates have whole seconds; compare at that precision.
  return Number.isFinite(since) && Math.floor(modified.getTime() / 1000) * 1000 <= since;
}
