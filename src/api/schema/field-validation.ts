/**
 * The `fieldValidation` query parameter (`Strict`, `Warn`, `Ignore`) and what each directive
 * makes of the strict decoding errors found in a request body, per verb, as upstream's
 * `k8s.io/apiserver/pkg/endpoints/handlers` (`create.go`, `update.go`, `patch.go`, `rest.go`)
 * answers:
 *
 * - create, update: 400 BadRequest `<Kind> in version "<v>" cannot be handled as a <Kind>:
 *   strict decoding error: <error>, <error>`.
 * - JSON patch, merge patch: 422 Invalid with an empty kind and name, `patch: Invalid value:
 *   "<patched object JSON>": strict decoding error: …` (message ` "" is invalid: …`).
 * - strategic merge patch: the same, with the patch map printed by Go's `%+v` (`map[spec:…]`).
 * - apply: only duplicate YAML keys (unknown fields fail server-side apply itself):
 *   400 `error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 3: key "a" already set in map`.
 * - Warn: one `Warning: 299 - "<text>"` per error, a YAML error split into one per line;
 *   Ignore: nothing. Absent means Warn.
 *
 * @module
 */
import { badRequest, invalid, type StatusError } from '../errors.js';
import { fieldErrors } from '../field-error.js';
import { isJsonObject } from '../object.js';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/** The options kind named in the 422 for a bad value, per verb. */
export type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions';

const SUPPORTED = ['', 'Ignore', 'Strict', 'Warn'];

/**
 * The directive of a request. Absent or empty → `Warn` (upstream's default since 1.25, when
 * `ServerSideFieldValidation` went GA). Anything else (the match is case-sensitive) → 422
 * `CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "strict":
 * supported values: "", "Ignore", "Strict", "Warn"`.
 */
export function parseFieldValidation(
  query: URLSearchParams,
  optionsKind: OptionsKind = 'CreateOptions',
): FieldValidation {
  // Upstream's query decoding takes the first value of a repeated parameter.
  const value = query.get('fieldValidation') ?? '';
  if (value === '') return 'Warn';
  if (value === 'Strict' || value === 'Warn' || value === 'Ignore') return value;
  throw invalid({ group: 'meta.k8s.io', kind: optionsKind }, '', [
    fieldErrors.notSupported('fieldValidation', value, SUPPORTED),
  ]);
}

/** Strict decoding texts, as upstream words them. */
export const strictErrors = {
  unknown: (path: string): string => `unknown field ${JSON.stringify(path)}`,
  duplicate: (path: string): string => `duplicate field ${JSON.stringify(path)}`,
  /** JSON patch operations decode strictly too; their errors carry this prefix. */
  jsonPatch: (error: string): string => `json patch ${error}`,
  /** go-yaml's strict error for repeated keys (`findYamlDuplicateKeys` lines), or none. */
  yaml: (lines: readonly string[]): string[] =>
    lines.length === 0 ? [] : [`${YAML_PREFIX}${lines.join('\n  ')}`],
};

const YAML_PREFIX = 'yaml: unmarshal errors:\n  ';
const YAML_CONVERT_PREFIX = 'error converting YAML to JSON: ';

/** What a request decoded strictly, and how the error should be framed. */
export type StrictDecoding =
  | {
      readonly verb: 'create' | 'update';
      /** The body's kind and version (defaulted from the URL when the body omits them). */
      readonly bodyKind: string;
      readonly bodyVersion: string;
      /** The kind the endpoint serves. */
      readonly kind: string;
      readonly errors: readonly string[];
    }
  | {
      readonly verb: 'json-patch' | 'merge-patch';
      /** The object after the patch (printed in the 422). */
      readonly patched: unknown;
      readonly errors: readonly string[];
    }
  | {
      readonly verb: 'strategic-merge-patch';
      /** The decoded patch (printed in the 422 with Go's `%+v`). */
      readonly patch: unknown;
      readonly errors: readonly string[];
    }
  | {
      readonly verb: 'apply';
      /** `findYamlDuplicateKeys` of the apply body. */
      readonly yamlDuplicates: readonly string[];
    };

export interface StrictOutcome {
  /** Throw this (Strict only). */
  readonly error?: StatusError;
  /** Send each as `Warning: 299 - "<text>"` (Warn only); see {@link warningHeaderValue}. */
  readonly warnings: readonly string[];
}

const NOTHING: StrictOutcome = { warnings: [] };

/** Applies a directive to the strict decoding errors of one request. */
export function resolveStrictDecoding(
  directive: FieldValidation,
  decoding: StrictDecoding,
): StrictOutcome {
  const errors =
    decoding.verb === 'apply'
      ? strictErrors.yaml(decoding.yamlDuplicates).map((e) => YAML_CONVERT_PREFIX + e)
      : decoding.errors;
  if (directive === 'Ignore' || errors.length === 0) return NOTHING;
  if (directive === 'Warn') return { warnings: dedupe(errors.flatMap(splitYamlWarning)) };
  return { error: strictError(decoding, errors), warnings: [] };
}

function strictError(decoding: StrictDecoding, errors: readonly string[]): StatusError {
  const text = `strict decoding error: ${errors.join(', ')}`;
  switch (decoding.verb) {
    case 'create':
    case 'update':
      return badRequest(
        `${decoding.bodyKind} in version ${JSON.stringify(decoding.bodyVersion)} cannot be handled as a ${decoding.kind}: ${text}`,
      );
    case 'json-patch':
    case 'merge-patch':
      return patchInvalid(goJson(decoding.patched), text);
    case 'strategic-merge-patch':
      return patchInvalid(goValue(decoding.patch), text);
    case 'apply':
      return badRequest(`error strict decoding YAML: ${errors.join(', ')}`);
  }
}

function patchInvalid(printed: string, detail: string): StatusError {
  return invalid({ group: '', kind: '' }, '', [fieldErrors.invalid('patch', printed, detail)]);
}

/** Upstream `parseYAMLWarnings`: a go-yaml strict error becomes one warning per line. */
function splitYamlWarning(error: string): string[] {
  for (const prefix of [YAML_PREFIX, YAML_CONVERT_PREFIX + YAML_PREFIX]) {
    if (error.startsWith(prefix)) {
      return error
        .slice(prefix.length)
        .split('\n')
        .map((s) => s.trim());
    }
  }
  return [error];
}

/** The warning recorder keeps each distinct text once. */
function dedupe(texts: readonly string[]): string[] {
  return [...new Set(texts)];
}

/** An RFC 7234 warning header value: `299 - "unknown field \"spec.foo\""`. */
export function warningHeaderValue(text: string): string {
  return `299 - "${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/**
 * Go's `encoding/json` output: compact, keys sorted, `<`, `>`, `&`, U+2028 and U+2029
 * escaped (upstream prints the patched object that way).
 */
export function goJson(value: unknown): string {
  const text = JSON.stringify(sortedKeys(value)) ?? 'null';
  return text.replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isJsonObject(value)) return value;
  const keys = Object.keys(value).sort();
  return Object.fromEntries(keys.map((k) => [k, sortedKeys(value[k])]));
}

/** Go's `%+v` of a decoded JSON value: `map[a:1 b:[x y]]`, nil as `<nil>`. */
export function goValue(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(goValue).join(' ')}]`;
  if (isJsonObject(value)) {
    const keys = Object.keys(value).sort();
    return `map[${keys.map((k) => `${k}:${goValue(value[k])}`).join(' ')}]`;
  }
  // Integers print alike; floats differ only in exponent forms (Go `1e-05`, JS `0.00001`).
  return String(value);
}
