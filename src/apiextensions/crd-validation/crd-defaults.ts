/**
 * Defaults of a v1 CustomResourceDefinition (upstream `apiextensions/v1/defaults.go`):
 * `names.singular` is the lower-cased kind, `names.listKind` is `<Kind>List`, `conversion`
 * defaults to `{strategy: None}`, a webhook service port to 443, and `status.storedVersions` to
 * the storage version. Idempotent; mutates in place.
 *
 * @module
 */
import { isJsonObject, type JsonObject, type KubeObject } from '../../api/object.js';

function child(parent: JsonObject, key: string): JsonObject | undefined {
  const v = parent[key];
  return isJsonObject(v) ? v : undefined;
}

export function defaultCrd(crd: KubeObject): KubeObject {
  if (!isJsonObject(crd.spec)) return crd;
  const spec = crd.spec;
  const names = child(spec, 'names');
  if (names) {
    const kind = typeof names.kind === 'string' ? names.kind : '';
    if (typeof names.singular !== 'string' || names.singular === '')
      names.singular = kind.toLowerCase();
    if ((typeof names.listKind !== 'string' || names.listKind === '') && kind !== '')
      names.listKind = `${kind}List`;
  }
  if (spec.conversion === undefined || spec.conversion === null)
    spec.conversion = { strategy: 'None' };
  const service = child(
    child(child(child(spec, 'conversion') ?? {}, 'webhook') ?? {}, 'clientConfig') ?? {},
    'service',
  );
  if (service && (service.port === undefined || service.port === null)) service.port = 443;
  defaultStoredVersions(crd, spec);
  return crd;
}

function defaultStoredVersions(crd: KubeObject, spec: JsonObject): void {
  const status: JsonObject = isJsonObject(crd.status) ? crd.status : {};
  const stored = status.storedVersions;
  if (Array.isArray(stored) && stored.length > 0) return;
  const versions = Array.isArray(spec.versions) ? spec.versions : [];
  const storage = versions.find((v) => isJsonObject(v) && v.storage === true);
  if (!isJsonObject(storage) || typeof storage.name !== 'string') return;
  status.storedVersions = [storage.name];
  crd.status = status;
}
