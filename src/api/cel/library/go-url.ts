/**
 * Go's `net/url.ParseRequestURI`, for the Kubernetes URL library: the input must be an absolute
 * URI or an absolute path; there is no fragment handling. Accessors follow Go's `URL.Hostname`,
 * `URL.Port`, `URL.EscapedPath` and `URL.Query`. Errors carry Go's text (`parse "x": ...`).
 *
 * @module
 */

export interface GoUrl {
  readonly scheme: string;
  readonly opaque: string;
  readonly host: string;
  readonly path: string;
  readonly rawPath: string;
  readonly rawQuery: string;
}

export type GoUrlResult = { ok: true; url: GoUrl } | { ok: false; error: string };

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*$/;

/** `url.ParseRequestURI(raw)`. */
export function parseRequestUri(raw: string): GoUrlResult {
  const fail = (why: string): GoUrlResult => ({
    ok: false,
    error: `parse ${goQuote(raw)}: ${why}`,
  });
  // biome-ignore lint/suspicious/noControlCharactersInRegex: Go rejects exactly these.
  if (/[\x00-\x1f\x7f]/.test(raw)) return fail('net/url: invalid control character in URL');
  if (raw === '') return fail('empty url');
  if (raw === '*') return { ok: true, url: { ...EMPTY, path: '*' } };
  const colon = schemeEnd(raw);
  if (colon === 0) return fail('missing protocol scheme');
  const scheme = colon > 0 ? raw.slice(0, colon).toLowerCase() : '';
  let rest = colon > 0 ? raw.slice(colon + 1) : raw;
  let rawQuery = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    rawQuery = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  if (!rest.startsWith('/')) {
    if (scheme !== '') return { ok: true, url: { ...EMPTY, scheme, opaque: rest, rawQuery } };
    return fail('invalid URI for request');
  }
  let host = '';
  if (scheme !== '' && rest.startsWith('//') && !rest.startsWith('///')) {
    const authority = rest.slice(2);
    const slash = authority.indexOf('/');
    const auth = slash < 0 ? authority : authority.slice(0, slash);
    rest = slash < 0 ? '' : authority.slice(slash);
    const parsed = parseAuthority(auth);
    if (typeof parsed !== 'string') return fail(parsed.error);
    host = parsed;
  }
  const path = unescapePath(rest);
  if (path === undefined) return fail(`invalid URL escape ${goQuote(badEscape(rest))}`);
  return { ok: true, url: { scheme, opaque: '', host, path, rawPath: rest, rawQuery } };
}

const EMPTY: GoUrl = { scheme: '', opaque: '', host: '', path: '', rawPath: '', rawQuery: '' };

/** Index of the scheme's colon, -1 when there is no scheme, 0 when the scheme is empty. */
function schemeEnd(raw: string): number {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] ?? '';
    if (c === ':') return SCHEME.test(raw.slice(0, i)) || i === 0 ? i : -1;
    if (!/[a-zA-Z0-9+.-]/.test(c)) return -1;
    if (i === 0 && !/[a-zA-Z]/.test(c)) return -1;
  }
  return -1;
}

function parseAuthority(auth: string): string | { error: string } {
  const at = auth.lastIndexOf('@');
  const hostPort = at < 0 ? auth : auth.slice(at + 1);
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']');
    if (close < 0) return { error: `missing ']' in host` };
    const port = hostPort.slice(close + 1);
    if (port !== '' && !/^:\d*$/.test(port)) {
      return { error: `invalid port ${goQuote(port)} after host` };
    }
    return hostPort;
  }
  const c = hostPort.lastIndexOf(':');
  if (c >= 0 && !/^\d*$/.test(hostPort.slice(c + 1))) {
    return { error: `invalid port ${goQuote(hostPort.slice(c))} after host` };
  }
  if (/%(?![0-9a-fA-F]{2})/.test(hostPort)) return { error: 'invalid URL escape' };
  return decodePercent(hostPort) ?? hostPort;
}

function badEscape(s: string): string {
  const i = s.search(/%(?![0-9a-fA-F]{2})/);
  return i < 0 ? '' : s.slice(i, i + 3);
}

function decodePercent(s: string): string | undefined {
  if (/%(?![0-9a-fA-F]{2})/.test(s)) return undefined;
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '%') {
      bytes.push(Number.parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(s[i] ?? '', 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function unescapePath(s: string): string | undefined {
  return decodePercent(s);
}

/** Go's `%q` for the ASCII strings URLs are. */
export function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** `URL.Hostname()`: the host without port or IPv6 brackets. */
export function hostname(u: GoUrl): string {
  const [host] = splitHostPort(u.host);
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** `URL.Port()`: the digits after the host's colon, or `""`. */
export function port(u: GoUrl): string {
  return splitHostPort(u.host)[1];
}

function splitHostPort(hostPort: string): [string, string] {
  const colon = hostPort.lastIndexOf(':');
  if (colon >= 0 && colon > hostPort.lastIndexOf(']') && /^\d*$/.test(hostPort.slice(colon + 1))) {
    return [hostPort.slice(0, colon), hostPort.slice(colon + 1)];
  }
  return [hostPort, ''];
}

// Go's shouldEscape(c, encodePath): unreserved characters and the path's sub-delimiters stay.
const PATH_SAFE = /[A-Za-z0-9\-_.~$&+,/:;=@!'()*]/;

/** `URL.EscapedPath()`: the original path text when it is a valid encoding, else re-escaped. */
export function escapedPath(u: GoUrl): string {
  if (u.rawPath !== '' && validEncodedPath(u.rawPath) && decodePercent(u.rawPath) === u.path) {
    return u.rawPath;
  }
  if (u.path === '*') return '*';
  let out = '';
  for (const ch of u.path) {
    if (PATH_SAFE.test(ch)) out += ch;
    else
      for (const b of Buffer.from(ch, 'utf8'))
        out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function validEncodedPath(s: string): boolean {
  for (const ch of s) {
    if (ch === '%') continue;
    if (!PATH_SAFE.test(ch) && ch !== '[' && ch !== ']') return false;
  }
  return true;
}

/** `URL.Query()`: values by key in order; pairs with bad escapes or `;` are dropped, as Go does. */
export function query(u: GoUrl): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const pair of u.rawQuery.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    const k = decodePercent((eq < 0 ? pair : pair.slice(0, eq)).replaceAll('+', ' '));
    const v = decodePercent((eq < 0 ? '' : pair.slice(eq + 1)).replaceAll('+', ' '));
    if (k === undefined || v === undefined) continue;
    const list = out.get(k);
    if (list) list.push(v);
    else out.set(k, [v]);
  }
  return out;
}
