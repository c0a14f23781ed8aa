/**
 * Server-side apply (`PATCH` with `application/apply-patch+yaml`): the applied configuration
 * is merged into the live object under the request's field manager, with ownership and
 * conflicts tracked in `metadata.managedFields` (`src/api/managed-fields/`). An apply to an
 * object that does not exist creates it (201), as kubectl expects: it does not GET first.
 *
 * @module
 */

import { errorMessage } from '../../api/error-message.js';
import { badRequest, isNotFound, unclassifiedError } from '../../api/errors.js';
import { parseJson } from '../../api/int64-json.js';
import {
  jsonTextDepth,
  MAX_DECODE_DEPTH,
  MAX_OBJECT_DEPTH,
  objectDepthError,
} from '../../api/json-depth.js';
import { zeroObject } from '../../api/kinds/zero-values.js';
import { applyPatch } from '../../api/managed-fields/index.js';
import type { KubeObject } from '../../api/object.js';
import { apiVersionOf } from '../../api/resource.js';
import { findYamlDuplicateKeys } from '../../api/schema/duplicate-fields.js';
import type { FieldValidation } from '../../api/schema/field-validation.js';
import type { SchemaNavigator } from '../../api/schema/navigator.js';
import type { Schema } from '../../api/schema/types.js';
import { findUnknownFields } from '../../api/schema/unknown-fields.js';
import { formatTime } from '../../api/time.js';
import { decodeYamlText } from '../../api/yaml-decode.js';
import { readBody } from '../http/body.js';
import { queryFlag } from '../http/query-bool.js';
import { sendJson } from '../http/respond.js';
import { exactIntegers } from '../store/object-json.js';
import type { ApiServices, ResourceCall } from './context.js';
import { isDryRun } from './context.js';
import { checkWriteOptions, managerOf } from './field-manager.js';
import { kindSchema } from './kind-schema.js';
import { asObjectOf, checkName, checkNamespace } from './object-body.js';
import { settleStrictErrors } from './strict-decoding.js';
import { checkResourceVersion, refuseWhileTerminating, replacement, requesterOf } from './write.js';

export async function handleApply(
  api: ApiServices,
  call: ResourceCall,
  directive: FieldValidation,
): Promise<void> {
  const { def, info } = call;
  checkWriteOptions(call, 'PatchOptions', true);
  const text = (await readBody(call.req)).toString('utf8');
  // Decoded (depth and aliases bounded) before the duplicate-key scan walks its YAML tree.
  const decoded = decodeApplyBody(text, exactIntegers(call.def));
  settleStrictErrors(call, directive, {
    verb: 'apply',
    yamlDuplicates: findYamlDuplicateKeys(text),
  });
  const applied = asObjectOf(def, decoded);
  checkNamespace(def, applied, info.namespace);
  checkName(applied, info.name);
  const sub = info.subresource;
  const { schema, nav } = await kindSchema(def);
  checkDeclared(call, applied, schema, nav);
  const options = {
    manager: managerOf(call),
    apiVersion: apiVersionOf(def),
    ...(sub !== '' ? { subresource: sub } : {}),
    now: formatTime(api.clock.now()),
    schema,
    nav,
    force: queryFlag(call.query, 'force'),
    kind: def.kind,
    zero: zeroObject(def),
  };
  const dryRun = isDryRun(call.query);
  try {
    const result = await api.store.update(
      def,
      info.namespace,
      info.name,
      (current) => {
        const { object } = applyPatch(current, applied, options);
        checkResourceVersion(call, applied, current);
        return replacement(sub, object, current, call.def);
      },
      { dryRun, subresource: sub, admit: api.admit?.(call, 'UPDATE') },
    );
    sendJson(call.res, 200, result.json);
  } catch (e) {
    if (!isNotFound(e) || sub !== '') throw e;
    refuseWhileTerminating(call);
    const { object } = applyPatch(undefined, applied, options);
    const created = await api.store.create(def, info.namespace, withName(object, info.name), {
      dryRun,
      admit: api.admit?.(call, 'CREATE'),
      ...requesterOf(call),
    });
    sendJson(call.res, 201, created.json);
  }
}

function withName(obj: KubeObject, name: string): KubeObject {
  return { ...obj, metadata: { ...obj.metadata, name } };
}

/**
 * The body is YAML (kubectl sends JSON, which is YAML too; JSON takes the fast path). Upstream
 * decodes it with go-yaml, hence go-yaml's texts for a body nested past 10,000 levels or with
 * excessive aliasing; past 500 levels this server refuses it (`src/api/json-depth.ts`).
 */
function decodeApplyBody(text: string, exact: boolean): unknown {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{')) {
    const scan = jsonTextDepth(text);
    if (scan.opener !== undefined) {
      throw badRequest(
        `error decoding YAML: yaml: line 1: exceeded max depth of ${MAX_DECODE_DEPTH}`,
      );
    }
    if (scan.depth > MAX_OBJECT_DEPTH) {
      throw badRequest(`error decoding YAML: ${objectDepthError('the document')}`);
    }
    try {
      return exact ? parseJson(text) : JSON.parse(text);
    } catch {
      // not JSON after all: read as YAML below
    }
  }
  try {
    return decodeYamlText(text, { uniqueKeys: false });
  } catch (e) {
    throw badRequest(`error decoding YAML: ${errorMessage(e)}`);
  }
}

/**
 * Server-side apply works on typed objects: a field the schema does not declare fails the
 * request whatever `fieldValidation` says (upstream's typed-patch conversion, a 500 without
 * a reason).
 */
function checkDeclared(
  call: ResourceCall,
  applied: KubeObject,
  schema: Schema | undefined,
  nav: SchemaNavigator,
): void {
  if (schema === undefined) return;
  const unknown = findUnknownFields(applied, schema, nav);
  if (unknown.length === 0) return;
  const { def, info } = call;
  const id = def.namespaced ? `${info.namespace}/${info.name}` : info.name;
  const gv = apiVersionOf(def);
  const errors = unknown.map((p) => `.${p}: field not declared in schema`).join('\n');
  throw unclassifiedError(
    `failed to create typed patch object (${id}; ${gv}, Kind=${def.kind}): ${errors}`,
  );
}
