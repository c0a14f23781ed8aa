/**
 * Request URLs as the access log may show them.
 *
 * kube-apiserver's httplog logs the request URI as sent: upstream clients put credentials only
 * in headers, so the URI is taken to hold none. Our server refuses a token in the query too
 * (only the `Authorization` header authenticates), but a refused request is logged all the
 * same, and clients do send `?access_token=…` (OAuth 2.0 bearer usage, RFC 6750 section 2.3),
 * `?token=…`, userinfo (`https://user:pass@…` in an absolute-form request line) or a token
 * pasted into a path. So the URL is reduced to what is known not to be secret:
 * - query parameters: only the values of parameters the Kubernetes API defines are kept
 *   ({@link KNOWN_QUERY_PARAMETERS}); every other value is replaced (a debugging reader
 *   still sees which parameters came), and so is a known one whose value looks like a token;
 * - path segments that look like a token are replaced. Kubernetes object names are
 *   DNS-1123 (lower case), so a real path is never touched by the mixed-case rule;
 * - userinfo is dropped.
 *
 * @module
 */
import { REDACTED } from './redact.js';

/**
 * Query parameters of the Kubernetes API (meta/v1 ListOptions, GetOptions, DeleteOptions,
 * CreateOptions, PatchOptions, UpdateOptions, PodLogOptions, and kubectl's `timeout`): their
 * values are selectors, versions, names and numbers. Left out on purpose: `command` (exec
 * arguments may carry a password) and anything unknown.
 */
export const KNOWN_QUERY_PARAMETERS: ReadonlySet<string> = new Set([
  'allowWatchBookmarks',
  'container',
  'continue',
  'dryRun',
  'fieldManager',
  'fieldSelector',
  'fieldValidation',
  'follow',
  'force',
  'gracePeriodSeconds',
  'labelSelector',
  'limit',
  'limitBytes',
  'orphanDependents',
  'pretty',
  'previous',
  'propagationPolicy',
  'resourceVersion',
  'resourceVersionMatch',
  'sendInitialEvents',
  'sinceSeconds',
  'sinceTime',
  'tailLines',
  'timeout',
  'timeoutSeconds',
  'timestamps',
  'watch',
]);

/** A parameter name we show as is: short and plain (an unplain one may itself be the secret). */
const PLAIN_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

/**
 * True for a value shaped like a credential: `Bearer …`/`Basic …`; a JWT; a bootstrap token
 * (`abcdef.0123456789abcdef`); 32+ hex digits; or 20+ token characters mixing upper case,
 * lower case and digits (base64/base64url secrets: our 43-character tokens, cloud API keys).
 */
export function looksLikeToken(value: string): boolean {
  if (/^(bearer|basic)\s/i.test(value)) return true;
  if (/^eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\./.test(value)) return true;
  if (/^[a-z0-9]{6}\.[a-z0-9]{16}$/.test(value)) return true;
  if (/^[0-9a-fA-F]{32,}$/.test(value)) return true;
  return (
    value.length >= 20 &&
    /^[A-Za-z0-9._~+/=-]+$/.test(value) &&
    /[A-Z]/.test(value) &&
    /[a-z]/.test(value) &&
    /[0-9]/.test(value)
  );
}

/** `decodeURIComponent` that gives the raw text back for a malformed escape. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** The request URL (origin-form `/path?query`, or absolute-form) with its secrets replaced. */
export function redactRequestUrl(url: string): string {
  let rest = url.replace(/#.*$/s, '');
  let origin = '';
  const absolute = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)(?:[^/?#@]*@)?([^/?#]*)/.exec(rest);
  if (absolute) {
    origin = `${absolute[1]}${absolute[2]}`;
    rest = rest.slice(absolute[0].length);
  }
  const q = rest.indexOf('?');
  const path = q < 0 ? rest : rest.slice(0, q);
  const shownPath = path
    .split('/')
    .map((segment) => (looksLikeToken(decoded(segment)) ? REDACTED : segment))
    .join('/');
  if (q < 0) return origin + shownPath;
  const query = rest
    .slice(q + 1)
    .split('&')
    .map(redactParameter)
    .join('&');
  return `${origin}${shownPath}?${query}`;
}

function redactParameter(pair: string): string {
  if (pair === '') return pair;
  const eq = pair.indexOf('=');
  const rawName = eq < 0 ? pair : pair.slice(0, eq);
  const name = decoded(rawName);
  const shownName = PLAIN_NAME.test(name) && !looksLikeToken(name) ? rawName : REDACTED;
  if (eq < 0) return shownName;
  const value = pair.slice(eq + 1);
  const keep = KNOWN_QUERY_PARAMETERS.has(name) && !looksLikeToken(decoded(value));
  return `${shownName}=${keep ? value : REDACTED}`;
}
