/**
 * Small kinds from other groups: storage.k8s.io/v1 StorageClasses and coordination.k8s.io/v1
 * Leases.
 *
 * @module
 */
import { type FieldError, fieldErrors, path } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { isQualifiedName } from '../validation/label-names.js';
import { byteLength } from '../validation/messages.js';
import { immutable, SPEC, semanticEqual, withBuiltinMetadata } from './common.js';
import { getNum, getObj, getStr, setDefault } from './json.js';

const RECLAIM_POLICIES = ['Delete', 'Retain'];
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];
const MAX_PARAMETERS = 512;
const MAX_PARAMETERS_SIZE = 256 * 1024;

/** Upstream `validateProvisioner`. */
function validateProvisioner(provisioner: string): FieldError[] {
  const p = path('provisioner');
  if (provisioner === '') return [fieldErrors.required(p, '')];
  const errs: FieldError[] = [];
  if (provisioner.length > 63) errs.push(fieldErrors.tooLong(p, 63));
  for (const msg of isQualifiedName(provisioner.toLowerCase()))
    errs.push(fieldErrors.invalid(p, provisioner, msg));
  return errs;
}

function validateParameters(obj: KubeObject): FieldError[] {
  const params = getObj(obj, 'parameters') ?? {};
  const p = path('parameters');
  const errs: FieldError[] = [];
  const entries = Object.entries(params);
  if (entries.length > MAX_PARAMETERS) {
    errs.push(fieldErrors.tooLong(p, MAX_PARAMETERS));
  }
  let total = 0;
  for (const [k, v] of entries) {
    if (k === '') errs.push(fieldErrors.invalid(p, k, 'field can not be empty.'));
    total += byteLength(k) + (typeof v === 'string' ? byteLength(v) : 0);
  }
  if (total > MAX_PARAMETERS_SIZE) errs.push(fieldErrors.tooLong(p, MAX_PARAMETERS_SIZE));
  return errs;
}

/** Upstream `ValidateStorageClass`. */
function validateStorageClass(obj: KubeObject): FieldError[] {
  const errs = [
    ...validateProvisioner(getStr(obj, 'provisioner') ?? ''),
    ...validateParameters(obj),
  ];
  const reclaim = getStr(obj, 'reclaimPolicy') ?? '';
  if (!RECLAIM_POLICIES.includes(reclaim))
    errs.push(fieldErrors.notSupported(path('reclaimPolicy'), reclaim, RECLAIM_POLICIES));
  const mode = obj.volumeBindingMode;
  if (mode === undefined || mode === null)
    errs.push(fieldErrors.required(path('volumeBindingMode'), ''));
  else if (typeof mode !== 'string' || !BINDING_MODES.includes(mode)) {
    errs.push(fieldErrors.notSupported(path('volumeBindingMode'), mode, BINDING_MODES));
  }
  return errs;
}

/** Upstream `ValidateStorageClassUpdate`. */
function validateStorageClassUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (!semanticEqual(obj.parameters, old.parameters))
    errs.push(fieldErrors.forbidden(path('parameters'), 'updates to parameters are forbidden.'));
  if (obj.provisioner !== old.provisioner)
    errs.push(fieldErrors.forbidden(path('provisioner'), 'updates to provisioner are forbidden.'));
  if (obj.reclaimPolicy !== old.reclaimPolicy) {
    errs.push(
      fieldErrors.forbidden(path('reclaimPolicy'), 'updates to reclaimPolicy are forbidden.'),
    );
  }
  errs.push(...immutable(obj.volumeBindingMode, old.volumeBindingMode, path('volumeBindingMode')));
  return errs;
}

/** storage.k8s.io/v1 `storageclasses` (`sc`, cluster-scoped). */
export const storageClassResource: ResourceDefinition = {
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'StorageClass',
  listKind: 'StorageClassList',
  plural: 'storageclasses',
  singular: 'storageclass',
  namespaced: false,
  shortNames: ['sc'],
  nameValidation: 'dns-subdomain',
  generation: 'none',
  statusSubresource: false,
  strategy: withBuiltinMetadata({
    defaults(obj) {
      setDefault(obj, 'reclaimPolicy', 'Delete');
      setDefault(obj, 'volumeBindingMode', 'Immediate');
    },
    validate: validateStorageClass,
    validateUpdate: validateStorageClassUpdate,
  }),
};

/** Upstream `ValidateLeaseSpec`. */
function validateLease(obj: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec');
  const errs: FieldError[] = [];
  const duration = getNum(spec, 'leaseDurationSeconds');
  if (duration !== undefined && duration <= 0) {
    errs.push(
      fieldErrors.invalid(SPEC.child('leaseDurationSeconds'), duration, 'must be greater than 0'),
    );
  }
  const transitions = getNum(spec, 'leaseTransitions');
  if (transitions !== undefined && transitions < 0) {
    errs.push(
      fieldErrors.invalid(
        SPEC.child('leaseTransitions'),
        transitions,
        'must be greater than or equal to 0',
      ),
    );
  }
  return errs;
}

/** coordination.k8s.io/v1 `leases`. */
export const leaseResource: ResourceDefinition = {
  group: 'coordination.k8s.io',
  version: 'v1',
  kind: 'Lease',
  listKind: 'LeaseList',
  plural: 'leases',
  singular: 'lease',
  namespaced: true,
  nameValidation: 'dns-subdomain',
  generation: 'none',
  statusSubresource: false,
  strategy: withBuiltinMetadata({ validate: validateLease }),
};
