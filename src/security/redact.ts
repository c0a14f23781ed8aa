/**
 * Keeps credentials out of logs.
 *
 * @module
 */

/** What a redacted secret is replaced with. */
export const REDACTED = '[REDACTED]';

/**
 * pino `redact.paths` for request/response logging: the credential-bearing headers, wherever the
 * logger puts them (`req` from pino-http serializers, or a bare `headers` object). Use together
 * with {@link REDACTED} as the censor.
 */
export const LOG_REDACT_PATHS: readonly string[] = [
  'req.headers.authorization',
  'req.headers["proxy-authorization"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["proxy-authorization"]',
  'headers.cookie',
];

/**
 * `Bearer <credential>` anywhere in a line: covers tokens we do not know, e.g. a wrong token a
 * client sent (often a real token for some other cluster).
 */
const BEARER = /\b(bearer\s+)[A-Za-z0-9._~+/-]+=*/gi;

/**
 * Replaces every occurrence of each secret in `text`, plus any `Bearer <credential>`, with
 * {@link REDACTED}. Empty secrets are ignored (they would match everywhere); longer secrets are
 * replaced first so one that contains another is removed whole.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  const known = secrets
    .filter((s): s is string => typeof s === 'string' && s.length > 0)
    .sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of known) out = out.split(secret).join(REDACTED);
  return out.replace(BEARER, `$1${REDACTED}`);
}
