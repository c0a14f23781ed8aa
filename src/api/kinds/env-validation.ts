/**
 * Container `env` and `envFrom` validation (upstream `ValidateEnv`, `ValidateEnvFrom`,
 * `validateEnvVarValueFrom`, `validateObjectFieldSelector`), with 1.32+'s relaxed variable
 * names.
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors } from '../field-error.js';
import { isConfigMapKey, isRelaxedEnvVarName } from '../validation/formats.js';
import { isQualifiedName } from '../validation/label-names.js';
import { nameIsDNSSubdomain } from '../validation/names.js';
import { getObj, getStr, type JsonObject, objects } from './json.js';

/** The `fieldRef.fieldPath`s an env var may read (upstream `validEnvDownwardAPIFieldPathExpressions`). */
const ENV_FIELD_PATHS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
].sort();

/** What `ConvertDownwardAPIFieldLabel` accepts for `v1` besides the subscripted forms. */
const CONVERTIBLE_FIELD_PATHS = new Set([
  ...ENV_FIELD_PATHS,
  'metadata.annotations',
  'metadata.labels',
  'spec.restartPolicy',
  'spec.schedulerName',
  'status.phase',
]);

const RESOURCE_FIELD_PATHS = [
  'limits.cpu',
  'limits.ephemeral-storage',
  'limits.memory',
  'requests.cpu',
  'requests.ephemeral-storage',
  'requests.memory',
];

const SUBSCRIPTED = /^(metadata\.(?:annotations|labels))\['(.*)'\]$/;

/** Upstream `validateObjectFieldSelector` for env (`fieldRef`). */
export function validateFieldRef(
  ref: JsonObject,
  fieldPath: FieldPath,
  allowed: readonly string[],
): FieldError[] {
  const apiVersion = getStr(ref, 'apiVersion') ?? '';
  const fp = getStr(ref, 'fieldPath') ?? '';
  if (apiVersion === '') return [fieldErrors.required(fieldPath.child('apiVersion'), '')];
  if (fp === '') return [fieldErrors.required(fieldPath.child('fieldPath'), '')];
  const convertErr =
    apiVersion !== 'v1'
      ? `unsupported pod version: ${apiVersion}`
      : SUBSCRIPTED.test(fp) || CONVERTIBLE_FIELD_PATHS.has(fp)
        ? undefined
        : `field label not supported: ${fp}`;
  if (convertErr !== undefined) {
    return [
      fieldErrors.invalid(
        fieldPath.child('fieldPath'),
        fp,
        `error converting fieldPath: ${convertErr}`,
      ),
    ];
  }
  const m = SUBSCRIPTED.exec(fp);
  if (m !== null) {
    const key = m[1] === 'metadata.annotations' ? (m[2] ?? '').toLowerCase() : (m[2] ?? '');
    return isQualifiedName(key).map((msg) => fieldErrors.invalid(fieldPath, key, msg));
  }
  if (!allowed.includes(fp))
    return [fieldErrors.notSupported(fieldPath.child('fieldPath'), fp, allowed)];
  return [];
}

function validateResourceFieldRef(ref: JsonObject, fieldPath: FieldPath): FieldError[] {
  const resource = getStr(ref, 'resource') ?? '';
  if (resource === '') return [fieldErrors.required(fieldPath.child('resource'), '')];
  const hugePages =
    resource.startsWith('requests.hugepages-') || resource.startsWith('limits.hugepages-');
  if (RESOURCE_FIELD_PATHS.includes(resource) || hugePages) return [];
  return [fieldErrors.notSupported(fieldPath.child('resource'), resource, RESOURCE_FIELD_PATHS)];
}

/** `configMapKeyRef` / `secretKeyRef`: the name is checked as a Secret name even when empty. */
function validateKeySelector(sel: JsonObject, fieldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = getStr(sel, 'name') ?? '';
  for (const msg of nameIsDNSSubdomain(name, false))
    errs.push(fieldErrors.invalid(fieldPath.child('name'), name, msg));
  const key = getStr(sel, 'key') ?? '';
  if (key === '') errs.push(fieldErrors.required(fieldPath.child('key'), ''));
  else
    for (const msg of isConfigMapKey(key))
      errs.push(fieldErrors.invalid(fieldPath.child('key'), key, msg));
  return errs;
}

function validateValueFrom(ev: JsonObject, fieldPath: FieldPath): FieldError[] {
  const from = getObj(ev, 'valueFrom');
  if (from === undefined) return [];
  const errs: FieldError[] = [];
  let sources = 0;
  const fieldRef = getObj(from, 'fieldRef');
  if (fieldRef !== undefined) {
    sources++;
    errs.push(...validateFieldRef(fieldRef, fieldPath.child('fieldRef'), ENV_FIELD_PATHS));
  }
  const resourceRef = getObj(from, 'resourceFieldRef');
  if (resourceRef !== undefined) {
    sources++;
    errs.push(...validateResourceFieldRef(resourceRef, fieldPath.child('resourceFieldRef')));
  }
  for (const key of ['configMapKeyRef', 'secretKeyRef']) {
    const sel = getObj(from, key);
    if (sel === undefined) continue;
    sources++;
    errs.push(...validateKeySelector(sel, fieldPath.child(key)));
  }
  if (sources === 0) {
    errs.push(
      fieldErrors.invalid(
        fieldPath,
        '',
        'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
      ),
    );
  } else if ((getStr(ev, 'value') ?? '') !== '') {
    errs.push(fieldErrors.invalid(fieldPath, '', 'may not be specified when `value` is not empty'));
  } else if (sources > 1) {
    errs.push(
      fieldErrors.invalid(fieldPath, '', 'may not have more than one field specified at a time'),
    );
  }
  return errs;
}

/** Upstream `ValidateEnv`. */
export function validateEnv(container: JsonObject, fieldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  objects(container, 'env').forEach((ev, i) => {
    const p = fieldPath.index(i);
    const name = getStr(ev, 'name') ?? '';
    if (name === '') errs.push(fieldErrors.required(p.child('name'), ''));
    else
      for (const msg of isRelaxedEnvVarName(name))
        errs.push(fieldErrors.invalid(p.child('name'), name, msg));
    errs.push(...validateValueFrom(ev, p.child('valueFrom')));
  });
  return errs;
}

function validateEnvSourceRef(ref: JsonObject, fieldPath: FieldPath): FieldError[] {
  const name = getStr(ref, 'name') ?? '';
  if (name === '') return [fieldErrors.required(fieldPath.child('name'), '')];
  return nameIsDNSSubdomain(name, true).map((msg) =>
    fieldErrors.invalid(fieldPath.child('name'), name, msg),
  );
}

/** Upstream `ValidateEnvFrom`. Source-count errors are reported at `envFrom` itself, as upstream does. */
export function validateEnvFrom(container: JsonObject, fieldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  objects(container, 'envFrom').forEach((ev, i) => {
    const p = fieldPath.index(i);
    const prefix = getStr(ev, 'prefix') ?? '';
    if (prefix !== '') {
      for (const msg of isRelaxedEnvVarName(prefix))
        errs.push(fieldErrors.invalid(p.child('prefix'), prefix, msg));
    }
    let sources = 0;
    for (const key of ['configMapRef', 'secretRef']) {
      const ref = getObj(ev, key);
      if (ref === undefined) continue;
      sources++;
      errs.push(...validateEnvSourceRef(ref, p.child(key)));
    }
    if (sources === 0) {
      errs.push(
        fieldErrors.invalid(fieldPath, '', 'must specify one of: `configMapRef` or `secretRef`'),
      );
    } else if (sources > 1) {
      errs.push(
        fieldErrors.invalid(fieldPath, '', 'may not have more than one field specified at a time'),
      );
    }
  });
  return errs;
}
