/**
 * One schema language for every kind: the OpenAPI v3 subset Kubernetes publishes
 * (`/openapi/v3`) and CustomResourceDefinitions declare (`openAPIV3Schema`, upstream
 * `JSONSchemaProps`). Built-in kinds are described by generated component schemas that refer to
 * each other by `$ref`; a CRD's schema is one self-contained tree. Strategic merge patch,
 * server-side apply, strict field validation, OpenAPI documents and `kubectl explain` all read
 * this one shape, so a list's merge key or a field's description lives in exactly one place.
 *
 * @module
 */

export type SchemaType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** One `x-kubernetes-validations` rule (CEL), as in upstream `ValidationRule`. */
export interface ValidationRule {
  readonly rule: string;
  readonly message?: string;
  readonly messageExpression?: string;
  readonly reason?:
    | 'FieldValueInvalid'
    | 'FieldValueForbidden'
    | 'FieldValueRequired'
    | 'FieldValueDuplicate';
  readonly fieldPath?: string;
  readonly optionalOldSelf?: boolean;
}

export interface Schema {
  readonly type?: SchemaType;
  readonly format?: string;
  readonly description?: string;
  readonly title?: string;
  readonly properties?: Readonly<Record<string, Schema>>;
  /** A map's value schema (`true`: any value). Absent on an object with `properties`: no other keys. */
  readonly additionalProperties?: Schema | boolean;
  readonly items?: Schema;
  readonly required?: readonly string[];
  readonly enum?: readonly unknown[];
  readonly default?: unknown;
  readonly nullable?: boolean;
  /** `#/components/schemas/<name>` (built-in kinds only). */
  readonly $ref?: string;
  /** Upstream wraps a `$ref` that carries a description or default as `allOf: [{$ref}]`. */
  readonly allOf?: readonly Schema[];
  readonly oneOf?: readonly Schema[];
  readonly anyOf?: readonly Schema[];
  readonly not?: Schema;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: boolean;
  readonly exclusiveMaximum?: boolean;
  readonly multipleOf?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems?: boolean;
  readonly minProperties?: number;
  readonly maxProperties?: number;
  readonly 'x-kubernetes-group-version-kind'?: readonly GroupVersionKind[];
  /** Strategic merge patch: the key that identifies a list element (`name`, `containerPort`). */
  readonly 'x-kubernetes-patch-merge-key'?: string;
  /** Strategic merge patch: `merge`, `retainKeys` or `merge,retainKeys`; absent: replace. */
  readonly 'x-kubernetes-patch-strategy'?: string;
  /** Server-side apply: how a list is owned and merged. Absent means `atomic`. */
  readonly 'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  readonly 'x-kubernetes-list-map-keys'?: readonly string[];
  /** Server-side apply: `atomic` maps and structs are owned as a whole. */
  readonly 'x-kubernetes-map-type'?: 'atomic' | 'granular';
  readonly 'x-kubernetes-int-or-string'?: boolean;
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
  readonly 'x-kubernetes-embedded-resource'?: boolean;
  readonly 'x-kubernetes-validations'?: readonly ValidationRule[];
}

/** Component schemas by name (`io.k8s.api.core.v1.Pod`), as in an OpenAPI document. */
export type SchemaComponents = Readonly<Record<string, Schema>>;

export const REF_PREFIX = '#/components/schemas/';
