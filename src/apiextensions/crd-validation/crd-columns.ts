/**
 * Printer columns, the `/scale` subresource's paths and `selectableFields` of a CRD (upstream
 * `ValidateCustomResourceColumnDefinition`, `ValidateCustomResourceDefinitionSubresources`,
 * `ValidateCustomResourceSelectableFields`).
 *
 * Column JSON paths get upstream's simple check only (`must be a simple json path starting with
 * .`); a path that later fails to compile makes upstream fall back to default table printing
 * rather than reject the CRD, so full JSONPath parsing belongs to the table code, not here.
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors } from '../../api/field-error.js';
import { isJsonObject, type JsonObject } from '../../api/object.js';
import { asRaw, type RawSchema } from '../schema/raw-schema.js';
import { text } from './crd-internal.js';
import { validFieldPath } from './field-path.js';

const COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const COLUMN_FORMATS = [
  'byte',
  'date',
  'date-time',
  'double',
  'float',
  'int32',
  'int64',
  'password',
];
export const MAX_SELECTABLE_FIELDS = 8;

/** Upstream `validateSimpleJSONPath`. */
export function validateSimpleJSONPath(s: string, p: FieldPath): FieldError[] {
  if (s === '') return [fieldErrors.invalid(p, s, 'must not be empty')];
  if (!s.startsWith('.'))
    return [fieldErrors.invalid(p, s, 'must be a simple json path starting with .')];
  return [];
}

export function validateColumn(raw: unknown, p: FieldPath): FieldError[] {
  const col: JsonObject = isJsonObject(raw) ? raw : {};
  const errs: FieldError[] = [];
  if (text(col.name) === '') errs.push(fieldErrors.required(p.child('name')));
  const type = text(col.type);
  const typeMsg = `must be one of ${COLUMN_TYPES.join(',')}`;
  if (type === '') errs.push(fieldErrors.required(p.child('type'), typeMsg));
  else if (!COLUMN_TYPES.includes(type))
    errs.push(fieldErrors.invalid(p.child('type'), type, typeMsg));
  const format = text(col.format);
  if (format !== '' && !COLUMN_FORMATS.includes(format)) {
    errs.push(
      fieldErrors.invalid(p.child('format'), format, `must be one of ${COLUMN_FORMATS.join(',')}`),
    );
  }
  const jsonPath = text(col.jsonPath);
  if (jsonPath === '') errs.push(fieldErrors.required(p.child('JSONPath')));
  else errs.push(...validateSimpleJSONPath(jsonPath, p.child('JSONPath')));
  return errs;
}

function scalePath(
  value: string,
  p: FieldPath,
  prefixes: readonly string[],
  msg: string,
): FieldError[] {
  const simple = validateSimpleJSONPath(value, p);
  if (simple.length > 0) return simple;
  return prefixes.some((x) => value.startsWith(x)) ? [] : [fieldErrors.invalid(p, value, msg)];
}

export function validateSubresources(sub: JsonObject | undefined, p: FieldPath): FieldError[] {
  const scale = sub ? asRaw(sub.scale) : undefined;
  if (!scale) return [];
  const errs: FieldError[] = [];
  const spec = text(scale.specReplicasPath);
  const specPath = p.child('scale.specReplicasPath');
  if (spec === '') errs.push(fieldErrors.required(specPath));
  else errs.push(...scalePath(spec, specPath, ['.spec.'], 'should be a json path under .spec'));
  const status = text(scale.statusReplicasPath);
  const statusPath = p.child('scale.statusReplicasPath');
  if (status === '') errs.push(fieldErrors.required(statusPath));
  else
    errs.push(
      ...scalePath(status, statusPath, ['.status.'], 'should be a json path under .status'),
    );
  const selector = text(scale.labelSelectorPath);
  if (selector !== '') {
    errs.push(
      ...scalePath(
        selector,
        p.child('scale.labelSelectorPath'),
        ['.spec.', '.status.'],
        'should be a json path under either .spec or .status',
      ),
    );
  }
  return errs;
}

const SELECTABLE_TYPES = ['string', 'boolean', 'integer'];

/** Upstream `ValidateCustomResourceSelectableFields` against the version's schema. */
export function validateSelectableFields(
  fields: unknown[],
  schema: RawSchema | undefined,
  p: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((raw, i) => {
    const jp = p.index(i).child('jsonPath');
    const jsonPath = text(isJsonObject(raw) ? raw.jsonPath : undefined);
    if (jsonPath === '') {
      errs.push(fieldErrors.required(jp));
      return;
    }
    const found = validFieldPath(jsonPath, schema ?? {}, false);
    if (!found.ok) {
      errs.push(fieldErrors.invalid(jp, jsonPath, `is an invalid path: ${found.error}`));
      return;
    }
    if (found.segments[0] === 'metadata')
      errs.push(fieldErrors.invalid(jp, jsonPath, 'must not point to fields in metadata'));
    const type = found.schema ? text(found.schema.type) : '';
    if (!SELECTABLE_TYPES.includes(type)) {
      errs.push(
        fieldErrors.invalid(
          jp,
          jsonPath,
          'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
        ),
      );
    }
    const key = found.segments.join('.');
    if (unique.has(key)) errs.push(fieldErrors.duplicate(jp, jsonPath));
    else unique.add(key);
  });
  if (unique.size > MAX_SELECTABLE_FIELDS) {
    errs.push({
      type: 'FieldValueTooMany',
      field: String(p),
      badValue: unique.size,
      detail: `must have at most ${MAX_SELECTABLE_FIELDS} items`,
    });
  }
  return errs;
}
