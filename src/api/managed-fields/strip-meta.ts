/**
 * Fields no manager ever owns (upstream `stripmeta.go`): the type meta, the `metadata` struct
 * itself, and the metadata the server sets or that identifies the object. Only these exact
 * members are removed; `metadata.labels.x` stays owned. `deletionTimestamp` is not in
 * upstream's list, so it is not here either.
 *
 * @module
 */
import type { FieldSet } from './field-set.js';
import { fieldSetOfPaths } from './field-set-builder.js';
import { fieldElement } from './path-element.js';

const META_FIELDS = [
  'name',
  'namespace',
  'creationTimestamp',
  'selfLink',
  'uid',
  'clusterName',
  'generation',
  'managedFields',
  'resourceVersion',
];

export const STRIP_SET: FieldSet = fieldSetOfPaths([
  [fieldElement('apiVersion')],
  [fieldElement('kind')],
  [fieldElement('metadata')],
  ...META_FIELDS.map((f) => [fieldElement('metadata'), fieldElement(f)]),
]);

export function stripMeta(set: FieldSet): FieldSet {
  return set.difference(STRIP_SET);
}
