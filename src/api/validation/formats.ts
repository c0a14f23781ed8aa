/**
 * String formats beyond DNS names, with upstream's messages: ConfigMap/Secret keys,
 * environment variable names and HTTP header names.
 *
 * @module
 */
import { DNS1123_SUBDOMAIN_MAX_LENGTH } from './dns.js';
import { byteLength, emptyError, maxLenError, regexError } from './messages.js';

const CONFIG_MAP_KEY_FMT = '[-._a-zA-Z0-9]+';
const CONFIG_MAP_KEY_RE = new RegExp(`^${CONFIG_MAP_KEY_FMT}$`);
const CONFIG_MAP_KEY_MSG =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";

function hasChDirPrefix(value: string): string[] {
  if (value === '.') return ["must not be '.'"];
  if (value === '..') return ["must not be '..'"];
  if (value.startsWith('..')) return ["must not start with '..'"];
  return [];
}

/** Upstream `IsConfigMapKey` (ConfigMap and Secret data keys). */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH)
    errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!CONFIG_MAP_KEY_RE.test(value)) {
    errs.push(
      regexError(CONFIG_MAP_KEY_MSG, CONFIG_MAP_KEY_FMT, 'key.name', 'KEY_NAME', 'key-name'),
    );
  }
  errs.push(...hasChDirPrefix(value));
  return errs;
}

const RELAXED_ENV_MSG =
  "a valid environment variable name must consist only of printable ASCII characters other than '='";

/**
 * Upstream `IsRelaxedEnvVarName`, the rule of 1.32+ servers (RelaxedEnvironmentVariableValidation
 * on by default): any printable ASCII except `=`.
 */
export function isRelaxedEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (value.length === 0) errs.push(`environment variable name ${emptyError()}`);
  for (const ch of value) {
    const c = ch.codePointAt(0) ?? 0;
    if (c < 0x20 || c > 0x7e || ch === '=') {
      errs.push(RELAXED_ENV_MSG);
      break;
    }
  }
  return errs;
}

const HTTP_HEADER_NAME_FMT = '[-A-Za-z0-9]+';
const HTTP_HEADER_NAME_RE = new RegExp(`^${HTTP_HEADER_NAME_FMT}$`);

/** Upstream `IsHTTPHeaderName`. */
export function isHTTPHeaderName(value: string): string[] {
  if (HTTP_HEADER_NAME_RE.test(value)) return [];
  return [
    regexError(
      "a valid HTTP header must consist of alphanumeric characters or '-'",
      HTTP_HEADER_NAME_FMT,
      'X-Header-Name',
    ),
  ];
}
