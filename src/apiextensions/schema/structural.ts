/**
 * The structural-schema rules (upstream `apiserver/schema/validation.go` `ValidateStructural`
 * and `complete.go`): every field has a `type` (or int-or-string / preserve-unknown-fields),
 * junctors (`allOf`/`anyOf`/`oneOf`/`not`) carry value validations only, root `metadata` may
 * restrict only `name` and `generateName`, embedded resources are objects, and anything a
 * junctor mentions is also specified outside it. Errors are sorted by their text, as upstream.
 *
 * @module
 */
import {
  type FieldError,
  type FieldPath,
  fieldErrors,
  fieldErrorText,
} from '../../api/field-error.js';
import { goRegexpError } from '../../api/schema/go-regexp.js';
import {
  asRaw,
  bool,
  itemsOf,
  property,
  type RawSchema,
  schemaList,
  schemaMap,
  str,
} from './raw-schema.js';

type Level = 'root' | 'item' | 'field';

const TYPE_REQUIRED: Record<Level, string> = {
  root: 'must not be empty at the root',
  item: 'must not be empty for specified array items',
  field: 'must not be empty for specified object fields',
};

/** All structural violations of the root schema `s` at `path`, sorted by error text. */
export function validateStructural(path: FieldPath, s: RawSchema): FieldError[] {
  const errs = [...invariants(s, 'root', path), ...completeness(s, path)];
  return errs
    .map((e) => [fieldErrorText(e), e] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, e]) => e);
}

function invariants(s: RawSchema, lvl: Level, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(s, 'type');
  const items = itemsOf(s);
  if (type === 'array' && !items)
    errs.push(fieldErrors.required(path.child('items'), 'must be specified'));
  if (items) errs.push(...invariants(items, 'item', path.child('items')));
  for (const [k, v] of schemaMap(s, 'properties')) {
    errs.push(...invariants(v, 'field', path.child('properties').key(k)));
  }
  if (s.additionalProperties !== undefined) {
    if (lvl === 'root') {
      errs.push(
        fieldErrors.forbidden(path.child('additionalProperties'), 'must not be used at the root'),
      );
    }
    const extra = asRaw(s.additionalProperties);
    if (extra) errs.push(...invariants(extra, 'field', path.child('additionalProperties')));
  }
  errs.push(...extensionConflicts(s, path));
  errs.push(...valueValidation(s, isIntOrStringAnyOf(s), isIntOrStringAllOf(s), path));
  errs.push(...typeRules(s, lvl, path));
  errs.push(...metadataRules(s, lvl, path));
  if (
    bool(s, 'x-kubernetes-embedded-resource') &&
    !bool(s, 'x-kubernetes-preserve-unknown-fields')
  ) {
    if (schemaMap(s, 'properties').length === 0) {
      errs.push(
        fieldErrors.required(
          path.child('properties'),
          'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
        ),
      );
    }
  }
  return errs;
}

function extensionConflicts(s: RawSchema, path: FieldPath): FieldError[] {
  if (!bool(s, 'x-kubernetes-int-or-string')) return [];
  const errs: FieldError[] = [];
  const msg = 'must be false if x-kubernetes-int-or-string is true';
  if (bool(s, 'x-kubernetes-preserve-unknown-fields')) {
    errs.push(fieldErrors.invalid(path.child('x-kubernetes-preserve-unknown-fields'), true, msg));
  }
  if (bool(s, 'x-kubernetes-embedded-resource')) {
    errs.push(fieldErrors.invalid(path.child('x-kubernetes-embedded-resource'), true, msg));
  }
  return errs;
}

function typeRules(s: RawSchema, lvl: Level, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(s, 'type');
  const embedded = bool(s, 'x-kubernetes-embedded-resource');
  if (embedded && type !== 'object') {
    const msg = 'must be object if x-kubernetes-embedded-resource is true';
    errs.push(
      type === ''
        ? fieldErrors.required(path.child('type'), msg)
        : fieldErrors.invalid(path.child('type'), type, msg),
    );
  } else if (
    type === '' &&
    !bool(s, 'x-kubernetes-int-or-string') &&
    !bool(s, 'x-kubernetes-preserve-unknown-fields')
  ) {
    errs.push(fieldErrors.required(path.child('type'), TYPE_REQUIRED[lvl]));
  }
  if (embedded && s.additionalProperties !== undefined) {
    errs.push(
      fieldErrors.forbidden(
        path.child('additionalProperties'),
        'must not be used if x-kubernetes-embedded-resource is set',
      ),
    );
  }
  if (lvl === 'root' && type !== '' && type !== 'object') {
    errs.push(fieldErrors.invalid(path.child('type'), type, 'must be object at the root'));
  }
  return errs;
}

function metadataRules(s: RawSchema, lvl: Level, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const check = lvl === 'root' || bool(s, 'x-kubernetes-embedded-resource');
  if (!check) return errs;
  for (const name of ['kind', 'apiVersion']) {
    const p = property(s, name);
    if (p && check && str(p, 'type') !== 'string') {
      errs.push(
        fieldErrors.invalid(
          path.child('properties').key(name).child('type'),
          str(p, 'type'),
          'must be string',
        ),
      );
    }
  }
  const meta = property(s, 'metadata');
  if (!meta) return errs;
  const metaPath = path.child('properties').key('metadata');
  if (check && str(meta, 'type') !== 'object') {
    errs.push(fieldErrors.invalid(metaPath.child('type'), str(meta, 'type'), 'must be object'));
  }
  if (lvl === 'root' && restrictsMoreThanNames(meta)) {
    errs.push(
      fieldErrors.forbidden(
        metaPath,
        'must not specify anything other than name and generateName, but metadata is implicitly specified',
      ),
    );
  }
  return errs;
}

/** Root metadata may only say `type: object` and restrict `name`/`generateName` (a default is checked elsewhere). */
function restrictsMoreThanNames(meta: RawSchema): boolean {
  for (const [k, v] of Object.entries(meta)) {
    if (v === undefined || k === 'type' || k === 'default') continue;
    const properties = k === 'properties' ? asRaw(v) : undefined;
    if (properties !== undefined) {
      const names = Object.keys(properties);
      if (names.length === 0 || names.every((n) => n === 'name' || n === 'generateName')) continue;
    }
    if (isZero(v)) continue;
    return true;
  }
  return false;
}

/** Go's zero value for a JSONSchemaProps field (skipped by upstream's reflect comparison). */
function isZero(v: unknown): boolean {
  return v === false || v === '' || v === null || (Array.isArray(v) && v.length === 0);
}

const INT_OR_STRING = (branches: RawSchema[]): boolean =>
  branches.length === 2 &&
  branches.every(
    (b, i) => Object.keys(b).length === 1 && b.type === (i === 0 ? 'integer' : 'string'),
  );

function isIntOrStringAnyOf(s: RawSchema): boolean {
  return INT_OR_STRING(schemaList(s, 'anyOf'));
}

function isIntOrStringAllOf(s: RawSchema): boolean {
  const first = schemaList(s, 'allOf')[0];
  return first !== undefined && INT_OR_STRING(schemaList(first, 'anyOf'));
}

function valueValidation(
  s: RawSchema,
  skipAnyOf: boolean,
  skipFirstAllOfAnyOf: boolean,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  if (!skipAnyOf) {
    schemaList(s, 'anyOf').forEach((v, i) => {
      errs.push(...nested(v, false, path.child('anyOf').index(i)));
    });
  }
  schemaList(s, 'allOf').forEach((v, i) => {
    errs.push(...nested(v, skipFirstAllOfAnyOf && i === 0, path.child('allOf').index(i)));
  });
  schemaList(s, 'oneOf').forEach((v, i) => {
    errs.push(...nested(v, false, path.child('oneOf').index(i)));
  });
  const not = asRaw(s.not);
  if (not) errs.push(...nested(not, false, path.child('not')));
  const pattern = str(s, 'pattern');
  if (pattern !== '') {
    const err = goRegexpError(pattern);
    if (err) {
      errs.push(
        fieldErrors.invalid(
          path.child('pattern'),
          pattern,
          `must be a valid regular expression, but isn't: ${err}`,
        ),
      );
    }
  }
  return errs;
}

/** What a junctor branch may not say, with upstream's wording per keyword. */
const FORBIDDEN_IN_JUNCTOR: readonly [string, (v: unknown) => boolean, string][] = [
  ['type', (v) => typeof v === 'string' && v !== '', 'must be empty to be structural'],
  ['additionalProperties', (v) => v !== undefined, 'must be undefined to be structural'],
  ['default', (v) => v !== undefined && v !== null, 'must be undefined to be structural'],
  ['title', (v) => typeof v === 'string' && v !== '', 'must be empty to be structural'],
  ['description', (v) => typeof v === 'string' && v !== '', 'must be empty to be structural'],
  ['nullable', (v) => v === true, 'must be false to be structural'],
  ['x-kubernetes-preserve-unknown-fields', (v) => v === true, 'must be false to be structural'],
  ['x-kubernetes-embedded-resource', (v) => v === true, 'must be false to be structural'],
  ['x-kubernetes-int-or-string', (v) => v === true, 'must be false to be structural'],
  [
    'x-kubernetes-list-map-keys',
    (v) => Array.isArray(v) && v.length > 0,
    'must be empty to be structural',
  ],
  [
    'x-kubernetes-list-type',
    (v) => v !== undefined && v !== null,
    'must be undefined to be structural',
  ],
  [
    'x-kubernetes-map-type',
    (v) => v !== undefined && v !== null,
    'must be undefined to be structural',
  ],
  [
    'x-kubernetes-validations',
    (v) => Array.isArray(v) && v.length > 0,
    'must be empty to be structural',
  ],
];

function nested(v: RawSchema, skipAnyOf: boolean, path: FieldPath): FieldError[] {
  const errs = valueValidation(v, skipAnyOf, false, path);
  const items = itemsOf(v);
  if (items) errs.push(...nested(items, false, path.child('items')));
  for (const [k, p] of schemaMap(v, 'properties')) {
    errs.push(...nested(p, false, path.child('properties').key(k)));
  }
  for (const [key, present, msg] of FORBIDDEN_IN_JUNCTOR) {
    if (present(v[key])) errs.push(fieldErrors.forbidden(path.child(key), msg));
  }
  if (property(v, 'metadata')) {
    errs.push(
      fieldErrors.forbidden(
        path.child('properties').key('metadata'),
        'must not be specified in a nested context',
      ),
    );
  }
  return errs;
}

/** Upstream `validateStructuralCompleteness`: the root's junctors may only mention declared fields. */
function completeness(s: RawSchema, path: FieldPath): FieldError[] {
  return junctorCompleteness(s, s, path, path);
}

function junctorCompleteness(
  v: RawSchema,
  s: RawSchema | undefined,
  sPath: FieldPath,
  vPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const not = asRaw(v.not);
  if (not) errs.push(...nestedCompleteness(not, s, sPath, vPath.child('not')));
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    schemaList(v, key).forEach((b, i) => {
      errs.push(...nestedCompleteness(b, s, sPath, vPath.child(key).index(i)));
    });
  }
  return errs;
}

function nestedCompleteness(
  v: RawSchema,
  s: RawSchema | undefined,
  sPath: FieldPath,
  vPath: FieldPath,
): FieldError[] {
  if (!s) return [fieldErrors.required(sPath, `because it is defined in ${vPath}`)];
  const errs = junctorCompleteness(v, s, sPath, vPath);
  const items = itemsOf(v);
  if (items)
    errs.push(...nestedCompleteness(items, itemsOf(s), sPath.child('items'), vPath.child('items')));
  for (const [k, p] of schemaMap(v, 'properties')) {
    const sp = sPath.child('properties').key(k);
    const vp = vPath.child('properties').key(k);
    const declared = property(s, k);
    if (!declared) errs.push(fieldErrors.required(sp, `because it is defined in ${vp}`));
    else errs.push(...nestedCompleteness(p, declared, sp, vp));
  }
  return errs;
}
