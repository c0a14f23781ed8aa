/**
 * The `x-kubernetes-*` combination rules of a CRD schema node (upstream, inside
 * `ValidateCustomResourceDefinitionOpenAPISchema` and `validateMapListKeysMapSet`):
 * preserve-unknown-fields is `true` or absent, map-type needs an object, list-type an array,
 * set items are atomic, map lists have object items whose scalar keys are required or defaulted
 * and never nullable.
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors } from '../../api/field-error.js';
import { asRaw, hasDefault, itemsOf, type RawSchema, str } from '../schema/raw-schema.js';
import type { SchemaCheckOptions } from './crd-schema.js';

function typeMust(path: FieldPath, type: string, msg: string): FieldError {
  return type === ''
    ? fieldErrors.required(path.child('type'), msg)
    : fieldErrors.invalid(path.child('type'), type, msg);
}

/** The `x-kubernetes-*` combination rules (preserve, map-type, list-type, map keys). */
export function extensionErrors(
  s: RawSchema,
  path: FieldPath,
  o: SchemaCheckOptions,
): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(s, 'type');
  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    errs.push(
      fieldErrors.invalid(
        path.child('x-kubernetes-preserve-unknown-fields'),
        false,
        'must be true or undefined',
      ),
    );
  }
  const mapType = s['x-kubernetes-map-type'];
  if (typeof mapType === 'string') {
    if (type !== 'object')
      errs.push(typeMust(path, type, 'must be object if x-kubernetes-map-type is specified'));
    if (mapType !== 'atomic' && mapType !== 'granular') {
      errs.push(
        fieldErrors.notSupported(path.child('x-kubernetes-map-type'), mapType, [
          'atomic',
          'granular',
        ]),
      );
    }
  }
  errs.push(...listTypeErrors(s, path, o));
  return errs;
}

function listTypeErrors(s: RawSchema, path: FieldPath, o: SchemaCheckOptions): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(s, 'type');
  const rawListType = s['x-kubernetes-list-type'];
  const listType = typeof rawListType === 'string' ? rawListType : undefined;
  const items = itemsOf(s);
  if (listType !== undefined && type !== 'array') {
    errs.push(typeMust(path, type, 'must be array if x-kubernetes-list-type is specified'));
  } else if (o.requireAtomicSetType && listType === 'set' && items) {
    errs.push(...setItemErrors(items, path));
  }
  if (listType !== undefined && !['atomic', 'set', 'map'].includes(listType)) {
    errs.push(
      fieldErrors.notSupported(path.child('x-kubernetes-list-type'), listType, [
        'atomic',
        'set',
        'map',
      ]),
    );
  }
  const rawKeys = s['x-kubernetes-list-map-keys'];
  const keys: unknown[] = Array.isArray(rawKeys) ? rawKeys : [];
  if (keys.length > 0) {
    const msg = 'must be map if x-kubernetes-list-map-keys is non-empty';
    if (listType === undefined)
      errs.push(fieldErrors.required(path.child('x-kubernetes-list-type'), msg));
    else if (listType !== 'map')
      errs.push(fieldErrors.invalid(path.child('x-kubernetes-list-type'), listType, msg));
  }
  if (listType === 'map') errs.push(...mapListErrors(s, keys, path));
  if (o.requireMapListKeysMapSetValidation)
    errs.push(...mapListKeysMapSet(s, keys, listType, path));
  return errs;
}

function setItemErrors(items: RawSchema, path: FieldPath): FieldError[] {
  const msg = 'must be atomic as item of a list with x-kubernetes-list-type=set';
  const itemType = str(items, 'type');
  const itemList = items['x-kubernetes-list-type'];
  if (itemType === 'array' && typeof itemList === 'string' && itemList !== 'atomic') {
    return [
      fieldErrors.invalid(path.child('items').child('x-kubernetes-list-type'), itemList, msg),
    ];
  }
  if (itemType === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
    // Upstream reports the items' list type here (usually unset, printed as null).
    return [
      fieldErrors.invalid(
        path.child('items').child('x-kubernetes-map-type'),
        itemList ?? null,
        msg,
      ),
    ];
  }
  return [];
}

function mapListErrors(s: RawSchema, keys: unknown[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const items = itemsOf(s);
  if (keys.length === 0) {
    errs.push(
      fieldErrors.required(
        path.child('x-kubernetes-list-map-keys'),
        'must not be empty if x-kubernetes-list-type is map',
      ),
    );
  }
  if (s.items === undefined || s.items === null) {
    errs.push(
      fieldErrors.required(
        path.child('items'),
        'must have a schema if x-kubernetes-list-type is map',
      ),
    );
  } else if (!items) {
    errs.push(
      fieldErrors.invalid(
        path.child('items'),
        s.items,
        'must only have a single schema if x-kubernetes-list-type is map',
      ),
    );
  }
  if (!items) return errs;
  const itemType = str(items, 'type');
  if (itemType !== 'object') {
    errs.push(
      fieldErrors.invalid(
        path.child('items').child('type'),
        itemType,
        "must be object if parent array's x-kubernetes-list-type is map",
      ),
    );
    return errs;
  }
  const seen = new Set<unknown>();
  for (const k of keys) {
    const prop = typeof k === 'string' ? asRaw(asRaw(items.properties)?.[k]) : undefined;
    if (prop) {
      const t = str(prop, 'type');
      if (t === 'array' || t === 'object') {
        errs.push(
          fieldErrors.invalid(
            path.child('items').child('properties').key(String(k)).child('type'),
            itemType,
            "must be a scalar type if parent array's x-kubernetes-list-type is map",
          ),
        );
      }
    } else {
      errs.push(
        fieldErrors.invalid(
          path.child('x-kubernetes-list-map-keys'),
          keys,
          'entries must all be names of item properties',
        ),
      );
    }
    if (seen.has(k)) {
      errs.push(
        fieldErrors.invalid(
          path.child('x-kubernetes-list-map-keys'),
          keys,
          'must not contain duplicate entries',
        ),
      );
    }
    seen.add(k);
  }
  return errs;
}

/** Upstream `validateMapListKeysMapSet`: set/map items and map keys are never null. */
function mapListKeysMapSet(
  s: RawSchema,
  keys: unknown[],
  listType: string | undefined,
  path: FieldPath,
): FieldError[] {
  const items = itemsOf(s);
  if (!items || (listType !== 'set' && listType !== 'map')) return [];
  const errs: FieldError[] = [];
  if (items.nullable === true) {
    errs.push(
      fieldErrors.forbidden(
        path.child('items').child('nullable'),
        `cannot be nullable when x-kubernetes-list-type is ${listType}`,
      ),
    );
  }
  if (listType !== 'map') return errs;
  const required = new Set(Array.isArray(items.required) ? items.required : []);
  for (const k of keys) {
    if (typeof k !== 'string') continue;
    const prop = asRaw(asRaw(items.properties)?.[k]);
    if (!prop) continue;
    const p = path.child('items').child('properties').key(k);
    if (!required.has(k) && !hasDefault(prop)) {
      errs.push(
        fieldErrors.required(
          p.child('default'),
          'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
        ),
      );
    }
    if (prop.nullable === true) {
      errs.push(
        fieldErrors.forbidden(
          p.child('nullable'),
          'this property is in x-kubernetes-list-map-keys, so it cannot be nullable',
        ),
      );
    }
  }
  return errs;
}
