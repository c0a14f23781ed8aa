/**
 * The request target as the server reads it: the path percent-decoded once, as Go's
 * `url.URL.Path` is, and never normalised. WHATWG's `new URL()` resolves `.` and `..`
 * segments (also `%2e%2e`), so `DELETE …/namespaces/victim/configmaps/%2e%2e` would address
 * Namespace `victim`; here that path keeps its five segments and the name `..` is refused by
 * the path-segment rules (`path-segment.ts`).
 *
 * @module
 */
import { badRequest } from '../../api/errors.js';

export interface RequestUrl {
  /** The decoded path, segments exactly as sent (no dot resolution, no slash folding). */
  readonly pathname: string;
  readonly searchParams: URLSearchParams;
}

/**
 * Parses `req.url` (origin-form `/p?q`, or absolute-form `https://host/p?q` as a proxy sends).
 * A malformed percent escape is a 400, as Go's `url.ParseRequestURI` refuses it.
 */
export function parseRequestUrl(target: string): RequestUrl {
  let rest = target;
  if (!rest.startsWith('/')) {
    const authority = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?]*/.exec(rest);
    rest = authority === null ? '/' : rest.slice(authority[0].length) || '/';
    if (!rest.startsWith('/')) rest = `/${rest}`;
  }
  const q = rest.indexOf('?');
  const rawPath = q === -1 ? rest : rest.slice(0, q);
  const rawQuery = q === -1 ? '' : rest.slice(q + 1);
  let pathname: string;
  try {
    pathname = decodeURIComponent(rawPath);
  } catch {
    throw badRequest(`invalid URL escape in path ${JSON.stringify(rawPath.slice(0, 256))}`);
  }
  return { pathname, searchParams: new URLSearchParams(rawQuery) };
}
