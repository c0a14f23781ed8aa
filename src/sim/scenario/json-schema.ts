/**
 * A small JSON Schema (draft 2020-12) validator for the keywords `scenario.schema.json` uses,
 * written for readable errors rather than completeness: every error names the path of the
 * value (`['steps', 3, 'wait', 'timeout']`) and says what was expected in words
 * ("must be a Go duration such as 30s, 5m or 1h30m, got "5 minutes"").
 *
 * Why not a general validator: none is a dependency, and their errors for the pattern the
 * scenario format is built on — "exactly one of these keys" as a `oneOf` of
 * `{required: [key]}` branches — read as "must match exactly one schema in oneOf", which
 * tells a user nothing. Here that pattern says "needs one of: apply, wait, …" or
 * "has both "wait" and "advance"; a step does one thing".
 *
 * Supported: `$ref` (local `#/$defs/…`, siblings apply too), `type` (one or a list), `enum`,
 * `pattern`, `minLength`, `minimum`, `maximum`, `minItems`, `items`, `properties`, `required`,
 * `additionalProperties` (boolean or schema), `minProperties`, `dependentRequired`, `oneOf`
 * and `anyOf`. `title` is the phrase used in "must be …" messages; other annotations are
 * ignored. An unsupported keyword is ignored too (the schema file's own test checks that it
 * uses none).
 *
 * @module
 */

export type JsonPath = readonly (string | number)[];

export interface SchemaError {
  readonly path: JsonPath;
  readonly message: string;
}

/** A schema object; only the keywords above are read. */
export interface JsonSchema {
  readonly $ref?: string;
  readonly title?: string;
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly pattern?: string;
  readonly minLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minItems?: number;
  readonly items?: JsonSchema;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | JsonSchema;
  readonly minProperties?: number;
  readonly dependentRequired?: Readonly<Record<string, readonly string[]>>;
  readonly oneOf?: readonly JsonSchema[];
  readonly anyOf?: readonly JsonSchema[];
  readonly $defs?: Readonly<Record<string, JsonSchema>>;
  readonly [annotation: string]: unknown;
}

/** The keywords this validator understands (the rest are annotations or ignored). */
export const SUPPORTED_KEYWORDS: ReadonlySet<string> = new Set([
  '$schema',
  '$ref',
  '$defs',
  'title',
  'description',
  'type',
  'enum',
  'pattern',
  'minLength',
  'minimum',
  'maximum',
  'minItems',
  'items',
  'properties',
  'required',
  'additionalProperties',
  'minProperties',
  'dependentRequired',
  'oneOf',
  'anyOf',
]);

/** Validates `value` against `root`; resolves to every error found (empty when valid). */
export function validateJsonSchema(root: JsonSchema, value: unknown): SchemaError[] {
  const errors: SchemaError[] = [];
  check(root, root, value, [], errors);
  return errors;
}

function check(
  root: JsonSchema,
  schema: JsonSchema,
  value: unknown,
  path: JsonPath,
  out: SchemaError[],
): void {
  if (schema.$ref !== undefined) {
    const { $ref, ...siblings } = schema;
    // A sibling title wins: `{ $ref: duration, description }` keeps the ref's.
    check(root, { ...resolveRef(root, $ref), ...siblings }, value, path, out);
    return;
  }
  if (schema.type !== undefined && !typeMatches(schema.type, value)) {
    out.push({ path, message: `must be ${expected(schema)}, got ${describeValue(value)}` });
    return;
  }
  if (schema.enum !== undefined && !schema.enum.includes(value)) {
    const options = schema.enum.map((v) => JSON.stringify(v)).join(', ');
    out.push({ path, message: `must be one of ${options}, got ${describeValue(value)}` });
    return;
  }
  if (typeof value === 'string') checkString(schema, value, path, out);
  if (typeof value === 'number') checkNumber(schema, value, path, out);
  if (Array.isArray(value)) checkArray(root, schema, value, path, out);
  else if (isObject(value)) checkObject(root, schema, value, path, out);
  if (schema.oneOf !== undefined) checkJunctor(root, schema.oneOf, 'one', value, path, out);
  if (schema.anyOf !== undefined) checkJunctor(root, schema.anyOf, 'any', value, path, out);
}

function checkString(schema: JsonSchema, value: string, path: JsonPath, out: SchemaError[]): void {
  if (schema.minLength !== undefined && [...value].length < schema.minLength) {
    out.push({
      path,
      message: schema.minLength === 1 ? 'must not be empty' : `needs ${schema.minLength}+ chars`,
    });
    return;
  }
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) {
    const what = schema.title ?? `a string matching /${schema.pattern}/`;
    out.push({ path, message: `must be ${what}, got ${JSON.stringify(value)}` });
  }
}

function checkNumber(schema: JsonSchema, value: number, path: JsonPath, out: SchemaError[]): void {
  if (schema.minimum !== undefined && value < schema.minimum) {
    out.push({ path, message: `must be at least ${schema.minimum}, got ${value}` });
  }
  if (schema.maximum !== undefined && value > schema.maximum) {
    out.push({ path, message: `must be at most ${schema.maximum}, got ${value}` });
  }
}

function checkArray(
  root: JsonSchema,
  schema: JsonSchema,
  value: readonly unknown[],
  path: JsonPath,
  out: SchemaError[],
): void {
  if (schema.minItems !== undefined && value.length < schema.minItems) {
    out.push({
      path,
      message: schema.minItems === 1 ? 'must not be empty' : `needs ${schema.minItems}+ items`,
    });
  }
  if (schema.items === undefined) return;
  for (const [i, item] of value.entries()) check(root, schema.items, item, [...path, i], out);
}

function checkObject(
  root: JsonSchema,
  schema: JsonSchema,
  value: Readonly<Record<string, unknown>>,
  path: JsonPath,
  out: SchemaError[],
): void {
  const keys = Object.keys(value);
  for (const name of schema.required ?? []) {
    if (!(name in value)) out.push({ path, message: `missing required field "${name}"` });
  }
  if (schema.minProperties !== undefined && keys.length < schema.minProperties) {
    out.push({ path, message: 'must not be empty' });
  }
  for (const [name, needs] of Object.entries(schema.dependentRequired ?? {})) {
    const missing = name in value ? needs.filter((other) => !(other in value)) : [];
    for (const other of missing) {
      out.push({ path: [...path, name], message: `applies to "${other}" only` });
    }
  }
  for (const key of keys) checkProperty(root, schema, key, value[key], [...path, key], out);
}

function checkProperty(
  root: JsonSchema,
  schema: JsonSchema,
  key: string,
  value: unknown,
  path: JsonPath,
  out: SchemaError[],
): void {
  const properties = schema.properties ?? {};
  const sub = properties[key];
  if (sub !== undefined) {
    check(root, sub, value, path, out);
  } else if (schema.additionalProperties === false) {
    const hint = closest(key, Object.keys(properties));
    const suggestion = hint === undefined ? '' : ` (did you mean "${hint}"?)`;
    out.push({ path, message: `unknown field "${key}"${suggestion}` });
  } else if (isObject(schema.additionalProperties)) {
    check(root, schema.additionalProperties, value, path, out);
  }
}

/** `oneOf` / `anyOf`; branches that only require one key read as "one of these fields". */
function checkJunctor(
  root: JsonSchema,
  branches: readonly JsonSchema[],
  mode: 'one' | 'any',
  value: unknown,
  path: JsonPath,
  out: SchemaError[],
): void {
  const results = branches.map((b) => {
    const errors: SchemaError[] = [];
    check(root, b, value, path, errors);
    return errors;
  });
  const matched = results.filter((r) => r.length === 0).length;
  if (matched === 1 || (mode === 'any' && matched > 1)) return;
  const keys = branches.map(requiredKey);
  if (keys.every((k) => k !== undefined)) {
    out.push({ path, message: keyChoiceMessage(keys, mode, matched, value) });
  } else if (matched === 0) {
    // The branch that came closest (fewest errors) explains best what was meant.
    out.push(...results.reduce((a, b) => (b.length < a.length ? b : a)));
  } else {
    out.push({ path, message: `matches ${matched} alternatives where exactly one must match` });
  }
}

/** "needs exactly one of the fields a, b" / "has "a" and "b", but only one of them may be given". */
function keyChoiceMessage(
  keys: readonly (string | undefined)[],
  mode: 'one' | 'any',
  matched: number,
  value: unknown,
): string {
  const list = keys.join(', ');
  if (matched === 0)
    return `needs ${mode === 'one' ? 'exactly one' : 'at least one'} of the fields ${list}`;
  const present = keys.filter((k) => k !== undefined && isObject(value) && k in value);
  return `has ${present.map((k) => `"${k}"`).join(' and ')}, but only one of them may be given`;
}

/** The key of a branch that is exactly `{ required: [key] }`. */
function requiredKey(branch: JsonSchema): string | undefined {
  const keys = Object.keys(branch);
  if (keys.length !== 1 || branch.required?.length !== 1) return undefined;
  return branch.required[0];
}

function resolveRef(root: JsonSchema, ref: string): JsonSchema {
  const m = /^#\/\$defs\/(.+)$/.exec(ref);
  const target = m?.[1] === undefined ? undefined : root.$defs?.[m[1]];
  if (target === undefined) throw new Error(`schema: unresolvable $ref ${ref}`);
  return target;
}

function typeMatches(type: string | readonly string[], value: unknown): boolean {
  const types: readonly string[] = typeof type === 'string' ? [type] : type;
  return types.some((t) => {
    switch (t) {
      case 'object':
        return isObject(value);
      case 'array':
        return Array.isArray(value);
      case 'integer':
        return typeof value === 'number' && Number.isInteger(value);
      case 'null':
        return value === null;
      default:
        return typeof value === t;
    }
  });
}

const ARTICLE: Readonly<Record<string, string>> = {
  object: 'a mapping',
  array: 'a list',
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  null: 'null',
};

function expected(schema: JsonSchema): string {
  if (schema.title !== undefined) return schema.title;
  const types: readonly string[] =
    typeof schema.type === 'string' ? [schema.type] : (schema.type ?? []);
  return types.map((t) => ARTICLE[t] ?? t).join(' or ');
}

/** A short description of a value for messages: `"5 minutes"`, `5`, `a mapping`, `a list`. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (isObject(value)) return 'a mapping';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The candidate within edit distance 2 of `word` (typos such as `tmeout`), if any. */
function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost));
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}
