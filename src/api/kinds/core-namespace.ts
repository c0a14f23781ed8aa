/**
 * core/v1 Namespaces: DNS-label names, the `kubernetes.io/metadata.name` label, phase `Active`
 * and the `kubernetes` finalizer on create, and the `status.phase` field selector.
 *
 * Deletion: a Namespace is held by its `spec.finalizers` (the namespace controller removes
 * `kubernetes` once the namespace is empty) and shows phase `Terminating` meanwhile; those
 * finalizers change only through `/finalize`, so updates of the main resource keep them.
 *
 * @module
 */
import { type FieldError, fieldErrors } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { isQualifiedName } from '../validation/label-names.js';
import { STANDARD_FINALIZERS } from '../validation/metadata-fields.js';
import { SPEC, withBuiltinMetadata } from './common.js';
import { ensureObj, getArr, getObj, getStr, setDefaultStr } from './json.js';

/** The label every namespace carries with its own name (upstream `LabelMetadataName`). */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

function defaults(obj: KubeObject): void {
  const meta = obj.metadata;
  const name = meta?.name;
  // Upstream cannot label a namespace created with generateName before its name exists either.
  if (meta !== undefined && typeof name === 'string' && name !== '') {
    if (meta.labels === undefined || meta.labels === null) meta.labels = {};
    meta.labels[NAMESPACE_NAME_LABEL] = name;
  }
  const status = ensureObj(obj, 'status');
  if (status !== undefined) setDefaultStr(status, 'phase', 'Active');
}

function prepareForCreate(obj: KubeObject): void {
  obj.status = { phase: 'Active' };
  const spec = ensureObj(obj, 'spec');
  if (spec === undefined) return;
  const finalizers = getArr(spec, 'finalizers') ?? [];
  if (!finalizers.includes('kubernetes')) finalizers.push('kubernetes');
  spec.finalizers = finalizers;
}

function specFinalizers(obj: KubeObject): unknown[] | undefined {
  return getArr(getObj(obj, 'spec'), 'finalizers');
}

/** Upstream `PrepareForUpdate`: `spec.finalizers` change only through `/finalize`. */
function prepareForUpdate(obj: KubeObject, old: KubeObject): void {
  const finalizers = specFinalizers(old);
  const spec = { ...(getObj(obj, 'spec') ?? {}) };
  if (finalizers === undefined) delete spec.finalizers;
  else spec.finalizers = finalizers;
  obj.spec = spec;
}

/** Upstream `ValidateNamespace`: `spec.finalizers` hold standard or qualified names. */
function validate(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const p = SPEC.child('finalizers');
  for (const f of getArr(getObj(obj, 'spec'), 'finalizers') ?? []) {
    const name = typeof f === 'string' ? f : '';
    for (const msg of isQualifiedName(name)) errs.push(fieldErrors.invalid(p, name, msg));
    if (!name.includes('/') && !STANDARD_FINALIZERS.includes(name)) {
      errs.push(
        fieldErrors.invalid(
          p,
          name,
          'name is neither a standard finalizer name nor is it fully qualified',
        ),
      );
    }
  }
  return errs;
}

/** core/v1 `namespaces` (`ns`, cluster-scoped, `/status`). */
export const namespaceResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'Namespace',
  listKind: 'NamespaceList',
  plural: 'namespaces',
  singular: 'namespace',
  namespaced: false,
  shortNames: ['ns'],
  nameValidation: 'dns-label',
  generation: 'none',
  statusSubresource: true,
  strategy: withBuiltinMetadata({
    defaults,
    prepareForCreate,
    prepareForUpdate,
    holdsDeletion: (obj) => (specFinalizers(obj) ?? []).length > 0,
    prepareForDeletion(obj) {
      obj.status = { ...getObj(obj, 'status'), phase: 'Terminating' };
    },
    validate,
    selectableFields(obj) {
      return { 'status.phase': getStr(getObj(obj, 'status'), 'phase') ?? '' };
    },
  }),
};
