/**
 * core/v1 PersistentVolumeClaims: `volumeMode: Filesystem`, phase `Pending` on create,
 * `ValidatePersistentVolumeClaimSpec`, and the update rule that the spec is frozen except for
 * a bound claim's storage request (which may grow) and, once, `volumeName`.
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors, path } from '../field-error.js';
import { validateLabelSelectorObject } from '../labels/selector.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { isDNS1123Subdomain } from '../validation/dns.js';
import { IS_NOT_POSITIVE_ERROR_MSG } from '../validation/messages.js';
import {
  compareQuantities,
  formatQuantity,
  parseQuantity,
  type Quantity,
} from '../validation/quantity.js';
import { immutable, readSelector, SPEC, semanticEqual, withBuiltinMetadata } from './common.js';
import { ensureObj, get, getObj, getStr, type JsonObject, setDefaultStr, specOf } from './json.js';
import { defaultPVCSpec } from './pod-defaults.js';
import { specDiff } from './pod-update.js';
import { quantityAt, validateQuantityValue } from './resources-validation.js';

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const VOLUME_MODES = ['Block', 'Filesystem'];
const BETA_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

/** Access modes of PVs and PVCs: required, supported, `ReadWriteOncePod` alone. */
export function validateAccessModes(
  modes: unknown,
  fieldPath: FieldPath,
  requiredDetail: string,
): FieldError[] {
  const list = Array.isArray(modes) ? modes : [];
  if (list.length === 0) return [fieldErrors.required(fieldPath, requiredDetail)];
  const errs: FieldError[] = [];
  let rwop = false;
  let other = false;
  for (const mode of list) {
    if (typeof mode !== 'string' || !ACCESS_MODES.includes(mode)) {
      errs.push(fieldErrors.notSupported(fieldPath, mode, ACCESS_MODES));
    } else if (mode === 'ReadWriteOncePod') {
      rwop = true;
    } else {
      other = true;
    }
  }
  if (rwop && other)
    errs.push(
      fieldErrors.forbidden(fieldPath, 'may not use ReadWriteOncePod with other access modes'),
    );
  return errs;
}

/** Upstream `ValidatePositiveQuantityValue` plus the resource rules. */
export function validatePositiveQuantity(
  name: string,
  v: unknown,
  fieldPath: FieldPath,
): FieldError[] {
  const { q, errs } = quantityAt(v, fieldPath);
  if (q === undefined) return errs;
  if (q.nanos <= 0n)
    return [fieldErrors.invalid(fieldPath, formatQuantity(q), IS_NOT_POSITIVE_ERROR_MSG)];
  return validateQuantityValue(name, q, fieldPath);
}

/** `volumeMode`, when set, is `Block` or `Filesystem`. */
export function validateVolumeMode(spec: JsonObject, fieldPath: FieldPath): FieldError[] {
  const mode = spec.volumeMode;
  if (mode === undefined || mode === null) return [];
  return typeof mode === 'string' && VOLUME_MODES.includes(mode)
    ? []
    : [fieldErrors.notSupported(fieldPath, mode, VOLUME_MODES)];
}

/** A storage class name, when set, is a DNS subdomain. */
export function validateClassName(value: unknown, fieldPath: FieldPath): FieldError[] {
  if (typeof value !== 'string' || value === '') return [];
  return isDNS1123Subdomain(value).map((msg) => fieldErrors.invalid(fieldPath, value, msg));
}

/** Upstream `ValidatePersistentVolumeClaimSpec` (data sources checked for their required fields). */
export function validatePVCSpec(spec: JsonObject, fieldPath: FieldPath): FieldError[] {
  const errs = validateAccessModes(
    spec.accessModes,
    fieldPath.child('accessModes'),
    'at least 1 access mode is required',
  );
  if (spec.selector !== undefined && spec.selector !== null) {
    const { sel, errs: shape } = readSelector(spec.selector, fieldPath.child('selector'));
    errs.push(
      ...shape,
      ...(sel === undefined ? [] : validateLabelSelectorObject(sel, fieldPath.child('selector'))),
    );
  }
  const storagePath = fieldPath.child('resources').key('storage');
  const storage = get(getObj(getObj(spec, 'resources'), 'requests'), 'storage');
  if (storage === undefined || storage === null) errs.push(fieldErrors.required(storagePath, ''));
  else errs.push(...validatePositiveQuantity('storage', storage, storagePath));
  errs.push(...validateClassName(spec.storageClassName, fieldPath.child('storageClassName')));
  errs.push(...validateVolumeMode(spec, fieldPath.child('volumeMode')));
  for (const key of ['dataSource', 'dataSourceRef']) {
    const ds = getObj(spec, key);
    if (ds === undefined) continue;
    if ((getStr(ds, 'name') ?? '') === '')
      errs.push(fieldErrors.required(fieldPath.child(key, 'name'), ''));
    if ((getStr(ds, 'kind') ?? '') === '')
      errs.push(fieldErrors.required(fieldPath.child(key, 'kind'), ''));
  }
  return errs;
}

function storageOf(spec: JsonObject | undefined): Quantity | undefined {
  const v = get(getObj(getObj(spec, 'resources'), 'requests'), 'storage');
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const r = parseQuantity(v);
  return r.ok ? r.quantity : undefined;
}

/** The spec with what a legitimate update may change reset to the old values. */
function comparableSpecs(obj: KubeObject, old: KubeObject): { next: JsonObject; prev: JsonObject } {
  const next: JsonObject = structuredClone(getObj(obj, 'spec') ?? {});
  const prev: JsonObject = structuredClone(getObj(old, 'spec') ?? {});
  if ((getStr(prev, 'volumeName') ?? '') === '') prev.volumeName = next.volumeName;
  const oldAnnotation = old.metadata?.annotations?.[BETA_CLASS_ANNOTATION];
  const className = next.storageClassName;
  // Setting a class on a claim that had none (or only the beta annotation with that value).
  if (
    (prev.storageClassName === undefined || prev.storageClassName === null) &&
    typeof className === 'string'
  ) {
    if (oldAnnotation === undefined || oldAnnotation === className)
      prev.storageClassName = className;
  }
  const bound = getStr(getObj(obj, 'status'), 'phase') === 'Bound';
  const requests = getObj(getObj(next, 'resources'), 'requests');
  const oldStorage = get(getObj(getObj(prev, 'resources'), 'requests'), 'storage');
  if (bound && requests !== undefined) requests.storage = oldStorage;
  if (bound) next.volumeAttributesClassName = prev.volumeAttributesClassName;
  return { next, prev };
}

/** Upstream `ValidatePersistentVolumeClaimUpdate`. */
function validateUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const { next, prev } = comparableSpecs(obj, old);
  if (!semanticEqual(next, prev)) {
    errs.push(
      fieldErrors.forbidden(
        SPEC,
        `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n${specDiff(prev, next)}`,
      ),
    );
  }
  const newSize = storageOf(getObj(obj, 'spec'));
  const oldSize = storageOf(getObj(old, 'spec'));
  if (newSize !== undefined && oldSize !== undefined && compareQuantities(newSize, oldSize) < 0) {
    // RecoverVolumeExpansionFailure (on since 1.32): shrinking is allowed down to above status.capacity.
    const capacity = get(getObj(getObj(old, 'status'), 'capacity'), 'storage');
    const parsed = typeof capacity === 'string' ? parseQuantity(capacity) : undefined;
    const statusSize =
      parsed?.ok === true ? parsed.quantity : { nanos: 0n, format: 'DecimalSI' as const };
    if (compareQuantities(newSize, statusSize) <= 0) {
      errs.push(
        fieldErrors.forbidden(
          SPEC.child('resources', 'requests', 'storage'),
          'field can not be less than status.capacity',
        ),
      );
    }
  }
  // Upstream's path for this one is really `volumeMode`, without `spec`.
  errs.push(
    ...immutable(
      getObj(obj, 'spec')?.volumeMode,
      getObj(old, 'spec')?.volumeMode,
      path('volumeMode'),
    ),
  );
  return errs;
}

/** core/v1 `persistentvolumeclaims` (`pvc`, `/status`). */
export const persistentVolumeClaimResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'PersistentVolumeClaim',
  listKind: 'PersistentVolumeClaimList',
  plural: 'persistentvolumeclaims',
  singular: 'persistentvolumeclaim',
  namespaced: true,
  shortNames: ['pvc'],
  nameValidation: 'dns-subdomain',
  generation: 'none',
  statusSubresource: true,
  strategy: withBuiltinMetadata({
    defaults(obj) {
      defaultPVCSpec(specOf(obj));
      const status = ensureObj(obj, 'status');
      if (status !== undefined) setDefaultStr(status, 'phase', 'Pending');
    },
    prepareForCreate(obj) {
      obj.status = { phase: 'Pending' };
    },
    validate: (obj) => validatePVCSpec(getObj(obj, 'spec') ?? {}, SPEC),
    validateUpdate,
  }),
};
