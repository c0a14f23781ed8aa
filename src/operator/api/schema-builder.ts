/**
 * Small constructors for OpenAPI v3 schema nodes, so the celld schemas read as a list of
 * fields rather than nested object literals. Every string gets a `maxLength` and every list a
 * `maxItems`: the API server estimates the cost of each CEL rule from those bounds and refuses
 * rules whose worst case is unbounded.
 *
 * @module
 */

/** An OpenAPI v3 schema node as it appears in a CRD (JSON-compatible). */
export type SchemaNode = Record<string, unknown>;

export interface ValidationRule {
  rule: string;
  message: string;
  /** The field the error is reported on, relative to the node the rule sits on. */
  fieldPath?: string;
  reason?: 'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired';
}

export interface StringOptions {
  maxLength: number;
  minLength?: number;
  pattern?: string;
  enum?: readonly string[];
  format?: string;
  default?: string;
  description?: string;
}

export function str(o: StringOptions): SchemaNode {
  return { type: 'string', ...o };
}

export function enumOf(values: readonly string[], description?: string, def?: string): SchemaNode {
  return {
    type: 'string',
    enum: [...values],
    ...(def !== undefined ? { default: def } : {}),
    ...(description ? { description } : {}),
  };
}

export interface IntOptions {
  minimum?: number;
  maximum?: number;
  default?: number;
  format?: 'int32' | 'int64';
  description?: string;
}

export function int(o: IntOptions = {}): SchemaNode {
  return { type: 'integer', format: o.format ?? 'int32', ...o };
}

export function bool(description?: string): SchemaNode {
  return { type: 'boolean', ...(description ? { description } : {}) };
}

export interface ObjectOptions {
  required?: readonly string[];
  rules?: readonly ValidationRule[];
  default?: Record<string, unknown>;
  description?: string;
}

export function obj(properties: Record<string, SchemaNode>, o: ObjectOptions = {}): SchemaNode {
  return {
    type: 'object',
    ...(o.description ? { description: o.description } : {}),
    ...(o.required && o.required.length > 0 ? { required: [...o.required] } : {}),
    ...(o.default !== undefined ? { default: o.default } : {}),
    properties,
    ...(o.rules && o.rules.length > 0 ? { 'x-kubernetes-validations': [...o.rules] } : {}),
  };
}

export interface ListOptions {
  maxItems: number;
  minItems?: number;
  /** `set` for scalars listed once, or the key fields of a `map` list. */
  listType?: 'atomic' | 'set' | { mapKeys: readonly string[] };
  description?: string;
}

export function list(items: SchemaNode, o: ListOptions): SchemaNode {
  const listType =
    o.listType === undefined
      ? {}
      : typeof o.listType === 'string'
        ? { 'x-kubernetes-list-type': o.listType }
        : {
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': [...o.listType.mapKeys],
          };
  return {
    type: 'array',
    ...(o.description ? { description: o.description } : {}),
    ...(o.minItems !== undefined ? { minItems: o.minItems } : {}),
    maxItems: o.maxItems,
    items,
    ...listType,
  };
}

/** Attaches CEL rules to any node (scalars included). */
export function withRules(node: SchemaNode, rules: readonly ValidationRule[]): SchemaNode {
  const existing: unknown = node['x-kubernetes-validations'];
  return {
    ...node,
    'x-kubernetes-validations': [...(Array.isArray(existing) ? existing : []), ...rules],
  };
}

/** A rule that an optional field, once set or unset at creation, stays so and keeps its value. */
export function fixedAtCreation(field: string, message: string): ValidationRule {
  return {
    rule: `has(self.${field}) == has(oldSelf.${field}) && (!has(self.${field}) || self.${field} == oldSelf.${field})`,
    message,
  };
}

/** DNS-1123 subdomain (object names such as ServiceAccounts, Secrets, StorageClasses). */
export const DNS_SUBDOMAIN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';

/** A `metav1.Condition`, as upstream's CRDs declare it. */
export function conditionSchema(): SchemaNode {
  return obj(
    {
      type: str({
        maxLength: 316,
        pattern:
          '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$',
      }),
      status: enumOf(['True', 'False', 'Unknown']),
      reason: str({
        maxLength: 1024,
        minLength: 1,
        pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$',
      }),
      message: str({ maxLength: 32768 }),
      lastTransitionTime: str({ maxLength: 64, format: 'date-time' }),
      observedGeneration: int({ minimum: 0, format: 'int64' }),
    },
    { required: ['type', 'status', 'reason', 'message', 'lastTransitionTime'] },
  );
}
