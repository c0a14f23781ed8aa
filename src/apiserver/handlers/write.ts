/**
 * POST (create) and PUT (replace) of an object or its `/status`.
 *
 * @module
 */
import { methodNotSupported, optimisticLockConflict } from '../../api/errors.js';
import type { KubeObject } from '../../api/object.js';
import { groupResource } from '../../api/resource.js';
import { readBody } from '../http/body.js';
import { sendJson } from '../http/respond.js';
import type { ApiServices, ResourceCall } from './context.js';
import { isDryRun } from './context.js';
import { checkWriteOptions, trackUpdates } from './field-manager.js';
import { kindSchema } from './kind-schema.js';
import { asObjectOf, checkName, checkNamespace } from './object-body.js';
import { decodeStrictObject } from './strict-decoding.js';

export async function handleCreate(api: ApiServices, call: ResourceCall): Promise<void> {
  const { def, info } = call;
  if (def.namespaced && info.namespace === '')
    throw methodNotSupported(groupResource(def), 'create');
  refuseWhileTerminating(call);
  checkWriteOptions(call, 'CreateOptions');
  const schema = await kindSchema(def);
  const obj = asObjectOf(
    def,
    await decodeStrictObject(call, await readBody(call.req), 'create', schema),
  );
  checkNamespace(def, obj, info.namespace);
  const result = await api.store.create(def, info.namespace, obj, {
    dryRun: isDryRun(call.query),
    track: trackUpdates(api, call, schema),
  });
  sendJson(call.res, 201, result.json);
}

export async function handleUpdate(api: ApiServices, call: ResourceCall): Promise<void> {
  const { def, info } = call;
  checkWriteOptions(call, 'UpdateOptions');
  const schema = await kindSchema(def);
  const body = asObjectOf(
    def,
    await decodeStrictObject(call, await readBody(call.req), 'update', schema),
  );
  checkNamespace(def, body, info.namespace);
  checkName(body, info.name);
  const sub = info.subresource;
  const result = await api.store.update(
    def,
    info.namespace,
    info.name,
    (current) => {
      checkResourceVersion(call, body, current);
      return replacement(sub, body, current);
    },
    {
      dryRun: isDryRun(call.query),
      subresource: sub,
      track: trackUpdates(api, call, schema),
    },
  );
  sendJson(call.res, 200, result.json);
}

/** A body carrying a resourceVersion is a precondition: it must be the stored one. */
export function checkResourceVersion(
  call: ResourceCall,
  body: KubeObject,
  current: KubeObject,
): void {
  const rv = body.metadata?.resourceVersion;
  if (rv === undefined || rv === null || rv === '') return;
  if (rv !== current.metadata?.resourceVersion) {
    throw optimisticLockConflict(groupResource(call.def), call.info.name);
  }
}

/**
 * What a write to `sub` makes of the current object: the main resource takes the body but
 * keeps the stored status (when the kind has a status subresource); `/status` takes only the
 * body's status; a namespace's `/finalize` takes only `spec.finalizers`.
 */
export function replacement(sub: string, body: KubeObject, current: KubeObject): KubeObject {
  if (sub === 'status') return { ...current, status: body.status };
  if (sub === 'finalize') {
    const spec = (body.spec ?? {}) as Record<string, unknown>;
    return { ...current, spec: { ...(current.spec as object), finalizers: spec.finalizers ?? [] } };
  }
  return body;
}

/**
 * A custom resource whose CRD is being deleted cannot be created (upstream's CRD handler:
 * 405 `create not allowed while custom resource definition is terminating`).
 */
export function refuseWhileTerminating(call: ResourceCall): void {
  if (!call.def.customResource?.terminating) return;
  const e = methodNotSupported(groupResource(call.def), 'create');
  e.status.message = 'create not allowed while custom resource definition is terminating';
  throw e;
}
