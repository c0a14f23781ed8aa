/**
 * PATCH of an object, its `/status` or its `/scale`: JSON merge patch (RFC 7386), JSON patch
 * (RFC 6902), strategic merge patch (built-in kinds only; custom resources answer 415 as
 * upstream) and server-side apply (`apply.ts`). A patch is applied to the newest stored
 * object inside the store's retry loop, so concurrent writers never lose each other's
 * changes; a resourceVersion the patch itself sets is a precondition (409 when stale).
 *
 * @module
 */

import { errorMessage } from '../../api/error-message.js';
import { badRequest, unsupportedMediaType } from '../../api/errors.js';
import { parseJson, stringifyJson } from '../../api/int64-json.js';
import { jsonDepthProblem } from '../../api/json-depth.js';
import type { KubeObject } from '../../api/object.js';
import { applyJsonPatch } from '../../api/patch/json-patch.js';
import { applyMergePatch, checkMergePatchDocument } from '../../api/patch/merge-patch.js';
import {
  applyStrategicMergePatch,
  decodeStrategicMergePatch,
} from '../../api/patch/strategic/index.js';
import { findDuplicateFields, hasDuplicateKeys } from '../../api/schema/duplicate-fields.js';
import { type FieldValidation, strictErrors } from '../../api/schema/field-validation.js';
import { SchemaNavigator } from '../../api/schema/navigator.js';
import { auditOf } from '../audit/auditor.js';
import { readBody } from '../http/body.js';
import { contentTypeOf, PATCH_TYPES } from '../http/media.js';
import { sendJson } from '../http/respond.js';
import { exactIntegers } from '../store/object-json.js';
import { handleApply } from './apply.js';
import type { ApiServices, ResourceCall } from './context.js';
import { isDryRun } from './context.js';
import { checkWriteOptions, trackUpdates } from './field-manager.js';
import { type KindRef, type KindSchema, kindSchema } from './kind-schema.js';
import { asObjectOf } from './object-body.js';
import { applyScale, scaleOf } from './scale.js';
import { fieldValidationOf, pruneReported, settleStrictErrors } from './strict-decoding.js';
import { checkResourceVersion, replacement } from './write.js';

/** autoscaling/v1 Scale, the body of `/scale` (built-in; its schema is generated). */
const SCALE: KindRef = { group: 'autoscaling', version: 'v1', kind: 'Scale' };
const NO_SCHEMA = new SchemaNavigator();

type PatchType = 'json-patch' | 'merge-patch' | 'strategic-merge-patch';

interface DecodedPatch {
  readonly type: PatchType;
  readonly doc: unknown;
  readonly text: string;
}

export async function handlePatch(api: ApiServices, call: ResourceCall): Promise<void> {
  const type = contentTypeOf(call.req.headers['content-type']);
  const accepted = acceptedPatchTypes(call);
  if (!accepted.includes(type)) throw unsupportedMediaType(type, accepted);
  const directive = fieldValidationOf(call, 'PatchOptions');
  if (type === PATCH_TYPES.apply) return handleApply(api, call, directive);
  checkWriteOptions(call, 'PatchOptions');
  const raw = await readBody(call.req);
  auditOf(call.req).requestPatch(raw);
  const patch = decodePatch(raw, type, exactIntegers(call.def));
  const { def, info } = call;
  const sub = info.subresource;
  const schema = await kindSchema(def);
  const scaleSchema = sub === 'scale' ? await kindSchema(SCALE) : undefined;
  const result = await api.store.update(
    def,
    info.namespace,
    info.name,
    (current) => {
      if (sub === 'scale') {
        const scale = asObjectOf(
          def,
          patchOf(patch, scaleOf(def, current), scaleSchema),
          'Scale',
          'autoscaling/v1',
        );
        checkResourceVersion(call, scale, current);
        return applyScale(def, current, scale);
      }
      const patched = asObjectOf(def, patchOf(patch, current, schema));
      checkStrict(call, directive, patch, patched, schema);
      checkResourceVersion(call, patched, current);
      return replacement(sub, patched, current, call.def);
    },
    {
      dryRun: isDryRun(call.query),
      subresource: sub === 'scale' ? '' : sub,
      track: trackUpdates(api, call, schema),
      admit: api.admit?.(call, 'UPDATE'),
    },
  );
  const body = sub === 'scale' ? stringifyJson(scaleOf(def, result.object)) : result.json;
  sendJson(call.res, 200, body);
}

/** Upstream: custom resources have no Go struct to read merge keys from, so no SMP. */
function acceptedPatchTypes(call: ResourceCall): string[] {
  const types: string[] = [PATCH_TYPES.json, PATCH_TYPES.merge];
  if (call.def.customResource === undefined) types.push(PATCH_TYPES.strategic);
  types.push(PATCH_TYPES.apply);
  return types;
}

function decodePatch(body: Buffer, type: string, exact: boolean): DecodedPatch {
  const text = body.toString('utf8');
  // Before JSON.parse and every recursive walk of the patch: see src/api/json-depth.ts.
  const problem = jsonDepthProblem(text, 'the patch');
  if (problem !== undefined) throw badRequest(`error decoding patch: ${problem}`);
  let doc: unknown;
  try {
    doc = exact ? parseJson(text) : JSON.parse(text);
  } catch (e) {
    throw badRequest(`error decoding patch: ${errorMessage(e)}`);
  }
  if (type === PATCH_TYPES.merge) {
    checkMergePatchDocument(doc);
    return { type: 'merge-patch', doc, text };
  }
  if (type === PATCH_TYPES.strategic) {
    return { type: 'strategic-merge-patch', doc: decodeStrategicMergePatch(doc), text };
  }
  return { type: 'json-patch', doc, text };
}

function patchOf(
  patch: DecodedPatch,
  current: KubeObject,
  schema: KindSchema | undefined,
): unknown {
  switch (patch.type) {
    case 'merge-patch':
      return applyMergePatch(current, patch.doc);
    case 'json-patch':
      // Its errors are StatusErrors already: 400 undecodable, 413 too many operations, 422 failed.
      return applyJsonPatch(current, patch.doc);
    case 'strategic-merge-patch':
      return applyStrategicMergePatch(current, patch.doc, schema?.schema, schema?.nav ?? NO_SCHEMA);
  }
}

/**
 * A patched object loses the fields its kind does not declare; the directive decides whether
 * they, and repeated keys in the patch text, are reported.
 */
function checkStrict(
  call: ResourceCall,
  directive: FieldValidation,
  patch: DecodedPatch,
  patched: KubeObject,
  schema: KindSchema,
): void {
  const unknownPaths = pruneReported(patched, schema, directive);
  if (directive === 'Ignore') return;
  const duplicates = hasDuplicateKeys(patch.text)
    ? findDuplicateFields(patch.text).map(strictErrors.duplicate)
    : [];
  // Upstream re-marshals the patched object (sorted keys); the strategic-merge-patch errors are sorted by text.
  let unknown = unknownPaths.sort().map(strictErrors.unknown);
  if (patch.type === 'strategic-merge-patch') unknown = unknown.sort();
  const errors = [...duplicates, ...unknown];
  if (patch.type === 'strategic-merge-patch') {
    settleStrictErrors(call, directive, { verb: patch.type, patch: patch.doc, errors });
  } else {
    settleStrictErrors(call, directive, { verb: patch.type, patched, errors });
  }
}
