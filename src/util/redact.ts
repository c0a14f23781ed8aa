/**
 * Keeps credentials out of logs.
 *
 * Three layers, because a credential can reach a log line by many roads (a header, a query
 * parameter, a path segment, the message of an error that quotes a kubeconfig):
 * - headers: the credential-bearing ones ({@link isSensitiveHeader}) are never logged;
 * - request URLs: see redact-url.ts;
 * - every finished line: {@link redactSecrets} removes the secrets this process knows (its
 *   bearer token) and anything shaped like a credential (`Bearer …`, `Basic …`, a JWT,
 *   `token: …`), known or not.
 *
 * @module
 */

/** What a redacted secret is replaced with. */
export const REDACTED = '[REDACTED]';

/**
 * Headers whose values are credentials or identities, after kube-apiserver's own list:
 * `Authorization` and `Proxy-Authorization` (bearer, basic), `Cookie`/`Set-Cookie`, the
 * front-proxy identity headers (`X-Remote-User`, `-Group`, `-Extra-*`), the impersonation
 * headers (`Impersonate-User`, `-Group`, `-Uid`, `-Extra-*`) and `Sec-WebSocket-Protocol`, where
 * browsers put `base64url.bearer.authorization.k8s.io.<token>`; plus the common API-key headers.
 */
const SENSITIVE_HEADERS: readonly string[] = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-remote-user',
  'x-remote-group',
  'impersonate-user',
  'impersonate-group',
  'impersonate-uid',
  'sec-websocket-protocol',
  'x-api-key',
  'x-auth-token',
  'x-csrf-token',
];

/** Header families with a variable suffix (`Impersonate-Extra-*`, `X-Remote-Extra-*`). */
const SENSITIVE_HEADER_PREFIXES = ['x-remote-', 'impersonate-'];

/**
 * pino `redact.paths` for request/response logging: the credential-bearing headers, wherever the
 * logger puts them (`req` from pino-http serializers, or a bare `headers` object). Use together
 * with {@link REDACTED} as the censor. Headers with a variable name are caught by
 * {@link redactHeaders}, which the logger's serializers run.
 */
export const LOG_REDACT_PATHS: readonly string[] = SENSITIVE_HEADERS.flatMap((h) => {
  const key = /^[a-z]+$/.test(h) ? `.${h}` : `["${h}"]`;
  return [`req.headers${key}`, `headers${key}`];
});

export function isSensitiveHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return (
    SENSITIVE_HEADERS.includes(lower) || SENSITIVE_HEADER_PREFIXES.some((p) => lower.startsWith(p))
  );
}

/** A copy of `headers` with every sensitive header's value replaced by {@link REDACTED}. */
export function redactHeaders(headers: unknown): unknown {
  if (headers === null || typeof headers !== 'object') return headers;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = isSensitiveHeader(name) ? REDACTED : value;
  }
  return out;
}

/**
 * `Bearer <credential>` or `Basic <credential>` anywhere in a line: covers tokens we do not
 * know, e.g. a wrong token a client sent (often a real token for some other cluster).
 */
const SCHEME_CREDENTIAL = /\b((?:bearer|basic)\s+)[A-Za-z0-9._~+/-]+=*/gi;

/** A JSON Web Token (ServiceAccount and OIDC tokens): three base64url parts, `eyJ` = `{"`. */
const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;

/** Field names whose value is a credential, in any case and with `_`/`-` or camelCase. */
const CREDENTIAL_KEY =
  '(?:access[_-]?token|refresh[_-]?token|id[_-]?token|token|password|passwd|client[_-]?secret|secret|api[_-]?key)';

/**
 * `"token":"…"` in JSON (a serialised object), and `token: …` / `token=…` in text (a YAML
 * parse error quotes the kubeconfig line it failed on, token included). The value ends at
 * a quote, blank, `&`, `,` or backslash (JSON's escape of a newline in the message).
 */
const JSON_CREDENTIAL = new RegExp(`("${CREDENTIAL_KEY}"\\s*:\\s*")((?:[^"\\\\]|\\\\.)*)"`, 'gi');
const TEXT_CREDENTIAL = new RegExp(`\\b(${CREDENTIAL_KEY}\\s*[:=]\\s*"?)([^\\s"&,\\\\]+)`, 'gi');

/**
 * Replaces every occurrence of each secret in `text`, plus anything shaped like a credential
 * (`Bearer …`, `Basic …`, a JWT, a `token`/`password`/`secret` field), with {@link REDACTED}.
 * Empty secrets are ignored (they would match everywhere); longer secrets are replaced first so
 * one that contains another is removed whole.
 */
export function redactSecrets(text: string, secrets: Iterable<string | undefined>): string {
  const known = [...secrets]
    .filter((s): s is string => typeof s === 'string' && s.length > 0)
    .sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of known) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out
    .replace(SCHEME_CREDENTIAL, `$1${REDACTED}`)
    .replace(JWT, REDACTED)
    .replace(JSON_CREDENTIAL, (_, key: string, value: string) =>
      value === REDACTED ? `${key}${value}"` : `${key}${REDACTED}"`,
    )
    .replace(TEXT_CREDENTIAL, (whole: string, key: string, value: string) =>
      value.startsWith(REDACTED) ? whole : `${key}${REDACTED}`,
    );
}
