/**
 * A rule's `fieldPath` (`.spec.replicas`, `.labels['app.kubernetes.io/name']`), checked
 * against the schema and normalised to field-path text, after upstream `ValidFieldPath`: each
 * step is `.name` or `['name']`; a name must be a declared property where the node has
 * properties, else a key of a map; lists cannot be stepped into.
 *
 * @module
 */
import type { Schema } from '../schema/types.js';
import { mapValueSchema } from './decl-schema.js';

export type FieldPathResult = { ok: true; path: string } | { ok: false; error: string };

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

function tokenize(path: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < path.length) {
    const c = path[i] ?? '';
    if (c === '.' || c === '[' || c === ']') {
      tokens.push(c);
      i++;
    } else if (c === "'") {
      let j = i + 1;
      while (j < path.length && !(path[j] === "'" && path[j - 1] !== '\\')) j++;
      tokens.push(path.slice(i, j + 1));
      i = j + 1;
    } else {
      let j = i;
      while (j < path.length && !'.[]'.includes(path[j] ?? '')) j++;
      tokens.push(path.slice(i, j));
      i = j;
    }
  }
  return tokens;
}

function unquote(token: string): string | { error: string } {
  if (token.length < 2 || !token.startsWith("'") || !token.endsWith("'")) {
    return { error: `expected single quoted string but got ${token}` };
  }
  let bad = '';
  const out = token.slice(1, -1).replace(/\\./g, (m) => {
    const e = ESCAPES[m[1] ?? ''];
    if (e === undefined) bad ||= m;
    return e ?? '';
  });
  return bad ? { error: `invalid string literal: invalid escape char ${bad}` } : out;
}

interface Cursor {
  schema: Schema | undefined;
  out: string;
}

/** One step into the schema by name: a declared property, else a map key. */
function step(cur: Cursor, name: string): string | undefined {
  const schema = cur.schema;
  if (!schema) return 'does not refer to a valid field';
  const values = mapValueSchema(schema);
  if (schema.properties) {
    cur.schema = schema.properties[name];
    if (!cur.schema) return 'does not refer to a valid field';
    cur.out = cur.out === '' ? name : `${cur.out}.${name}`;
    return undefined;
  }
  if (!values) return 'does not refer to a valid field';
  cur.schema = values;
  cur.out = `${cur.out}[${name}]`;
  return undefined;
}

/** A `['name']` step starting at tokens[i] (the `[`); the error, or the index of its `]`. */
function bracketStep(cur: Cursor, tokens: readonly string[], i: number): string | number {
  const quoted = tokens[i + 1];
  if (quoted === undefined) return 'unexpected end of JSON path';
  const name = unquote(quoted);
  if (typeof name !== 'string') return name.error;
  const err = step(cur, name);
  if (err) return err;
  const close = tokens[i + 2];
  if (close === undefined) return 'unexpected end of JSON path';
  if (close !== ']') return `expected ] but got ${close}`;
  return i + 2;
}

/** Upstream `ValidFieldPath(jsonPath, schema)`. */
export function validFieldPath(jsonPath: string, root: Schema): FieldPathResult {
  const tokens = tokenize(jsonPath);
  const cur: Cursor = { schema: root, out: '' };
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i] ?? '';
    if (tok === '.') {
      const name = tokens[++i];
      if (name === undefined) return { ok: false, error: 'unexpected end of JSON path' };
      const err = step(cur, name);
      if (err) return { ok: false, error: err };
    } else if (tok === '[') {
      const r = bracketStep(cur, tokens, i);
      if (typeof r === 'string') return { ok: false, error: r };
      i = r;
    } else {
      return { ok: false, error: `expected [ or . but got: ${tok}` };
    }
  }
  return { ok: true, path: cur.out };
}
