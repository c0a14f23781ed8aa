/**
 * Checks a decoded request body against the endpoint it was sent to (upstream's decoder and
 * `rest.BeforeCreate`/`BeforeUpdate` checks): it must be an object of the endpoint's
 * apiVersion and kind, and its namespace and name must agree with the URL.
 *
 * @module
 */
import { badRequest, type StatusError } from '../../api/errors.js';
import { isKubeObject } from '../../api/is-kube-object.js';
import { isJsonObject, type JsonObject, type KubeObject } from '../../api/object.js';
import { apiVersionOf, type ResourceDefinition } from '../../api/resource.js';

export function asObjectOf(
  def: ResourceDefinition,
  body: unknown,
  kind = def.kind,
  apiVersion = apiVersionOf(def),
): KubeObject {
  if (!isJsonObject(body)) {
    throw badRequest(
      `${kind} in version "${def.version}" cannot be handled as a ${kind}: json: cannot unmarshal ${jsonTypeName(body)} into Go value of type ${kind}`,
    );
  }
  // Go decodes `"metadata": null` as no metadata; the store would make it `{}` either way.
  if (body.metadata === null) delete body.metadata;
  if (isKubeObject(body) && agrees(body.apiVersion, apiVersion) && agrees(body.kind, kind)) {
    return body;
  }
  throw bodyMismatch(def, body, kind, apiVersion);
}

/** An absent or empty `apiVersion` or `kind` is the endpoint's. */
function agrees(value: string | undefined, expected: string): boolean {
  return value === undefined || value === '' || value === expected;
}

/** What is wrong with a body that is not an object of the endpoint, in upstream's order. */
function bodyMismatch(
  def: ResourceDefinition,
  obj: JsonObject,
  kind: string,
  apiVersion: string,
): StatusError {
  if (obj.apiVersion !== undefined && obj.apiVersion !== '' && obj.apiVersion !== apiVersion) {
    return badRequest(
      `the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${apiVersion})`,
    );
  }
  if (obj.kind !== undefined && obj.kind !== '' && obj.kind !== kind) {
    return badRequest(
      `the kind in the data (${String(obj.kind)}) does not match the expected kind (${kind})`,
    );
  }
  return badRequest(
    `${kind} in version "${def.version}" cannot be handled as a ${kind}: json: cannot unmarshal ${jsonTypeName(obj.metadata)} into Go struct field ${kind}.metadata of type v1.ObjectMeta`,
  );
}

/** A namespaced object's namespace, if set, must be the URL's. */
export function checkNamespace(def: ResourceDefinition, obj: KubeObject, namespace: string): void {
  const ns = obj.metadata?.namespace;
  if (!def.namespaced || ns === undefined || ns === null || ns === '') return;
  if (ns !== namespace) {
    throw badRequest(
      'the namespace of the provided object does not match the namespace sent on the request',
    );
  }
}

/** The body's name, if set, must be the URL's. */
export function checkName(obj: KubeObject, name: string): void {
  const n = obj.metadata?.name;
  if (n !== undefined && n !== null && n !== '' && n !== name) {
    throw badRequest(
      `the name of the object (${String(n)}) does not match the name on the URL (${name})`,
    );
  }
}

function jsonTypeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}
