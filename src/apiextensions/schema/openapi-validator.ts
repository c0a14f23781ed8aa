/**
 * A port of kube-openapi's `validate.SchemaValidator` as apiextensions-apiserver uses it for
 * custom resources: the same validators in the same order (type, junctors, string, format,
 * number, array, enum, object), the same error texts and the same match-count bookkeeping that
 * decides which `anyOf`/`oneOf` branch's errors are reported.
 *
 * Values are decoded JSON: an integral number is Go's int64, any other number a float64, which
 * changes some messages (see `go-format.ts`). Unsupported `format`s are ignored, as upstream
 * strips them before building the validator.
 *
 * @module
 */
import { deepEqual, isJsonObject, type JsonObject } from '../../api/object.js';
import { compileGoPattern } from '../../api/schema/go-regexp.js';
import type { Schema } from '../../api/schema/types.js';
import { checkFormat, supportedFormat } from './formats.js';
import { goFloat, isGoInt, runeCount } from './go-format.js';
import { openapiErrors as E, type OpenAPIError, Result } from './openapi-errors.js';

type Kind = 'null' | 'bool' | 'string' | 'int' | 'float' | 'slice' | 'map';

function kindOf(data: unknown): Kind {
  if (data === null || data === undefined) return 'null';
  if (typeof data === 'boolean') return 'bool';
  if (typeof data === 'string') return 'string';
  if (typeof data === 'number') return isGoInt(data) ? 'int' : 'float';
  if (Array.isArray(data)) return 'slice';
  return 'map';
}

/** The JSON type kube-openapi infers for a value (`schemaInfoForType`). */
const SCHEMA_TYPE: Record<Kind, [string, string]> = {
  null: ['null', ''],
  bool: ['boolean', ''],
  string: ['string', ''],
  int: ['integer', 'int64'],
  float: ['number', 'float64'],
  slice: ['array', ''],
  map: ['object', ''],
};

/** `x-kubernetes-int-or-string` becomes `type: [integer, string]` upstream. */
function typesOf(s: Schema): string[] {
  if (s['x-kubernetes-int-or-string']) return ['integer', 'string'];
  return s.type ? [s.type] : [];
}

/** Validates `data` against `schema`; `path` is the dotted data path (`''` at the root). */
export function validateAgainstSchema(schema: Schema, data: unknown, path = ''): Result {
  const result = new Result();
  const types = typesOf(schema);
  // Upstream keeps the format as written (`date-time`) and only looks it up normalized.
  const format = supportedFormat(schema.format) !== undefined ? schema.format : undefined;
  const kind = kindOf(data);
  if (kind === 'null') {
    result.merge(validateType(types, format, schema.nullable === true, data, kind, path));
    result.merge(validateEnum(schema, data, path));
    return result;
  }
  const steps: (() => Result | undefined)[] = [];
  if (types.length > 0 || format !== undefined) {
    steps.push(() => validateType(types, format, schema.nullable === true, data, kind, path));
  }
  steps.push(() => validateJunctors(schema, data, path));
  // The same steps as `kind` says, with `data` narrowed to what each validator reads.
  if (typeof data === 'string') {
    const text = data;
    steps.push(() => validateString(schema, text, path));
    if (format !== undefined) steps.push(() => validateFormat(format, text, path));
  }
  if (typeof data === 'number') {
    const n = data;
    steps.push(() => validateNumber(schema, n, path));
  }
  if (Array.isArray(data)) {
    const items: unknown[] = data;
    steps.push(() => validateSlice(schema, items, path));
  }
  steps.push(() => validateEnum(schema, data, path));
  if (kind === 'map') {
    // A map kind that is not a JSON object (a bigint) has no keys, as `{}`.
    const obj = isJsonObject(data) ? data : {};
    steps.push(() => validateObject(schema, obj, path));
  }
  for (const step of steps) {
    result.merge(step());
    result.inc();
  }
  result.inc();
  return result;
}

function validateType(
  types: readonly string[],
  format: string | undefined,
  nullable: boolean,
  data: unknown,
  kind: Kind,
  path: string,
): Result {
  const ok = new Result();
  ok.inc();
  if (kind === 'null') {
    if (types.length > 0 && !types.includes('null') && !nullable) {
      return Result.of(E.invalidType(path, types.join(','), 'null'));
    }
    return ok;
  }
  const [schType, valueFormat] = SCHEMA_TYPE[kind];
  const isFloatInt = schType === 'number' && Number.isInteger(data) && types.includes('integer');
  const isIntFloat = schType === 'integer' && types.includes('number');
  const matches = types.includes(schType) || isFloatInt || isIntFloat;
  if (
    kind !== 'string' &&
    kind !== 'slice' &&
    format !== undefined &&
    !(matches || valueFormat === format)
  ) {
    return Result.of(E.invalidType(path, format, valueFormat));
  }
  const numeric = types.includes('number') || types.includes('integer');
  if (!numeric && format !== undefined && (kind === 'string' || kind === 'slice')) return ok;
  if (!matches) return Result.of(E.invalidType(path, types.join(','), schType));
  return ok;
}

function validateString(s: Schema, data: string, path: string): Result | undefined {
  if (s.maxLength !== undefined && runeCount(data) > s.maxLength) {
    return Result.of(E.tooLong(path, s.maxLength, data));
  }
  if (s.minLength !== undefined && runeCount(data) < s.minLength) {
    return Result.of(E.tooShort(path, s.minLength, data));
  }
  if (s.pattern) {
    // A pattern JavaScript cannot express is not enforced (see go-regexp.ts).
    const compiled = compileGoPattern(s.pattern);
    if (compiled.ok && !compiled.regex.test(data)) {
      return Result.of(E.pattern(path, s.pattern, data));
    }
  }
  return undefined;
}

function validateFormat(format: string, data: string, path: string): Result | undefined {
  const normalized = supportedFormat(format) ?? format;
  return checkFormat(normalized, data) ? undefined : Result.of(E.invalidType(path, format, data));
}

/** swag `IsFloat64AJSONInteger`: integral, or within a relative 1e-9 of an integer. */
function isJSONInteger(f: number): boolean {
  if (!Number.isFinite(f) || Math.abs(f) > 2 ** 53) return false;
  if (Number.isInteger(f)) return true;
  const g = Math.trunc(f);
  return Math.abs(f - g) / (Math.abs(f) + Math.abs(g)) < 1e-9;
}

function multipleOf(path: string, data: number, factor: number): OpenAPIError | undefined {
  if (factor < 0) return E.multipleOfMustBePositive(path, factor);
  const intFactor = Math.trunc(factor);
  // Upstream truncates the factor for int64 values (and panics on 0; we take the float path).
  if (isGoInt(data) && intFactor !== 0) {
    return data % intFactor === 0 ? undefined : E.multipleOf(path, intFactor, data);
  }
  const mult = factor < 1 ? (1 / factor) * data : data / factor;
  return isJSONInteger(mult) ? undefined : E.multipleOf(path, factor, data);
}

/** Maximum/minimum: int64 values compare against the truncated bound, floats against the float. */
function bound(
  path: string,
  data: number,
  limit: number,
  exclusive: boolean,
  max: boolean,
): OpenAPIError | undefined {
  const isInt = isGoInt(data);
  const lim = isInt ? Math.trunc(limit) : limit;
  const text = isInt ? String(lim) : goFloat(lim);
  if (max) {
    const bad = exclusive ? data >= lim : data > lim;
    return bad ? E.max(path, text, exclusive, data) : undefined;
  }
  const bad = exclusive ? data <= lim : data < lim;
  return bad ? E.min(path, text, exclusive, data) : undefined;
}

function validateNumber(s: Schema, data: number, path: string): Result {
  const res = new Result();
  const found = [
    s.multipleOf !== undefined ? multipleOf(path, data, s.multipleOf) : undefined,
    s.minimum !== undefined
      ? bound(path, data, s.minimum, s.exclusiveMinimum === true, false)
      : undefined,
    s.maximum !== undefined
      ? bound(path, data, s.maximum, s.exclusiveMaximum === true, true)
      : undefined,
  ];
  for (const e of found) if (e) res.addErrors(e);
  res.inc();
  return res;
}

function validateSlice(s: Schema, data: readonly unknown[], path: string): Result {
  const result = new Result();
  if (s.items) {
    const items = s.items;
    data.forEach((item, i) => {
      result.merge(validateAgainstSchema(items, item, `${path}[${i}]`));
    });
  }
  if (s.minItems !== undefined && data.length < s.minItems) {
    result.addErrors(E.minItems(path, s.minItems, data.length));
  }
  if (s.maxItems !== undefined && data.length > s.maxItems) {
    result.addErrors(E.maxItems(path, s.maxItems, data.length));
  }
  if (s.uniqueItems && data.some((x, i) => data.slice(0, i).some((y) => deepEqual(x, y)))) {
    result.addErrors(E.unique(path));
  }
  result.inc();
  return result;
}

function validateEnum(s: Schema, data: unknown, path: string): Result | undefined {
  const values = s.enum;
  if (!values || values.length === 0) return undefined;
  if (data !== null && data !== undefined && values.some((v) => v !== null && deepEqual(data, v))) {
    return undefined;
  }
  return Result.of(E.enum(path, data ?? null, values));
}

function has(obj: JsonObject, key: string): boolean {
  return Object.hasOwn(obj, key) && obj[key] !== undefined;
}

function validateObject(s: Schema, data: JsonObject, path: string): Result {
  const keys = Object.keys(data).filter((k) => data[k] !== undefined);
  if (s.minProperties !== undefined && keys.length < s.minProperties) {
    return Result.of(E.tooFewProperties(path, s.minProperties, keys.length));
  }
  if (s.maxProperties !== undefined && keys.length > s.maxProperties) {
    return Result.of(E.tooManyProperties(path, s.maxProperties, keys.length));
  }
  const res = new Result();
  const props = s.properties ?? {};
  validateExtraKeys(s, data, keys, path, res);
  for (const [name, prop] of Object.entries(props)) {
    if (!has(data, name)) continue;
    const sub = path === '' ? name : `${path}.${name}`;
    res.merge(validateAgainstSchema(prop, data[name], sub));
  }
  for (const name of s.required ?? []) {
    if (!has(data, name)) res.addErrors(E.required(`${path}.${name}`));
  }
  return res;
}

/** Undeclared keys: forbidden under `additionalProperties: false`, else checked against its schema. */
function validateExtraKeys(
  s: Schema,
  data: JsonObject,
  keys: readonly string[],
  path: string,
  res: Result,
): void {
  const props = s.properties ?? {};
  const extra = s.additionalProperties;
  for (const key of keys) {
    if (Object.hasOwn(props, key)) continue;
    if (extra === false) res.addErrors(E.unallowedProperty(path, key));
    else if (isJsonObject(extra)) {
      res.merge(validateAgainstSchema(extra, data[key], `${path}.${key}`));
    }
  }
}

/** `allOf`, `anyOf`, `oneOf` and `not`, with kube-openapi's choice of reported branch errors. */
function validateJunctors(s: Schema, data: unknown, path: string): Result {
  const main = new Result();
  if (s.anyOf && s.anyOf.length > 0) main.merge(validateAnyOf(s.anyOf, data, path));
  if (s.oneOf && s.oneOf.length > 0) main.merge(validateOneOf(s.oneOf, data, path));
  if (s.allOf && s.allOf.length > 0) {
    let validated = 0;
    for (const sub of s.allOf) {
      const r = validateAgainstSchema(sub, data, path);
      if (r.valid) validated++;
      main.merge(r);
    }
    if (validated !== s.allOf.length) {
      const more = validated === 0 ? '. None validated' : '';
      main.addErrors(
        E.composite(`${JSON.stringify(path)} must validate all the schemas (allOf)${more}`),
      );
    }
  }
  if (s.not && validateAgainstSchema(s.not, data, path).valid) {
    main.addErrors(E.composite(`${JSON.stringify(path)} must not validate the schema (not)`));
  }
  main.inc();
  return main;
}

function validateAnyOf(schemas: readonly Schema[], data: unknown, path: string): Result {
  const main = new Result();
  let best: Result | undefined;
  let firstSuccess: Result | undefined;
  for (const sub of schemas) {
    const r = validateAgainstSchema(sub, data, path);
    if (r.valid) {
      best = undefined;
      firstSuccess = r;
      break;
    }
    if (!best || r.matchCount > best.matchCount) best = r;
  }
  if (!firstSuccess) {
    main.addErrors(
      E.composite(`${JSON.stringify(path)} must validate at least one schema (anyOf)`),
    );
  }
  return main.merge(best ?? firstSuccess);
}

function validateOneOf(schemas: readonly Schema[], data: unknown, path: string): Result {
  const main = new Result();
  let best: Result | undefined;
  let firstSuccess: Result | undefined;
  let validated = 0;
  for (const sub of schemas) {
    const r = validateAgainstSchema(sub, data, path);
    if (r.valid) {
      validated++;
      best = undefined;
      firstSuccess ??= r;
      continue;
    }
    if (validated === 0 && (!best || r.matchCount > best.matchCount)) best = r;
  }
  if (validated !== 1) {
    const more = validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`;
    main.addErrors(
      E.composite(`${JSON.stringify(path)} must validate one and only one schema (oneOf). ${more}`),
    );
    return main.merge(best);
  }
  return main.merge(firstSuccess);
}
