/**
 * core/v1 PersistentVolumes: `SetDefaults_PersistentVolume` (reclaim `Retain`, volume mode
 * `Filesystem`), phase `Pending` with its transition time on create, the spec rules of
 * `ValidatePersistentVolumeSpec` (for the common sources) and the immutable volume source.
 *
 * @module
 */
import { type FieldError, fieldErrors, path } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { formatTime } from '../time.js';
import { isDNS1123Subdomain } from '../validation/dns.js';
import { immutable, SPEC, semanticEqual, withBuiltinMetadata } from './common.js';
import {
  validateAccessModes,
  validateClassName,
  validatePositiveQuantity,
  validateVolumeMode,
} from './core-pvc.js';
import {
  ensureObj,
  getObj,
  getStr,
  type JsonObject,
  setDefault,
  setDefaultStr,
  specOf,
} from './json.js';
import { defaultResourceList } from './pod-defaults.js';
import { specDiff } from './pod-update.js';

/** The volume source fields of a PersistentVolumeSpec, in upstream's checking order. */
const PV_SOURCES = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'glusterfs',
  'flocker',
  'nfs',
  'rbd',
  'quobyte',
  'cephfs',
  'iscsi',
  'cinder',
  'fc',
  'flexVolume',
  'azureFile',
  'vsphereVolume',
  'photonPersistentDisk',
  'portworxVolume',
  'azureDisk',
  'scaleIO',
  'local',
  'storageos',
  'csi',
] as const;
const RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'];

function validateCapacity(spec: JsonObject): FieldError[] {
  const capacity = getObj(spec, 'capacity') ?? {};
  const p = SPEC.child('capacity');
  const names = Object.keys(capacity);
  const errs: FieldError[] = [];
  if (names.length === 0) errs.push(fieldErrors.required(p, ''));
  if (!names.includes('storage') || names.length > 1)
    errs.push(fieldErrors.notSupported(p, capacity, ['storage']));
  for (const [name, v] of Object.entries(capacity))
    errs.push(...validatePositiveQuantity(name, v, p.key(name)));
  return errs;
}

function validateSource(kind: string, source: JsonObject): FieldError[] {
  const p = SPEC.child(kind);
  const need = (key: string): FieldError[] =>
    (getStr(source, key) ?? '') === '' ? [fieldErrors.required(p.child(key), '')] : [];
  switch (kind) {
    case 'hostPath':
      return need('path');
    case 'nfs':
      return [...need('server'), ...need('path')];
    case 'local':
      return need('path');
    case 'csi': {
      const driver = getStr(source, 'driver') ?? '';
      const errs = driver === '' ? [fieldErrors.required(p.child('driver'), '')] : [];
      for (const msg of driver === '' ? [] : isDNS1123Subdomain(driver.toLowerCase())) {
        errs.push(fieldErrors.invalid(p.child('driver'), driver, msg));
      }
      return [...errs, ...need('volumeHandle')];
    }
    default:
      return [];
  }
}

function validateSources(spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const kind of PV_SOURCES) {
    const source = getObj(spec, kind);
    if (source === undefined) continue;
    if (count > 0) {
      errs.push(
        fieldErrors.forbidden(
          SPEC.child(kind === 'cephfs' ? 'cephFS' : kind),
          'may not specify more than 1 volume type',
        ),
      );
      continue;
    }
    count++;
    errs.push(...validateSource(kind, source));
    if (kind === 'local' && getObj(spec, 'nodeAffinity') === undefined) {
      errs.push(
        fieldErrors.required(SPEC.child('nodeAffinity'), 'Local volume requires node affinity'),
      );
    }
  }
  if (count === 0) errs.push(fieldErrors.required(SPEC, 'must specify a volume type'));
  return errs;
}

/** Upstream `ValidatePersistentVolumeSpec` (node affinity terms are not checked in detail). */
function validate(obj: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  const errs = [
    ...validateAccessModes(spec.accessModes, SPEC.child('accessModes'), ''),
    ...validateCapacity(spec),
  ];
  const policy = getStr(spec, 'persistentVolumeReclaimPolicy') ?? '';
  if (policy !== '' && !RECLAIM_POLICIES.includes(policy)) {
    errs.push(
      fieldErrors.notSupported(
        SPEC.child('persistentVolumeReclaimPolicy'),
        policy,
        RECLAIM_POLICIES,
      ),
    );
  }
  errs.push(...validateSources(spec));
  const hostPath = getStr(getObj(spec, 'hostPath'), 'path');
  if (
    hostPath !== undefined &&
    hostPath.replace(/\/+$/, '') === '' &&
    hostPath.startsWith('/') &&
    policy === 'Recycle'
  ) {
    errs.push(
      fieldErrors.forbidden(
        SPEC.child('persistentVolumeReclaimPolicy'),
        "may not be 'recycle' for a hostPath mount of '/'",
      ),
    );
  }
  errs.push(...validateClassName(spec.storageClassName, SPEC.child('storageClassName')));
  errs.push(...validateVolumeMode(spec, SPEC.child('volumeMode')));
  return errs;
}

function sourceOf(spec: JsonObject | undefined): JsonObject {
  const out: JsonObject = {};
  for (const kind of PV_SOURCES) if (spec?.[kind] !== undefined) out[kind] = spec[kind];
  return out;
}

/** Upstream `ValidatePersistentVolumeUpdate`. */
function validateUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec');
  const oldSpec = getObj(old, 'spec');
  const errs: FieldError[] = [];
  const next = sourceOf(spec);
  const prev = sourceOf(oldSpec);
  if (!semanticEqual(next, prev)) {
    errs.push(
      fieldErrors.forbidden(
        path('spec', 'persistentvolumesource'),
        `spec.persistentvolumesource is immutable after creation\n${specDiff(prev, next, 'spec')}`,
      ),
    );
  }
  errs.push(...immutable(spec?.volumeMode, oldSpec?.volumeMode, path('volumeMode')));
  if (oldSpec?.nodeAffinity !== undefined && oldSpec.nodeAffinity !== null) {
    errs.push(...immutable(spec?.nodeAffinity, oldSpec.nodeAffinity, path('nodeAffinity')));
  }
  return errs;
}

/** The PersistentVolume resource; `now` stamps `status.lastPhaseTransitionTime` on create. */
export function createPersistentVolumeResource(now: () => number): ResourceDefinition {
  return {
    group: '',
    version: 'v1',
    kind: 'PersistentVolume',
    listKind: 'PersistentVolumeList',
    plural: 'persistentvolumes',
    singular: 'persistentvolume',
    namespaced: false,
    shortNames: ['pv'],
    nameValidation: 'dns-subdomain',
    generation: 'none',
    statusSubresource: true,
    strategy: withBuiltinMetadata({
      defaults(obj) {
        const spec = specOf(obj);
        if (spec !== undefined) {
          setDefaultStr(spec, 'persistentVolumeReclaimPolicy', 'Retain');
          setDefault(spec, 'volumeMode', 'Filesystem');
          defaultResourceList(getObj(spec, 'capacity'));
          const hostPath = getObj(spec, 'hostPath');
          if (hostPath !== undefined) setDefault(hostPath, 'type', '');
        }
        const status = ensureObj(obj, 'status');
        if (status !== undefined) setDefaultStr(status, 'phase', 'Pending');
      },
      prepareForCreate(obj) {
        // PersistentVolumeLastPhaseTransitionTime is GA (1.31): the first phase is stamped.
        obj.status = { phase: 'Pending', lastPhaseTransitionTime: formatTime(now()) };
      },
      validate,
      validateUpdate,
    }),
  };
}
