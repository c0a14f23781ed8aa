/**
 * How upstream prints the bad values of the access reviews' validation errors, which it passes
 * as Go values: a `*NonResourceAttributes` of the internal API prints with `%#v`
 * (`authorization.NonResourceAttributes{Path:"/x", Verb:"get"}`), an `ObjectMeta` with its
 * generated `String()` (`&ObjectMeta{Name:x,GenerateName:,…,}`), a nil pointer as `"null"`
 * (`field.Error.ErrorBody` of apimachinery 0.33 turns nil into the string "null").
 *
 * `managedFields` entries print as upstream's generated text only in outline (manager,
 * operation, apiVersion, time, fieldsType, subresource; the fieldsV1 bytes are left out).
 *
 * @module
 */
import { GoSyntaxValue, goQuote } from '../../../api/cel/go-syntax.js';
import type { NonResourceAttributes } from '../../../api/model/index.js';
import type { ObjectMeta } from '../../../api/object.js';

/** The bad value upstream prints for a nil pointer (`Invalid value: "null"`). */
export const GO_NIL = 'null';

export function nonResourceAttributesValue(a: NonResourceAttributes): GoSyntaxValue {
  return new GoSyntaxValue(
    `authorization.NonResourceAttributes{Path:${goQuote(a.path ?? '')}, Verb:${goQuote(a.verb ?? '')}}`,
  );
}

export function objectMetaValue(m: ObjectMeta): GoSyntaxValue {
  return new GoSyntaxValue(objectMetaString(m));
}

/** Go's `time.Time.String()` of an RFC 3339 UTC timestamp (`0001-01-01 00:00:00 +0000 UTC` when unset). */
function goTime(t: string | null | undefined): string {
  if (t === undefined || t === null || t === '') return '0001-01-01 00:00:00 +0000 UTC';
  const d = new Date(t);
  if (Number.isNaN(d.getTime())) return t;
  const iso = d.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} +0000 UTC`;
}

function goMap(m: Readonly<Record<string, string>> | null | undefined): string {
  const keys = Object.keys(m ?? {}).sort();
  return `map[string]string{${keys.map((k) => `${k}: ${m?.[k] ?? ''},`).join('')}}`;
}

function goPtr(v: boolean | number | null | undefined): string {
  return v === undefined || v === null ? 'nil' : `*${String(v)}`;
}

/** The gogo-protobuf `String()` of `*metav1.ObjectMeta`. */
export function objectMetaString(m: ObjectMeta): string {
  const owners = (m.ownerReferences ?? [])
    .map(
      (o) =>
        `OwnerReference{Kind:${o.kind},Name:${o.name},UID:${o.uid},APIVersion:${o.apiVersion},` +
        `Controller:${goPtr(o.controller)},BlockOwnerDeletion:${goPtr(o.blockOwnerDeletion)},},`,
    )
    .join('');
  const managed = (m.managedFields ?? [])
    .map(
      (f) =>
        `ManagedFieldsEntry{Manager:${f.manager ?? ''},Operation:${f.operation ?? ''},` +
        `APIVersion:${f.apiVersion ?? ''},Time:${f.time ? goTime(f.time) : '<nil>'},` +
        `FieldsType:${f.fieldsType ?? ''},FieldsV1:nil,Subresource:${f.subresource ?? ''},},`,
    )
    .join('');
  return [
    '&ObjectMeta{',
    `Name:${m.name ?? ''},`,
    `GenerateName:${m.generateName ?? ''},`,
    `Namespace:${m.namespace ?? ''},`,
    `SelfLink:${m.selfLink ?? ''},`,
    `UID:${m.uid ?? ''},`,
    `ResourceVersion:${m.resourceVersion ?? ''},`,
    `Generation:${m.generation ?? 0},`,
    `CreationTimestamp:${goTime(m.creationTimestamp)},`,
    `DeletionTimestamp:${m.deletionTimestamp ? goTime(m.deletionTimestamp) : '<nil>'},`,
    `DeletionGracePeriodSeconds:${goPtr(m.deletionGracePeriodSeconds)},`,
    `Labels:${goMap(m.labels)},`,
    `Annotations:${goMap(m.annotations)},`,
    `OwnerReferences:[]OwnerReference{${owners}},`,
    `Finalizers:[${(m.finalizers ?? []).join(' ')}],`,
    `ManagedFields:[]ManagedFieldsEntry{${managed}},`,
    '}',
  ].join('');
}

/**
 * Whether `m` is the zero ObjectMeta once `managedFields` (and, for a LocalSubjectAccessReview,
 * `namespace`) are set aside; empty lists and maps count as unset (`Semantic.DeepEqual`).
 */
export function isEmptyObjectMeta(m: ObjectMeta | undefined, ignoreNamespace: boolean): boolean {
  if (m === undefined) return true;
  for (const [k, v] of Object.entries(m)) {
    if (k === 'managedFields' || (ignoreNamespace && k === 'namespace')) continue;
    if (v === undefined || v === null || v === '' || v === 0) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) continue;
    return false;
  }
  return true;
}
