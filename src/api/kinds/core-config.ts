/**
 * core/v1 ConfigMaps and Secrets: key rules, the 1 MiB size limit, base64 payloads, Secret
 * types, `stringData` folded into `data`, and the `immutable` flag.
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors, OMIT_VALUE, path } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { decodeBase64Length } from '../validation/base64.js';
import { isConfigMapKey } from '../validation/formats.js';
import { byteLength, FIELD_IMMUTABLE_ERROR_MSG } from '../validation/messages.js';
import { semanticEqual, withBuiltinMetadata } from './common.js';
import { getObj, getStr, isJsonObject, setDefaultStr } from './json.js';

/** Upstream `MaxSecretSize`, which also bounds ConfigMaps: 1 MiB. */
export const MAX_SECRET_SIZE = 1024 * 1024;
const IMMUTABLE_SET = 'field is immutable when `immutable` is set';

function validateKeys(
  map: Record<string, unknown>,
  p: FieldPath,
  other: Record<string, unknown> | undefined,
  otherName: string,
): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of Object.keys(map)) {
    for (const msg of isConfigMapKey(key)) errs.push(fieldErrors.invalid(p.key(key), key, msg));
    if (other !== undefined && Object.hasOwn(other, key)) {
      errs.push(fieldErrors.invalid(p.key(key), key, `duplicate of key present in ${otherName}`));
    }
  }
  return errs;
}

/** The total decoded size of base64 values, with an error per malformed value. */
function base64Values(map: Record<string, unknown>, p: FieldPath, errs: FieldError[]): number {
  let total = 0;
  for (const [key, v] of Object.entries(map)) {
    const r = decodeBase64Length(typeof v === 'string' ? v : '');
    if (typeof v !== 'string')
      errs.push(fieldErrors.invalid(p.key(key), OMIT_VALUE, 'must be a base64-encoded string'));
    else if (r.ok) total += r.bytes;
    else errs.push(fieldErrors.invalid(p.key(key), OMIT_VALUE, r.error));
  }
  return total;
}

/** Upstream `ValidateConfigMap`. */
function validateConfigMap(obj: KubeObject): FieldError[] {
  const data = getObj(obj, 'data') ?? {};
  const binary = getObj(obj, 'binaryData') ?? {};
  const errs = [
    ...validateKeys(data, path('data'), binary, 'binaryData'),
    ...validateKeys(binary, path('binaryData'), data, 'data'),
  ];
  let total = 0;
  for (const [key, v] of Object.entries(data)) {
    if (typeof v === 'string') total += byteLength(v);
    else errs.push(fieldErrors.invalid(path('data').key(key), v, 'must be a string'));
  }
  total += base64Values(binary, path('binaryData'), errs);
  // Upstream reports the whole object here, at an empty path.
  if (total > MAX_SECRET_SIZE) errs.push(fieldErrors.tooLong('', MAX_SECRET_SIZE));
  return errs;
}

/** The `immutable: true` rules shared by ConfigMaps and Secrets. */
function validateImmutable(
  obj: KubeObject,
  old: KubeObject,
  fields: readonly string[],
): FieldError[] {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  if (obj.immutable !== true) errs.push(fieldErrors.forbidden(path('immutable'), IMMUTABLE_SET));
  for (const f of fields) {
    if (!semanticEqual(obj[f], old[f])) errs.push(fieldErrors.forbidden(path(f), IMMUTABLE_SET));
  }
  return errs;
}

/** core/v1 `configmaps` (`cm`). */
export const configMapResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  listKind: 'ConfigMapList',
  plural: 'configmaps',
  singular: 'configmap',
  namespaced: true,
  shortNames: ['cm'],
  nameValidation: 'dns-subdomain',
  generation: 'none',
  statusSubresource: false,
  strategy: withBuiltinMetadata({
    validate: validateConfigMap,
    validateUpdate: (obj, old) => validateImmutable(obj, old, ['data', 'binaryData']),
  }),
};

/** Keys a Secret of each type must carry (upstream `ValidateSecret`). */
function validateSecretType(obj: KubeObject, data: Record<string, unknown>): FieldError[] {
  const dataPath = path('data');
  const has = (k: string): boolean => Object.hasOwn(data, k);
  switch (getStr(obj, 'type') ?? '') {
    case 'kubernetes.io/service-account-token': {
      const name = obj.metadata?.annotations?.['kubernetes.io/service-account.name'] ?? '';
      return name === ''
        ? [
            fieldErrors.required(
              path('metadata', 'annotations').key('kubernetes.io/service-account.name'),
              '',
            ),
          ]
        : [];
    }
    case 'kubernetes.io/dockercfg':
      return has('.dockercfg') ? [] : [fieldErrors.required(dataPath.key('.dockercfg'), '')];
    case 'kubernetes.io/dockerconfigjson':
      return has('.dockerconfigjson')
        ? []
        : [fieldErrors.required(dataPath.key('.dockerconfigjson'), '')];
    case 'kubernetes.io/basic-auth':
      return has('username') || has('password')
        ? []
        : [
            fieldErrors.required(dataPath.key('username'), ''),
            fieldErrors.required(dataPath.key('password'), ''),
          ];
    case 'kubernetes.io/ssh-auth':
      return getStr(data, 'ssh-privatekey')
        ? []
        : [fieldErrors.required(dataPath.key('ssh-privatekey'), '')];
    case 'kubernetes.io/tls': {
      const errs: FieldError[] = [];
      if (!has('tls.crt')) errs.push(fieldErrors.required(dataPath.key('tls.crt'), ''));
      if (!has('tls.key')) errs.push(fieldErrors.required(dataPath.key('tls.key'), ''));
      return errs;
    }
    default:
      return [];
  }
}

/** Upstream `ValidateSecret`, plus the base64 check upstream's decoder does. */
function validateSecret(obj: KubeObject): FieldError[] {
  const data = getObj(obj, 'data') ?? {};
  const errs = validateKeys(data, path('data'), undefined, '');
  const total = base64Values(data, path('data'), errs);
  if (total > MAX_SECRET_SIZE) errs.push(fieldErrors.tooLong(path('data'), MAX_SECRET_SIZE));
  errs.push(...validateSecretType(obj, data));
  return errs;
}

/**
 * Secret defaults: `type: Opaque`, and `stringData` folded into `data` (base64), as upstream's
 * v1 conversion does; `stringData` is never stored.
 */
function defaultSecret(obj: KubeObject): void {
  setDefaultStr(obj, 'type', 'Opaque');
  const stringData = obj.stringData;
  if (!isJsonObject(stringData)) return;
  const data = isJsonObject(obj.data) ? obj.data : {};
  for (const [k, v] of Object.entries(stringData)) {
    if (typeof v === 'string') data[k] = Buffer.from(v, 'utf8').toString('base64');
  }
  obj.data = data;
  delete obj.stringData;
}

/** core/v1 `secrets` (no short name, as upstream). */
export const secretResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'Secret',
  listKind: 'SecretList',
  plural: 'secrets',
  singular: 'secret',
  namespaced: true,
  nameValidation: 'dns-subdomain',
  generation: 'none',
  statusSubresource: false,
  strategy: withBuiltinMetadata({
    defaults: defaultSecret,
    validate: validateSecret,
    validateUpdate(obj, old) {
      const errs = validateImmutable(obj, old, ['data']);
      const type = getStr(obj, 'type') ?? '';
      const oldType = getStr(old, 'type') ?? '';
      if (type !== oldType)
        errs.push(fieldErrors.invalid(path('type'), type, FIELD_IMMUTABLE_ERROR_MSG));
      return errs;
    },
    selectableFields(obj) {
      return { type: getStr(obj, 'type') ?? '' };
    },
  }),
};
