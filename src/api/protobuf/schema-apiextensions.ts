/**
 * Protobuf schema tables: apiextensions.k8s.io/v1 CustomResourceDefinition messages (the
 * schema itself, JSONSchemaProps, is in `schema-jsonschema.ts`).
 *
 * Each row is `[field number, JSON name, type, flags]` (see {@link FieldRow}); rows are in Go
 * struct order, which is the order upstream JSON emits. Taken from the Go types of
 * k8s.io/apiextensions-apiserver v0.33 (Kubernetes 1.33), `pkg/apis/apiextensions/v1/
 * types.go` and `generated.proto`.
 *
 * @module
 */
import type { MessageTables } from './schema.js';

/** Tables for apiextensions.k8s.io/v1 CustomResourceDefinition messages. */
export const apiextensionsTables: MessageTables = {
  /** k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition */
  'apiextensions.CustomResourceDefinition': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'apiextensions.CustomResourceDefinitionSpec'],
    [3, 'status', 'apiextensions.CustomResourceDefinitionStatus', 'o'],
  ],
  'apiextensions.CustomResourceDefinitionSpec': [
    [1, 'group', 'string'],
    [3, 'names', 'apiextensions.CustomResourceDefinitionNames'],
    [4, 'scope', 'string'],
    [7, 'versions', 'apiextensions.CustomResourceDefinitionVersion', 'r'],
    [9, 'conversion', 'apiextensions.CustomResourceConversion', 'op'],
    [10, 'preserveUnknownFields', 'bool', 'o'],
  ],
  'apiextensions.CustomResourceConversion': [
    [1, 'strategy', 'string'],
    [2, 'webhook', 'apiextensions.WebhookConversion', 'op'],
  ],
  'apiextensions.WebhookConversion': [
    [2, 'clientConfig', 'apiextensions.WebhookClientConfig', 'op'],
    [3, 'conversionReviewVersions', 'string', 'r'],
  ],
  'apiextensions.WebhookClientConfig': [
    [3, 'url', 'string', 'op'],
    [1, 'service', 'apiextensions.ServiceReference', 'op'],
    [2, 'caBundle', 'bytes', 'o'],
  ],
  'apiextensions.ServiceReference': [
    [1, 'namespace', 'string'],
    [2, 'name', 'string'],
    [3, 'path', 'string', 'op'],
    [4, 'port', 'int32', 'op'],
  ],
  'apiextensions.CustomResourceDefinitionVersion': [
    [1, 'name', 'string'],
    [2, 'served', 'bool'],
    [3, 'storage', 'bool'],
    [7, 'deprecated', 'bool', 'o'],
    [8, 'deprecationWarning', 'string', 'op'],
    [4, 'schema', 'apiextensions.CustomResourceValidation', 'op'],
    [5, 'subresources', 'apiextensions.CustomResourceSubresources', 'op'],
    [6, 'additionalPrinterColumns', 'apiextensions.CustomResourceColumnDefinition', 'or'],
    [9, 'selectableFields', 'apiextensions.SelectableField', 'or'],
  ],
  'apiextensions.SelectableField': [[1, 'jsonPath', 'string']],
  'apiextensions.CustomResourceColumnDefinition': [
    [1, 'name', 'string'],
    [2, 'type', 'string'],
    [3, 'format', 'string', 'o'],
    [4, 'description', 'string', 'o'],
    [5, 'priority', 'int32', 'o'],
    [6, 'jsonPath', 'string'],
  ],
  'apiextensions.CustomResourceDefinitionNames': [
    [1, 'plural', 'string'],
    [2, 'singular', 'string', 'o'],
    [3, 'shortNames', 'string', 'or'],
    [4, 'kind', 'string'],
    [5, 'listKind', 'string', 'o'],
    [6, 'categories', 'string', 'or'],
  ],
  'apiextensions.CustomResourceDefinitionCondition': [
    [1, 'type', 'string'],
    [2, 'status', 'string'],
    [3, 'lastTransitionTime', 'Time', 'o'],
    [4, 'reason', 'string', 'o'],
    [5, 'message', 'string', 'o'],
  ],
  'apiextensions.CustomResourceDefinitionStatus': [
    [1, 'conditions', 'apiextensions.CustomResourceDefinitionCondition', 'r'],
    [2, 'acceptedNames', 'apiextensions.CustomResourceDefinitionNames'],
    [3, 'storedVersions', 'string', 'r'],
  ],
  'apiextensions.CustomResourceValidation': [
    [1, 'openAPIV3Schema', 'apiextensions.JSONSchemaProps', 'op'],
  ],
  'apiextensions.CustomResourceSubresources': [
    [1, 'status', 'apiextensions.CustomResourceSubresourceStatus', 'op'],
    [2, 'scale', 'apiextensions.CustomResourceSubresourceScale', 'op'],
  ],
  'apiextensions.CustomResourceSubresourceStatus': [],
  'apiextensions.CustomResourceSubresourceScale': [
    [1, 'specReplicasPath', 'string'],
    [2, 'statusReplicasPath', 'string'],
    [3, 'labelSelectorPath', 'string', 'op'],
  ],
};
