/**
 * Checks a decoded request body against the endpoint it was sent to (upstream's decoder and
 * `rest.BeforeCreate`/`BeforeUpdate` checks): it must be an object of the endpoint's
 * apiVersion and kind, and its namespace and name must agree with the URL.
 *
 * @module
 */
import { badRequest } from '../../api/errors.js';
import { isJsonObject, type KubeObject } from '../../api/object.js';
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
  const obj = body as KubeObject;
  if (obj.apiVersion !== undefined && obj.apiVersion !== '' && obj.apiVersion !== apiVersion) {
    throw badRequest(
      `the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${apiVersion})`,
    );
  }
  if (obj.kind !== undefined && obj.kind !== '' && obj.kind !== kind) {
    throw badRequest(
      `the kind in the data (${String(obj.kind)}) does not match the expected kind (${kind})`,
    );
  }
  if (obj.metadata !== undefined && obj.metadata !== null && !isJsonObject(obj.metadata)) {
    throw badRequest(
      `${kind} in version "${def.version}" cannot be handled as a ${kind}: json: cannot unmarshal ${jsonTypeName(obj.metadata)} into Go struct field ${kind}.metadata of type v1.ObjectMeta`,
    );
  }
  return obj;
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
