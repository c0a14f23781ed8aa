/**
 * Upstream `cel.ValidFieldPath`: a JSON path of field and map accessors (`.spec.a`,
 * `.spec.labels['x']`) that must exist in a structural schema. Used by `selectableFields` and by
 * `x-kubernetes-validations[].fieldPath`.
 *
 * @module
 */
import { asRaw, type RawSchema, schemaMap } from '../schema/raw-schema.js';

export type FieldPathResult =
  | { readonly ok: true; readonly segments: string[]; readonly schema: RawSchema | undefined }
  | { readonly ok: false; readonly error: string };

/** Splits into `.`, `[`, `]` and the text between them; single-quoted strings stay whole. */
function tokenize(path: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < path.length) {
    const c = path[i] ?? '';
    if (c === '.' || c === '[' || c === ']') {
      tokens.push(c);
      i++;
      continue;
    }
    if (c === "'") {
      let j = i + 1;
      while (j < path.length && !(path[j] === "'" && path[j - 1] !== '\\')) j++;
      tokens.push(path.slice(i, j + 1));
      i = j + 1;
      continue;
    }
    let j = i;
    while (j < path.length && !'.[]'.includes(path[j] ?? '')) j++;
    tokens.push(path.slice(i, j));
    i = j;
  }
  return tokens;
}

const ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  "'": "'",
  '\\': '\\',
};

function unescapeSingleQuoted(s: string): string | undefined {
  let bad = false;
  const out = s.replace(/\\(.)/g, (_m, c: string) => {
    const r = ESCAPES[c];
    if (r === undefined) bad = true;
    return r ?? '';
  });
  return bad ? undefined : out;
}

function step(
  schema: RawSchema | undefined,
  name: string,
  named: boolean,
): RawSchema | undefined | false {
  if (!named) return asRaw(schema?.additionalProperties);
  const prop = schemaMap(schema ?? {}, 'properties').find(([k]) => k === name);
  return prop ? prop[1] : false;
}

function accessorKind(schema: RawSchema | undefined): 'named' | 'map' | undefined {
  if (schema && schemaMap(schema, 'properties').length > 0) return 'named';
  if (schema && schema.additionalProperties !== undefined) return 'map';
  return undefined;
}

type Accessor = { readonly name: string; readonly next: number } | { readonly error: string };

/** Reads one `.name` or `['name']` accessor starting at token `i`. */
function readAccessor(tokens: readonly string[], i: number, allowArrayNotation: boolean): Accessor {
  const tok = tokens[i];
  if (tok === '.') {
    const name = tokens[i + 1];
    return name === undefined ? { error: 'unexpected end of JSON path' } : { name, next: i + 2 };
  }
  if (tok !== '[') return { error: `expected [ or . but got: ${tok}` };
  if (!allowArrayNotation) return { error: 'array notation is not allowed' };
  const lit = tokens[i + 1];
  if (lit === undefined) return { error: 'unexpected end of JSON path' };
  if (lit.length < 2 || !lit.startsWith("'") || !lit.endsWith("'")) {
    return { error: `expected single quoted string but got ${lit}` };
  }
  const name = unescapeSingleQuoted(lit.slice(1, -1));
  if (name === undefined) return { error: 'invalid string literal: invalid escape char' };
  const close = tokens[i + 2];
  if (close === undefined) return { error: 'unexpected end of JSON path' };
  if (close !== ']') return { error: `expected ] but got ${close}` };
  return { name, next: i + 3 };
}

/** Validates `path` against the structural `schema` (`allowArrayNotation`: `['key']` accessors). */
export function validFieldPath(
  path: string,
  root: RawSchema,
  allowArrayNotation = true,
): FieldPathResult {
  const tokens = tokenize(path);
  let schema: RawSchema | undefined = root;
  const segments: string[] = [];
  let i = 0;
  while (i < tokens.length) {
    const acc = readAccessor(tokens, i, allowArrayNotation);
    if ('error' in acc) return { ok: false, error: acc.error };
    const kind = accessorKind(schema);
    if (!kind) return { ok: false, error: 'does not refer to a valid field' };
    const next = step(schema, acc.name, kind === 'named');
    if (next === false) return { ok: false, error: 'does not refer to a valid field' };
    segments.push(acc.name);
    schema = next;
    i = acc.next;
  }
  return { ok: true, segments, schema };
}
