/**
 * Validation of a CRD's `openAPIV3Schema` (upstream `validateCustomResourceDefinitionValidation`
 * and `ValidateCustomResourceDefinitionOpenAPISchema` in
 * `apiextensions/validation/validation.go`): the root restrictions with a status subresource,
 * the structural rules, defaults, unsupported keywords, and the `x-kubernetes-*` combinations.
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors } from '../../api/field-error.js';
import type { Schema } from '../../api/schema/types.js';
import {
  asRaw,
  bool,
  hasDefault,
  itemsOf,
  type RawSchema,
  schemaList,
  schemaMap,
  str,
  structuralConversionError,
  typed,
} from '../schema/raw-schema.js';
import { validateStructural } from '../schema/structural.js';
import { validateDefaults } from '../schema/validate-defaults.js';
import { extensionErrors } from './crd-extensions.js';
import { validateXValidations } from './crd-x-validations.js';

export interface SchemaCheckOptions {
  readonly allowDefaults: boolean;
  readonly requireValidPropertyType: boolean;
  readonly requireStructuralSchema: boolean;
  readonly requirePrunedDefaults: boolean;
  readonly requireAtomicSetType: boolean;
  readonly requireMapListKeysMapSetValidation: boolean;
  /**
   * CEL hook: compile the `x-kubernetes-validations` of one (structurally valid) schema node and
   * return upstream's errors for them (`…x-kubernetes-validations[0].rule: Invalid value: …`).
   */
  readonly compileRules?: (schema: Schema, path: FieldPath) => FieldError[];
  /** CEL hook: evaluate a node's rules against its default value. */
  readonly validateRulesOnDefault?: (
    schema: Schema,
    value: unknown,
    path: FieldPath,
  ) => FieldError[];
}

/** JSONSchemaProps fields in Go struct order, by JSON key, for the status-subresource root rule. */
const GO_FIELDS: readonly [string, string][] = [
  ['id', 'ID'],
  ['$schema', 'Schema'],
  ['$ref', 'Ref'],
  ['description', 'Description'],
  ['type', 'Type'],
  ['format', 'Format'],
  ['title', 'Title'],
  ['default', 'Default'],
  ['maximum', 'Maximum'],
  ['exclusiveMaximum', 'ExclusiveMaximum'],
  ['minimum', 'Minimum'],
  ['exclusiveMinimum', 'ExclusiveMinimum'],
  ['maxLength', 'MaxLength'],
  ['minLength', 'MinLength'],
  ['pattern', 'Pattern'],
  ['maxItems', 'MaxItems'],
  ['minItems', 'MinItems'],
  ['uniqueItems', 'UniqueItems'],
  ['multipleOf', 'MultipleOf'],
  ['enum', 'Enum'],
  ['maxProperties', 'MaxProperties'],
  ['minProperties', 'MinProperties'],
  ['required', 'Required'],
  ['items', 'Items'],
  ['allOf', 'AllOf'],
  ['oneOf', 'OneOf'],
  ['anyOf', 'AnyOf'],
  ['not', 'Not'],
  ['properties', 'Properties'],
  ['additionalProperties', 'AdditionalProperties'],
  ['patternProperties', 'PatternProperties'],
  ['dependencies', 'Dependencies'],
  ['additionalItems', 'AdditionalItems'],
  ['definitions', 'Definitions'],
  ['externalDocs', 'ExternalDocs'],
  ['example', 'Example'],
  ['nullable', 'Nullable'],
  ['x-kubernetes-preserve-unknown-fields', 'XPreserveUnknownFields'],
  ['x-kubernetes-embedded-resource', 'XEmbeddedResource'],
  ['x-kubernetes-int-or-string', 'XIntOrString'],
  ['x-kubernetes-list-map-keys', 'XListMapKeys'],
  ['x-kubernetes-list-type', 'XListType'],
  ['x-kubernetes-map-type', 'XMapType'],
  ['x-kubernetes-validations', 'XValidations'],
];

const ALLOWED_AT_ROOT = [
  'Description',
  'Type',
  'Format',
  'Title',
  'Maximum',
  'ExclusiveMaximum',
  'Minimum',
  'ExclusiveMinimum',
  'MaxLength',
  'MinLength',
  'Pattern',
  'MaxItems',
  'MinItems',
  'UniqueItems',
  'MultipleOf',
  'Required',
  'Items',
  'Properties',
  'ExternalDocs',
  'Example',
  'XPreserveUnknownFields',
  'XValidations',
];

/** Fields that are pointers in Go: set (non-zero) whenever present, even as `0` or `false`. */
const POINTER_FIELDS = new Set([
  'default',
  'maximum',
  'minimum',
  'maxLength',
  'minLength',
  'maxItems',
  'minItems',
  'multipleOf',
  'maxProperties',
  'minProperties',
  'items',
  'not',
  'additionalProperties',
  'additionalItems',
  'externalDocs',
  'example',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-list-type',
  'x-kubernetes-map-type',
]);

/** Go's zero value check upstream does by reflection over JSONSchemaProps. */
function isGoZero(key: string, v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (POINTER_FIELDS.has(key)) return false;
  if (v === false || v === '') return true;
  return Array.isArray(v) && v.length === 0;
}

/** With a status subresource the root may only carry what survives extracting `properties.status`. */
function statusRootErrors(schema: RawSchema, path: FieldPath): FieldError[] {
  for (const [key, goName] of GO_FIELDS) {
    const value = schema[key];
    if (isGoZero(key, value)) continue;
    if (goName === 'Type') {
      if (value !== 'object') {
        return [
          fieldErrors.invalid(
            path.child('openAPIV3Schema.type'),
            value,
            'only "object" is allowed as the type at the root of the schema if the status subresource is enabled',
          ),
        ];
      }
      continue;
    }
    if (!ALLOWED_AT_ROOT.includes(goName)) {
      return [
        fieldErrors.invalid(
          path.child('openAPIV3Schema'),
          schema,
          `only [${ALLOWED_AT_ROOT.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`,
        ),
      ];
    }
  }
  return [];
}

/**
 * Upstream `validateCustomResourceDefinitionValidation` for `{openAPIV3Schema}` at `path`
 * (`spec.validation` or `spec.versions[i].schema`).
 */
export function validateSchemaHolder(
  holder: RawSchema | undefined,
  statusEnabled: boolean,
  o: SchemaCheckOptions,
  path: FieldPath,
): FieldError[] {
  const schema = holder ? asRaw(holder.openAPIV3Schema) : undefined;
  if (!schema) return [];
  const errs: FieldError[] = [];
  if (statusEnabled) errs.push(...statusRootErrors(schema, path));
  if (schema.nullable === true) {
    errs.push(
      fieldErrors.forbidden(
        path.child('openAPIV3Schema.nullable'),
        'nullable cannot be true at the root',
      ),
    );
  }
  const schemaPath = path.child('openAPIV3Schema');
  let initErrs: FieldError[] = [];
  let celEnabled = false;
  if (o.requireStructuralSchema) {
    const conversionError = structuralConversionError(schema);
    if (conversionError) {
      initErrs = [fieldErrors.invalid(schemaPath, '', conversionError)];
    } else {
      const structural = validateStructural(schemaPath, schema);
      const defaults =
        structural.length > 0
          ? []
          : validateDefaults(schemaPath, schema, {
              requirePrunedDefaults: o.requirePrunedDefaults,
              ...(o.validateRulesOnDefault ? { validateRules: o.validateRulesOnDefault } : {}),
            });
      errs.push(...structural, ...defaults);
      celEnabled = structural.length === 0 && defaults.length === 0;
    }
  }
  const walker = new SchemaWalker(o, celEnabled);
  const found = walker.walk(schema, schemaPath, ROOT_STATE, true);
  errs.push(...found.schema, ...found.cel);
  if (errs.length === 0) errs.push(...initErrs);
  return errs;
}

interface WalkState {
  readonly allowDefaults: boolean;
  readonly disallowDefaultsReason: string;
  readonly insideResourceMeta: boolean;
}

const ROOT_STATE: WalkState = {
  allowDefaults: true,
  disallowDefaultsReason: '',
  insideResourceMeta: false,
};

interface Found {
  readonly schema: FieldError[];
  readonly cel: FieldError[];
}

const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);

/** Upstream `ValidateCustomResourceDefinitionOpenAPISchema`, node by node. */
class SchemaWalker {
  readonly #o: SchemaCheckOptions;
  readonly #cel: boolean;

  constructor(o: SchemaCheckOptions, celEnabled: boolean) {
    this.#o = o;
    this.#cel = celEnabled;
  }

  walk(s: RawSchema, path: FieldPath, st: WalkState, isRoot: boolean): Found {
    const schema: FieldError[] = [...this.#standard(s, path, st)];
    const cel: FieldError[] = [];
    const add = (f: Found): void => {
      schema.push(...f.schema);
      cel.push(...f.cel);
    };
    if (s.uniqueItems === true) {
      schema.push(
        fieldErrors.forbidden(
          path.child('uniqueItems'),
          'uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
        ),
      );
    }
    for (const f of this.#children(s, path, st, isRoot)) add(f);
    schema.push(...extensionErrors(s, path, this.#o));
    const rules = validateXValidations(s, path);
    schema.push(...rules);
    if (
      schema.length === 0 &&
      this.#cel &&
      this.#o.compileRules &&
      schemaList(s, 'x-kubernetes-validations').length > 0
    ) {
      cel.push(...this.#o.compileRules(typed(s), path));
    }
    return { schema, cel };
  }

  /** `additionalProperties` and `properties`: where defaults are forbidden and metadata begins. */
  #mapChildren(s: RawSchema, path: FieldPath, st: WalkState, isRoot: boolean): Found[] {
    const out: Found[] = [];
    if (s.additionalProperties !== undefined) {
      const props = schemaMap(s, 'properties');
      if (props.length > 0 && (s.additionalProperties === false || asRaw(s.additionalProperties))) {
        out.push({
          schema: [
            fieldErrors.forbidden(
              path.child('additionalProperties'),
              'additionalProperties and properties are mutual exclusive',
            ),
          ],
          cel: [],
        });
      }
      const extra = asRaw(s.additionalProperties);
      const sub = st.insideResourceMeta
        ? forbidDefaults(st, 'inside additionalProperties applying to object metadata')
        : st;
      if (extra) out.push(this.walk(extra, path.child('additionalProperties'), sub, false));
    }
    for (const [k, prop] of schemaMap(s, 'properties')) {
      let sub = st;
      if ((isRoot || bool(s, 'x-kubernetes-embedded-resource')) && META_FIELDS.has(k)) {
        sub = { ...sub, insideResourceMeta: true };
        if (isRoot) sub = forbidDefaults(sub, `in top-level ${k}`);
      }
      out.push(this.walk(prop, path.child('properties').key(k), sub, false));
    }
    return out;
  }

  #children(s: RawSchema, path: FieldPath, st: WalkState, isRoot: boolean): Found[] {
    const out: Found[] = this.#mapChildren(s, path, st, isRoot);
    const not = asRaw(s.not);
    if (not) out.push(this.walk(not, path.child('not'), st, false));
    for (const key of ['allOf', 'oneOf', 'anyOf']) {
      schemaList(s, key).forEach((b, i) => {
        out.push(this.walk(b, path.child(key).index(i), st, false));
      });
    }
    for (const [k, d] of schemaMap(s, 'definitions')) {
      out.push(this.walk(d, path.child('definitions').key(k), st, false));
    }
    const items = itemsOf(s);
    if (items) out.push(this.walk(items, path.child('items'), st, false));
    if (Array.isArray(s.items)) {
      schemaList(s, 'items').forEach((b, i) => {
        out.push(this.walk(b, path.child('items').index(i), st, false));
      });
    }
    for (const [k, d] of schemaMap(s, 'dependencies')) {
      out.push(this.walk(d, path.child('dependencies').key(k), st, false));
    }
    return out;
  }

  /** Upstream `specStandardValidatorV3.validate`: keywords CRDs do not support. */
  #standard(s: RawSchema, path: FieldPath, st: WalkState): FieldError[] {
    const errs: FieldError[] = [];
    const type = str(s, 'type');
    if (this.#o.requireValidPropertyType && type !== '' && !OPENAPI_V3_TYPES.includes(type)) {
      errs.push(fieldErrors.notSupported(path.child('type'), type, OPENAPI_V3_TYPES));
    }
    if (hasDefault(s) && !st.allowDefaults) {
      const reason = st.disallowDefaultsReason;
      errs.push(
        fieldErrors.forbidden(
          path.child('default'),
          reason ? `must not be set ${reason}` : 'must not be set',
        ),
      );
    }
    const unsupported: [string, boolean, string][] = [
      ['id', str(s, 'id') !== '', 'id is not supported'],
      [
        'additionalItems',
        s.additionalItems !== undefined && s.additionalItems !== null,
        'additionalItems is not supported',
      ],
      [
        'patternProperties',
        schemaMap(s, 'patternProperties').length > 0,
        'patternProperties is not supported',
      ],
      ['definitions', schemaMap(s, 'definitions').length > 0, 'definitions is not supported'],
      [
        'dependencies',
        s.dependencies !== undefined && s.dependencies !== null,
        'dependencies is not supported',
      ],
      ['$ref', typeof s.$ref === 'string', '$ref is not supported'],
      ['type', type === 'null', 'type cannot be set to null, use nullable as an alternative'],
      ['items', Array.isArray(s.items), 'items must be a schema object and not an array'],
      [
        'x-kubernetes-embedded-resource',
        st.insideResourceMeta && bool(s, 'x-kubernetes-embedded-resource'),
        'must not be used inside of resource meta',
      ],
    ];
    for (const [key, bad, msg] of unsupported)
      if (bad) errs.push(fieldErrors.forbidden(path.child(key), msg));
    return errs;
  }
}

function forbidDefaults(st: WalkState, reason: string): WalkState {
  return { ...st, allowDefaults: false, disallowDefaultsReason: reason };
}
