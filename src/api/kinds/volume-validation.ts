/**
 * Pod `volumes` and container `volumeMounts` validation (upstream `ValidateVolumes`,
 * `validateVolumeSource`, `ValidateVolumeMounts`). Every source type is recognised; the
 * per-source rules are checked for the common ones (emptyDir, hostPath, secret, configMap,
 * persistentVolumeClaim, downwardAPI, projected).
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors } from '../field-error.js';
import { isDNS1123Label } from '../validation/dns.js';
import { getStr, isJsonObject, type JsonObject, objects } from './json.js';
import { quantityAt } from './resources-validation.js';

/** Source fields in upstream's checking order (the order decides which one is "extra"). */
const SOURCES = [
  'emptyDir',
  'hostPath',
  'gitRepo',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'flocker',
  'persistentVolumeClaim',
  'rbd',
  'cinder',
  'cephfs',
  'quobyte',
  'downwardAPI',
  'fc',
  'flexVolume',
  'configMap',
  'azureFile',
  'vsphereVolume',
  'photonPersistentDisk',
  'portworxVolume',
  'azureDisk',
  'storageos',
  'projected',
  'scaleIO',
  'csi',
  'ephemeral',
  'image',
] as const;

/** Upstream's field names in "may not specify more than 1 volume type" (typo kept). */
const EXTRA_SOURCE_PATH: Readonly<Record<string, string>> = {
  cephfs: 'cephFS',
  downwardAPI: 'downwarAPI',
};

const HOST_PATH_TYPES = [
  '',
  'DirectoryOrCreate',
  'Directory',
  'FileOrCreate',
  'File',
  'Socket',
  'CharDevice',
  'BlockDevice',
];
const FILE_MODE_ERROR = 'must be a number between 0 and 0777 (octal), both inclusive';

function validateDefaultMode(source: JsonObject, fieldPath: FieldPath): FieldError[] {
  const mode = source.defaultMode;
  if (mode === undefined || mode === null) return [];
  if (typeof mode !== 'number' || !Number.isInteger(mode) || mode < 0 || mode > 0o777) {
    return [fieldErrors.invalid(fieldPath.child('defaultMode'), mode, FILE_MODE_ERROR)];
  }
  return [];
}

function requiredString(source: JsonObject, key: string, fieldPath: FieldPath): FieldError[] {
  return (getStr(source, key) ?? '') === '' ? [fieldErrors.required(fieldPath.child(key), '')] : [];
}

function validateSource(kind: string, source: JsonObject, fieldPath: FieldPath): FieldError[] {
  switch (kind) {
    case 'emptyDir': {
      if (source.sizeLimit === undefined || source.sizeLimit === null) return [];
      const { q, errs } = quantityAt(source.sizeLimit, fieldPath.child('sizeLimit'));
      if (q !== undefined && q.nanos < 0n) {
        errs.push(
          fieldErrors.forbidden(
            fieldPath.child('sizeLimit'),
            'SizeLimit field must be a valid resource quantity',
          ),
        );
      }
      return errs;
    }
    case 'hostPath': {
      if ((getStr(source, 'path') ?? '') === '')
        return [fieldErrors.required(fieldPath.child('path'), '')];
      const type = source.type ?? '';
      if (typeof type === 'string' && HOST_PATH_TYPES.includes(type)) return [];
      return [fieldErrors.notSupported(fieldPath.child('type'), type, HOST_PATH_TYPES)];
    }
    case 'secret':
      return [
        ...requiredString(source, 'secretName', fieldPath),
        ...validateDefaultMode(source, fieldPath),
      ];
    case 'configMap':
      return [
        ...requiredString(source, 'name', fieldPath),
        ...validateDefaultMode(source, fieldPath),
      ];
    case 'persistentVolumeClaim':
      return requiredString(source, 'claimName', fieldPath);
    case 'downwardAPI':
    case 'projected':
      return validateDefaultMode(source, fieldPath);
    default:
      return [];
  }
}

function validateVolume(v: JsonObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const kind of SOURCES) {
    const source = v[kind];
    if (source === undefined || source === null) continue;
    if (count > 0) {
      errs.push(
        fieldErrors.forbidden(
          p.child(EXTRA_SOURCE_PATH[kind] ?? kind),
          'may not specify more than 1 volume type',
        ),
      );
      continue;
    }
    count++;
    if (isJsonObject(source)) errs.push(...validateSource(kind, source, p.child(kind)));
  }
  if (count === 0) errs.push(fieldErrors.required(p, 'must specify a volume type'));
  return errs;
}

/**
 * Upstream `ValidateVolumes`. Returns the volumes that passed (by name): upstream leaves
 * invalid ones out, so mounts of them are reported as not found too.
 */
export function validateVolumes(
  spec: JsonObject,
  fieldPath: FieldPath,
): { volumes: Map<string, JsonObject>; errs: FieldError[] } {
  const volumes = new Map<string, JsonObject>();
  const names = new Set<string>();
  const errs: FieldError[] = [];
  objects(spec, 'volumes').forEach((v, i) => {
    const p = fieldPath.index(i);
    const el = validateVolume(v, p);
    const name = getStr(v, 'name') ?? '';
    if (name === '') el.push(fieldErrors.required(p.child('name'), ''));
    else
      for (const msg of isDNS1123Label(name))
        el.push(fieldErrors.invalid(p.child('name'), name, msg));
    if (names.has(name)) el.push(fieldErrors.duplicate(p.child('name'), name));
    if (el.length === 0) {
      names.add(name);
      volumes.set(name, v);
    } else {
      errs.push(...el);
    }
  });
  return { volumes, errs };
}

/** Upstream `validateLocalDescendingPath` (subPath): relative, and no `..` element. */
function validateLocalDescendingPath(value: string, fieldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (value.startsWith('/'))
    errs.push(fieldErrors.invalid(fieldPath, value, 'must be a relative path'));
  if (value.split(/[\\/]/).includes('..'))
    errs.push(fieldErrors.invalid(fieldPath, value, "must not contain '..'"));
  return errs;
}

/** Upstream `ValidateVolumeMounts` (without mount propagation and recursive read-only rules). */
export function validateVolumeMounts(
  container: JsonObject,
  volumes: ReadonlyMap<string, JsonObject>,
  fieldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const mountPoints = new Set<string>();
  objects(container, 'volumeMounts').forEach((m, i) => {
    const p = fieldPath.index(i);
    const name = getStr(m, 'name') ?? '';
    const mountPath = getStr(m, 'mountPath') ?? '';
    if (name === '') errs.push(fieldErrors.required(p.child('name'), ''));
    if (!volumes.has(name)) errs.push(fieldErrors.notFound(p.child('name'), name));
    if (mountPath === '') errs.push(fieldErrors.required(p.child('mountPath'), ''));
    if (mountPoints.has(mountPath))
      errs.push(fieldErrors.invalid(p.child('mountPath'), mountPath, 'must be unique'));
    mountPoints.add(mountPath);
    const subPath = getStr(m, 'subPath') ?? '';
    const subPathExpr = getStr(m, 'subPathExpr') ?? '';
    // Upstream reports subPath problems at `volumeMounts.subPath`, without the index.
    if (subPath !== '')
      errs.push(...validateLocalDescendingPath(subPath, fieldPath.child('subPath')));
    if (subPathExpr !== '') {
      if (subPath !== '') {
        errs.push(
          fieldErrors.invalid(
            p.child('subPathExpr'),
            subPathExpr,
            'subPathExpr and subPath are mutually exclusive',
          ),
        );
      }
      errs.push(...validateLocalDescendingPath(subPathExpr, fieldPath.child('subPathExpr')));
    }
  });
  return errs;
}
