/**
 * POST (create) and PUT (replace) of an object or its `/status`.
 *
 * @module
 */

import { methodNotSupported, optimisticLockConflict } from '../../api/errors.js';
import { approvalReplacement } from '../../api/kinds/certificates-csr.js';
import { getObj } from '../../api/kinds/json.js';
import type { KubeObject, ObjectMeta } from '../../api/object.js';
import { groupResource, type ResourceDefinition } from '../../api/resource.js';
import { auditOf } from '../audit/auditor.js';
import { requestIdentity } from '../authentication/request-user.js';
import type { UserInfo } from '../authentication/user.js';
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
  auditOf(call.req).requestObject(obj);
  const result = await api.store.create(def, info.namespace, obj, {
    dryRun: isDryRun(call.query),
    track: trackUpdates(api, call, schema),
    admit: api.admit?.(call, 'CREATE'),
    ...requesterOf(call),
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
  auditOf(call.req).requestObject(body);
  const sub = info.subresource;
  const result = await api.store.update(
    def,
    info.namespace,
    info.name,
    (current) => {
      checkResourceVersion(call, body, current);
      return replacement(sub, body, current, call.def);
    },
    {
      dryRun: isDryRun(call.query),
      subresource: sub,
      track: trackUpdates(api, call, schema),
      admit: api.admit?.(call, 'UPDATE'),
    },
  );
  sendJson(call.res, 200, result.json);
}

/**
 * Metadata a kind's `/status` keeps from the stored object (upstream `GetResetFields` of the
 * status strategies): a Deployment's labels; a Pod's owner references (old kubelets corrupted
 * them). Generation and the deletion fields are system fields, kept for every write.
 */
const STATUS_RESET_METADATA: Readonly<Record<string, readonly (keyof ObjectMeta)[]>> = {
  Deployment: ['labels'],
  Pod: ['ownerReferences'],
};

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
 * keeps the stored status (when the kind has a status subresource); a namespace's `/finalize`
 * takes only `spec.finalizers`.
 *
 * `/status` takes the body's status and, for built-in kinds, its metadata, as upstream's status
 * strategies do (they reset only `spec` and a few kind-specific fields, see
 * {@link STATUS_RESET_METADATA}): the Deployment controller writes its revision annotation
 * together with the status, which does not bump `metadata.generation`. A custom resource's
 * `/status` takes only the status (apiextensions' status strategy).
 */
export function replacement(
  sub: string,
  body: KubeObject,
  current: KubeObject,
  def?: ResourceDefinition,
): KubeObject {
  if (sub === 'status') {
    if (def === undefined || def.customResource !== undefined || !body.metadata) {
      return { ...current, status: body.status };
    }
    const metadata = { ...body.metadata };
    for (const field of STATUS_RESET_METADATA[def.kind] ?? []) {
      const kept = current.metadata?.[field];
      if (kept === undefined) delete metadata[field];
      else metadata[field] = kept;
    }
    return { ...current, metadata, status: body.status };
  }
  if (sub === 'approval') return approvalReplacement(body, current);
  if (sub === 'finalize') {
    const finalizers = getObj(body, 'spec')?.finalizers ?? [];
    return { ...current, spec: { ...getObj(current, 'spec'), finalizers } };
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

/** The request's user as the store records it on create (CertificateSigningRequests). */
export function requesterOf(call: ResourceCall): { requester?: UserInfo } {
  const user = requestIdentity(call.req)?.user;
  return user === undefined ? {} : { requester: user };
}
