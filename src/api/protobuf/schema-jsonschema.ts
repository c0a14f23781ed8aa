/**
 * Protobuf schema tables: apiextensions.k8s.io/v1 JSONSchemaProps, the schema of a
 * CustomResourceDefinition version, and the messages it uses.
 *
 * Each row is `[field number, JSON name, type, flags]` (see {@link FieldRow}); rows are in Go
 * struct order, which is the order upstream JSON emits. Taken from the Go types of
 * k8s.io/apiextensions-apiserver v0.33, `pkg/apis/apiextensions/v1/types_jsonschema.go` and
 * `generated.proto`. The three `JSONSchemaPropsOr…` unions have no JSON tags (their Go types
 * write JSON of their own): their rows name the Go fields, and `json-forms.ts` gives the
 * JSON they marshal to.
 *
 * @module
 */
import type { MessageTables } from './schema.js';

/** Tables for apiextensions.k8s.io/v1 JSONSchemaProps and its parts. */
export const jsonSchemaTables: MessageTables = {
  /** k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps */
  'apiextensions.JSONSchemaProps': [
    [1, 'id', 'string', 'o'],
    [2, '$schema', 'string', 'o'],
    [3, '$ref', 'string', 'op'],
    [4, 'description', 'string', 'o'],
    [5, 'type', 'string', 'o'],
    [6, 'format', 'string', 'o'],
    [7, 'title', 'string', 'o'],
    [8, 'default', 'JSON', 'op'],
    [9, 'maximum', 'double', 'op'],
    [10, 'exclusiveMaximum', 'bool', 'o'],
    [11, 'minimum', 'double', 'op'],
    [12, 'exclusiveMinimum', 'bool', 'o'],
    [13, 'maxLength', 'int64', 'op'],
    [14, 'minLength', 'int64', 'op'],
    [15, 'pattern', 'string', 'o'],
    [16, 'maxItems', 'int64', 'op'],
    [17, 'minItems', 'int64', 'op'],
    [18, 'uniqueItems', 'bool', 'o'],
    [19, 'multipleOf', 'double', 'op'],
    [20, 'enum', 'JSON', 'or'],
    [21, 'maxProperties', 'int64', 'op'],
    [22, 'minProperties', 'int64', 'op'],
    [23, 'required', 'string', 'or'],
    [24, 'items', 'apiextensions.JSONSchemaPropsOrArray', 'op'],
    [25, 'allOf', 'apiextensions.JSONSchemaProps', 'or'],
    [26, 'oneOf', 'apiextensions.JSONSchemaProps', 'or'],
    [27, 'anyOf', 'apiextensions.JSONSchemaProps', 'or'],
    [28, 'not', 'apiextensions.JSONSchemaProps', 'op'],
    [29, 'properties', 'apiextensions.JSONSchemaProps', 'om'],
    [30, 'additionalProperties', 'apiextensions.JSONSchemaPropsOrBool', 'op'],
    [31, 'patternProperties', 'apiextensions.JSONSchemaProps', 'om'],
    [32, 'dependencies', 'apiextensions.JSONSchemaPropsOrStringArray', 'om'],
    [33, 'additionalItems', 'apiextensions.JSONSchemaPropsOrBool', 'op'],
    [34, 'definitions', 'apiextensions.JSONSchemaProps', 'om'],
    [35, 'externalDocs', 'apiextensions.ExternalDocumentation', 'op'],
    [36, 'example', 'JSON', 'op'],
    [37, 'nullable', 'bool', 'o'],
    [38, 'x-kubernetes-preserve-unknown-fields', 'bool', 'op'],
    [39, 'x-kubernetes-embedded-resource', 'bool', 'o'],
    [40, 'x-kubernetes-int-or-string', 'bool', 'o'],
    [41, 'x-kubernetes-list-map-keys', 'string', 'or'],
    [42, 'x-kubernetes-list-type', 'string', 'op'],
    [43, 'x-kubernetes-map-type', 'string', 'op'],
    [44, 'x-kubernetes-validations', 'apiextensions.ValidationRule', 'or'],
  ],
  'apiextensions.ValidationRule': [
    [1, 'rule', 'string'],
    [2, 'message', 'string', 'o'],
    [3, 'messageExpression', 'string', 'o'],
    [4, 'reason', 'string', 'op'],
    [5, 'fieldPath', 'string', 'o'],
    [6, 'optionalOldSelf', 'bool', 'op'],
  ],
  'apiextensions.ExternalDocumentation': [
    [1, 'description', 'string', 'o'],
    [2, 'url', 'string', 'o'],
  ],
  /** `{Schema *JSONSchemaProps = 1; JSONSchemas []JSONSchemaProps = 2}` */
  'apiextensions.JSONSchemaPropsOrArray': [
    [1, 'schema', 'apiextensions.JSONSchemaProps', 'op'],
    [2, 'jSONSchemas', 'apiextensions.JSONSchemaProps', 'or'],
  ],
  /** `{Allows bool = 1; Schema *JSONSchemaProps = 2}` */
  'apiextensions.JSONSchemaPropsOrBool': [
    [1, 'allows', 'bool', 'o'],
    [2, 'schema', 'apiextensions.JSONSchemaProps', 'op'],
  ],
  /** `{Schema *JSONSchemaProps = 1; Property []string = 2}` */
  'apiextensions.JSONSchemaPropsOrStringArray': [
    [1, 'schema', 'apiextensions.JSONSchemaProps', 'op'],
    [2, 'property', 'string', 'or'],
  ],
};
