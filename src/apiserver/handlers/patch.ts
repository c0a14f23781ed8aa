/**
 * PATCH of an object, its `/status` or its `/scale`: JSON merge patch (RFC 7386) and JSON
 * patch (RFC 6902). The patch is applied to the newest stored object inside the store's
 * retry loop, so concurrent writers never lose each other's changes; a resourceVersion the
 * patch itself sets is a precondition (409 when stale).
 *
 * Strategic merge patch and server-side apply are answered 415 until they are implemented.
 *
 * @module
 */
import { badRequest, unsupportedMediaType } from '../../api/errors.js';
import type { KubeObject } from '../../api/object.js';
import { applyJsonPatch } from '../../api/patch/json-patch.js';
import { applyMergePatch, checkMergePatchDocument } from '../../api/patch/merge-patch.js';
import { readBody } from '../http/body.js';
import { contentTypeOf, PATCH_TYPES } from '../http/media.js';
import { sendJson } from '../http/respond.js';
import type { ApiServices, ResourceCall } from './context.js';
import { isDryRun } from './context.js';
import { asObjectOf } from './object-body.js';
import { applyScale, scaleOf } from './scale.js';
import { checkResourceVersion, replacement } from './write.js';

type PatchFn = (doc: unknown) => unknown;

export async function handlePatch(api: ApiServices, call: ResourceCall): Promise<void> {
  const patch = decodePatch(await readBody(call.req), call.req.headers['content-type']);
  const { def, info } = call;
  const sub = info.subresource;
  const result = await api.store.update(
    def,
    info.namespace,
    info.name,
    (current) => {
      if (sub === 'scale') {
        const scale = asObjectOf(def, patch(scaleOf(def, current)), 'Scale', 'autoscaling/v1');
        checkResourceVersion(call, scale, current);
        return applyScale(def, current, scale);
      }
      const patched = patchedObject(call, patch, current);
      checkResourceVersion(call, patched, current);
      return replacement(sub, patched, current);
    },
    { dryRun: isDryRun(call.query), subresource: sub === 'scale' ? '' : sub },
  );
  const body = sub === 'scale' ? JSON.stringify(scaleOf(def, result.object)) : result.json;
  sendJson(call.res, 200, body);
}

function patchedObject(call: ResourceCall, patch: PatchFn, current: KubeObject): KubeObject {
  const out = patch(current);
  return asObjectOf(call.def, out);
}

const ACCEPTED = [PATCH_TYPES.json, PATCH_TYPES.merge];

function decodePatch(body: Buffer, contentTypeHeader: string | undefined): PatchFn {
  const type = contentTypeOf(contentTypeHeader);
  if (type !== PATCH_TYPES.json && type !== PATCH_TYPES.merge) {
    throw unsupportedMediaType(type, ACCEPTED);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(body.toString('utf8'));
  } catch (e) {
    throw badRequest(`error decoding patch: ${(e as Error).message}`);
  }
  if (type === PATCH_TYPES.merge) {
    checkMergePatchDocument(doc);
    return (current) => applyMergePatch(current, doc);
  }
  // Its errors are StatusErrors already: 400 undecodable, 413 too many operations, 422 failed.
  return (current) => applyJsonPatch(current, doc);
}
