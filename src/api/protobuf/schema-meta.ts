/**
 * Protobuf schema tables: meta/v1 and autoscaling/v1 messages.
 *
 * Each row is `[field number, JSON name, type, flags]` (see {@link FieldRow}); rows are in Go
 * struct order, which is the order upstream JSON emits. Taken from the Go types of
 * k8s.io/api v0.33 (kubectl 1.33): numbers from the `protobuf` tags, names and `omitempty`
 * from the `json` tags, `p` where the Go field is a pointer.
 *
 * @module
 */
import type { MessageTables } from './schema.js';

/** Tables for meta/v1 and autoscaling/v1 messages. */
export const metaTables: MessageTables = {
  /** k8s.io.api.autoscaling.v1.Scale */
  'autoscaling.Scale': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'autoscaling.ScaleSpec', 'o'],
    [3, 'status', 'autoscaling.ScaleStatus', 'o'],
  ],
  /** k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions */
  'meta.DeleteOptions': [
    [1, 'gracePeriodSeconds', 'int64', 'op'],
    [2, 'preconditions', 'meta.Preconditions', 'op'],
    [3, 'orphanDependents', 'bool', 'op'],
    [4, 'propagationPolicy', 'string', 'op'],
    [5, 'dryRun', 'string', 'or'],
    [6, 'ignoreStoreReadErrorWithClusterBreakingPotential', 'bool', 'op'],
  ],
  /** k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta */
  'meta.ObjectMeta': [
    [1, 'name', 'string', 'o'],
    [2, 'generateName', 'string', 'o'],
    [3, 'namespace', 'string', 'o'],
    [4, 'selfLink', 'string', 'o'],
    [5, 'uid', 'string', 'o'],
    [6, 'resourceVersion', 'string', 'o'],
    [7, 'generation', 'int64', 'o'],
    [8, 'creationTimestamp', 'Time', 'o'],
    [9, 'deletionTimestamp', 'Time', 'op'],
    [10, 'deletionGracePeriodSeconds', 'int64', 'op'],
    [11, 'labels', 'string', 'om'],
    [12, 'annotations', 'string', 'om'],
    [13, 'ownerReferences', 'meta.OwnerReference', 'or'],
    [14, 'finalizers', 'string', 'or'],
    [17, 'managedFields', 'meta.ManagedFieldsEntry', 'or'],
  ],
  /** k8s.io.api.autoscaling.v1.ScaleSpec */
  'autoscaling.ScaleSpec': [[1, 'replicas', 'int32', 'o']],
  /** k8s.io.api.autoscaling.v1.ScaleStatus */
  'autoscaling.ScaleStatus': [
    [1, 'replicas', 'int32'],
    [2, 'selector', 'string', 'o'],
  ],
  /** k8s.io.apimachinery.pkg.apis.meta.v1.Preconditions */
  'meta.Preconditions': [
    [1, 'uid', 'string', 'op'],
    [2, 'resourceVersion', 'string', 'op'],
  ],
  /** k8s.io.apimachinery.pkg.apis.meta.v1.OwnerReference */
  'meta.OwnerReference': [
    [5, 'apiVersion', 'string'],
    [1, 'kind', 'string'],
    [3, 'name', 'string'],
    [4, 'uid', 'string'],
    [6, 'controller', 'bool', 'op'],
    [7, 'blockOwnerDeletion', 'bool', 'op'],
  ],
  /** k8s.io.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry */
  'meta.ManagedFieldsEntry': [
    [1, 'manager', 'string', 'o'],
    [2, 'operation', 'string', 'o'],
    [3, 'apiVersion', 'string', 'o'],
    [4, 'time', 'Time', 'op'],
    [6, 'fieldsType', 'string', 'o'],
    [7, 'fieldsV1', 'FieldsV1', 'op'],
    [8, 'subresource', 'string', 'o'],
  ],
  /** k8s.io.apimachinery.pkg.apis.meta.v1.Condition */
  'meta.Condition': [
    [1, 'type', 'string'],
    [2, 'status', 'string'],
    [3, 'observedGeneration', 'int64', 'o'],
    [4, 'lastTransitionTime', 'Time'],
    [5, 'reason', 'string'],
    [6, 'message', 'string'],
  ],
  /** k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector */
  'meta.LabelSelector': [
    [1, 'matchLabels', 'string', 'om'],
    [2, 'matchExpressions', 'meta.LabelSelectorRequirement', 'or'],
  ],
  /** k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement */
  'meta.LabelSelectorRequirement': [
    [1, 'key', 'string'],
    [2, 'operator', 'string'],
    [3, 'values', 'string', 'or'],
  ],
};
