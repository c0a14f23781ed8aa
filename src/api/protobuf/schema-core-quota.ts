/**
 * Protobuf schema tables: core/v1 ResourceQuota, LimitRange and Binding (the body of
 * `pods/binding`) messages.
 *
 * Each row is `[field number, JSON name, type, flags]` (see {@link FieldRow}); rows are in Go
 * struct order, which is the order upstream JSON emits. Taken from the Go types of
 * k8s.io/api v0.33 (kubectl 1.33), `core/v1/types.go` and `generated.proto`: numbers from the
 * `protobuf` tags, names and `omitempty` from the `json` tags, `p` where the Go field is a
 * pointer. A `ResourceList` is `map<string, Quantity>`.
 *
 * @module
 */
import type { MessageTables } from './schema.js';

/** Tables for core/v1 ResourceQuota, LimitRange and Binding messages. */
export const coreQuotaTables: MessageTables = {
  /** k8s.io.api.core.v1.ResourceQuota */
  'core.ResourceQuota': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'core.ResourceQuotaSpec', 'o'],
    [3, 'status', 'core.ResourceQuotaStatus', 'o'],
  ],
  /** k8s.io.api.core.v1.ResourceQuotaSpec */
  'core.ResourceQuotaSpec': [
    [1, 'hard', 'Quantity', 'om'],
    [2, 'scopes', 'string', 'or'],
    [3, 'scopeSelector', 'core.ScopeSelector', 'op'],
  ],
  /** k8s.io.api.core.v1.ResourceQuotaStatus */
  'core.ResourceQuotaStatus': [
    [1, 'hard', 'Quantity', 'om'],
    [2, 'used', 'Quantity', 'om'],
  ],
  /** k8s.io.api.core.v1.ScopeSelector */
  'core.ScopeSelector': [[1, 'matchExpressions', 'core.ScopedResourceSelectorRequirement', 'or']],
  /** k8s.io.api.core.v1.ScopedResourceSelectorRequirement */
  'core.ScopedResourceSelectorRequirement': [
    [1, 'scopeName', 'string'],
    [2, 'operator', 'string'],
    [3, 'values', 'string', 'or'],
  ],
  /** k8s.io.api.core.v1.LimitRange */
  'core.LimitRange': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'core.LimitRangeSpec', 'o'],
  ],
  /** k8s.io.api.core.v1.LimitRangeSpec */
  'core.LimitRangeSpec': [[1, 'limits', 'core.LimitRangeItem', 'r']],
  /** k8s.io.api.core.v1.LimitRangeItem */
  'core.LimitRangeItem': [
    [1, 'type', 'string'],
    [2, 'max', 'Quantity', 'om'],
    [3, 'min', 'Quantity', 'om'],
    [4, 'default', 'Quantity', 'om'],
    [5, 'defaultRequest', 'Quantity', 'om'],
    [6, 'maxLimitRequestRatio', 'Quantity', 'om'],
  ],
  /** k8s.io.api.core.v1.Binding */
  'core.Binding': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'target', 'core.ObjectReference'],
  ],
};
