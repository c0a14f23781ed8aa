/**
 * Serves `clocks.sim.fleetyard.dev` (`../clock-resource.ts`): GET and LIST (objects or
 * kubectl's Table), PATCH and PUT, which change only `spec` and drive the clock. Strategic
 * merge patches and server-side apply are merged as JSON merge patches: the spec has only
 * scalars, and nothing is stored to own fields in. Everything else is
 * answered as upstream answers verbs a resource's storage does not implement: WATCH with 405
 * `watch is not supported on resources of kind "clocks.sim.fleetyard.dev"` (the list
 * handler's check), POST and DELETE with go-restful's generic 405 (no route).
 *
 * Writes are not stored: a PUT's `metadata` and `status` are ignored, the answer is the object
 * read back from the clock after the change, and its resourceVersion never moves (a body that
 * carries another one is stale: 409, as upstream's optimistic lock).
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorMessage } from '../../api/error-message.js';
import {
  badRequest,
  invalid,
  methodNotSupported,
  notFound,
  optimisticLockConflict,
  pathNotFound,
  unclassifiedError,
  unsupportedMediaType,
} from '../../api/errors.js';
import type { FieldError } from '../../api/field-error.js';
import { stringifyJson } from '../../api/int64-json.js';
import { jsonDepthProblem } from '../../api/json-depth.js';
import { isJsonObject, type KubeObject } from '../../api/object.js';
import { applyJsonPatch } from '../../api/patch/json-patch.js';
import { applyMergePatch, checkMergePatchDocument } from '../../api/patch/merge-patch.js';
import { apiVersionOf, groupResource } from '../../api/resource.js';
import { strictErrors } from '../../api/schema/field-validation.js';
import type { ClockStatus } from '../../util/clock-control.js';
import {
  applyClockSpec,
  CLOCK_DEFINITION,
  CLOCK_NAME,
  CLOCK_RESOURCE_VERSION,
  type ClockSpec,
  clockList,
  clockObject,
  dryRunStatus,
  readClockSpec,
  type ServedClock,
  SPEC_FIELDS,
  specProblems,
} from '../clock-resource.js';
import { decodeObjectBody, decodeYaml, readBody } from '../http/body.js';
import { contentTypeOf, PATCH_TYPES, parseAccept, requireJson } from '../http/media.js';
import { methodNotAllowed } from '../http/method-not-allowed.js';
import { checkPathSegments } from '../http/path-segment.js';
import type { RequestUrl } from '../http/request-url.js';
import { sendJson } from '../http/respond.js';
import type { ResourceRequest } from '../request-info.js';
import { parseRequestSelector } from '../selectors.js';
import { objectAttributes } from '../store/attributes.js';
import { isDryRun, type ResourceCall } from './context.js';
import { checkWriteOptions } from './field-manager.js';
import { asObjectOf, checkName } from './object-body.js';
import { fieldValidationOf, settleStrictErrors } from './strict-decoding.js';
import { type TableRequest, tableRequest } from './table.js';

const GR = groupResource(CLOCK_DEFINITION);
const GK = { group: CLOCK_DEFINITION.group, kind: CLOCK_DEFINITION.kind };
/** Upstream lists the patch types a resource accepts in its 415. */
const ACCEPTED_PATCH_TYPES: readonly string[] = Object.values(PATCH_TYPES);
const TOP_LEVEL_FIELDS = new Set(['apiVersion', 'kind', 'metadata', 'spec', 'status']);

/** Whether a resource request is addressed to `clocks` (other resources of its group are the registry's). */
export function isClockRequest(info: ResourceRequest): boolean {
  const d = CLOCK_DEFINITION;
  return info.group === d.group && info.version === d.version && info.resource === d.plural;
}

export async function handleClock(
  served: ServedClock,
  req: IncomingMessage,
  res: ServerResponse,
  url: RequestUrl,
  info: ResourceRequest,
): Promise<void> {
  if (info.namespace !== '' || info.subresource !== '') throw pathNotFound();
  checkPathSegments(info.namespace, info.name);
  const accept = parseAccept(req.headers.accept);
  requireJson(accept);
  const call: ResourceCall = {
    req,
    res,
    info,
    def: CLOCK_DEFINITION,
    query: url.searchParams,
    accept,
  };
  switch (info.verb) {
    case 'get':
      return getClock(served, call);
    case 'list':
      return listClocks(served, call);
    case 'watch':
      throw methodNotSupported(GR, 'watch');
    case 'update':
    case 'patch':
      if (info.name === '') throw methodNotAllowed();
      return writeClock(served, call);
    default:
      throw methodNotAllowed();
  }
}

async function getClock(served: ServedClock, call: ResourceCall): Promise<void> {
  if (call.info.name !== CLOCK_NAME) throw notFound(GR, call.info.name);
  const table = await tableRequest(call);
  const obj = clockObject(served);
  if (table === undefined) sendJson(call.res, 200, obj);
  else await sendClockTable(call, table, [obj], obj);
}

async function listClocks(served: ServedClock, call: ResourceCall): Promise<void> {
  const selector = parseRequestSelector(CLOCK_DEFINITION, call.query);
  const obj = clockObject(served);
  const items = selector.matches(objectAttributes(CLOCK_DEFINITION, obj)) ? [obj] : [];
  const table = await tableRequest(call);
  if (table === undefined) sendJson(call.res, 200, clockList(items));
  else await sendClockTable(call, table, items, obj);
}

/** The Table kubectl asks for; ages are measured on the clock itself (`status.time`). */
async function sendClockTable(
  call: ResourceCall,
  table: TableRequest,
  items: readonly KubeObject[],
  current: KubeObject,
): Promise<void> {
  const [{ renderTable }, { CLOCK_PRINTER }] = await Promise.all([
    import('../../api/printers/index.js'),
    import('../clock-table.js'),
  ]);
  // The clock's own time (status.time, always set): AGE in cluster time, as every Table.
  const time = isJsonObject(current.status) ? current.status.time : undefined;
  const t = renderTable(CLOCK_PRINTER, items, {
    now: new Date(String(time)),
    includeObject: table.includeObject,
    resourceVersion: CLOCK_RESOURCE_VERSION,
  });
  const out = table.version === 'v1' ? t : { ...t, apiVersion: 'meta.k8s.io/v1beta1' };
  sendJson(call.res, 200, stringifyJson(out), table.contentType);
}

/** PUT or PATCH: the new spec is checked in full, then applied; the answer is read back. */
async function writeClock(served: ServedClock, call: ResourceCall): Promise<void> {
  const { info } = call;
  const update = info.verb === 'update';
  if (info.name !== CLOCK_NAME) throw notFound(GR, info.name);
  const status = served.control.status();
  const body = await readBody(call.req);
  const written = update
    ? await replacement(call, body)
    : patched(call, body, clockObject(served, status));
  const spec = checkedSpec(written, status);
  if (isDryRun(call.query)) {
    sendJson(call.res, 200, clockObject(served, dryRunStatus(spec, status)));
    return;
  }
  applyClockSpec(served.control, spec, (e) => served.onError?.('clock: run-until failed', e));
  sendJson(call.res, 200, clockObject(served));
}

/** The written object's spec, or the 4xx that upstream's decoding and validation would give. */
function checkedSpec(written: KubeObject, status: ClockStatus): ClockSpec {
  checkName(written, CLOCK_NAME);
  const rv = written.metadata?.resourceVersion;
  if (typeof rv === 'string' && rv !== '' && rv !== CLOCK_RESOURCE_VERSION) {
    throw optimisticLockConflict(GR, CLOCK_NAME);
  }
  const { spec, errors } = readClockSpec(written.spec);
  const problems: FieldError[] = spec === undefined ? errors : specProblems(spec, status);
  if (problems.length > 0 || spec === undefined) throw invalid(GK, CLOCK_NAME, problems);
  return spec;
}

/** A PUT body: the whole object (JSON or YAML); unknown fields per `fieldValidation`. */
async function replacement(call: ResourceCall, body: Buffer): Promise<KubeObject> {
  checkWriteOptions(call, 'UpdateOptions');
  const directive = fieldValidationOf(call, 'UpdateOptions');
  const obj = asObjectOf(
    CLOCK_DEFINITION,
    await decodeObjectBody(body, call.req.headers['content-type'], false),
  );
  const version = obj.apiVersion?.slice(obj.apiVersion.indexOf('/') + 1);
  settleStrictErrors(call, directive, {
    verb: 'update',
    bodyKind: obj.kind || CLOCK_DEFINITION.kind,
    bodyVersion: version || CLOCK_DEFINITION.version,
    kind: CLOCK_DEFINITION.kind,
    errors: unknownPaths(obj).map(strictErrors.unknown),
  });
  return obj;
}

/** A PATCH applied to the object as it is now; unknown fields per `fieldValidation`. */
function patched(call: ResourceCall, body: Buffer, current: KubeObject): KubeObject {
  const type = contentTypeOf(call.req.headers['content-type']);
  if (!ACCEPTED_PATCH_TYPES.includes(type)) throw unsupportedMediaType(type, ACCEPTED_PATCH_TYPES);
  checkWriteOptions(call, 'PatchOptions', type === PATCH_TYPES.apply);
  const directive = fieldValidationOf(call, 'PatchOptions');
  if (type === PATCH_TYPES.apply) return applied(body, current);
  const doc = decodePatch(body);
  if (type !== PATCH_TYPES.json) checkMergePatchDocument(doc);
  // JSON patch errors are StatusErrors already (400 undecodable, 422 a failed operation).
  const result = asObjectOf(
    CLOCK_DEFINITION,
    type === PATCH_TYPES.json ? applyJsonPatch(current, doc) : applyMergePatch(current, doc),
  );
  const errors = unknownPaths(result).map(strictErrors.unknown);
  if (type === PATCH_TYPES.strategic) {
    settleStrictErrors(call, directive, { verb: 'strategic-merge-patch', patch: doc, errors });
  } else {
    const verb = type === PATCH_TYPES.json ? 'json-patch' : 'merge-patch';
    settleStrictErrors(call, directive, { verb, patched: result, errors });
  }
  return result;
}

function decodePatch(body: Buffer): unknown {
  const text = body.toString('utf8');
  const problem = jsonDepthProblem(text, 'the patch');
  if (problem !== undefined) throw badRequest(`error decoding patch: ${problem}`);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw badRequest(`error decoding patch: ${errorMessage(e)}`);
  }
}

/**
 * Server-side apply: the applied configuration (YAML or JSON) merged into the object. Fields
 * a Clock does not declare fail the apply whatever `fieldValidation` says, as upstream's
 * typed patch does.
 */
function applied(body: Buffer, current: KubeObject): KubeObject {
  const config = asObjectOf(CLOCK_DEFINITION, decodeYaml(body));
  const unknown = unknownPaths(config);
  if (unknown.length > 0) {
    const errors = unknown.map((p) => `.${p}: field not declared in schema`).join('\n');
    throw unclassifiedError(
      `failed to create typed patch object (${CLOCK_NAME}; ${apiVersionOf(CLOCK_DEFINITION)}, Kind=${CLOCK_DEFINITION.kind}): ${errors}`,
    );
  }
  return asObjectOf(CLOCK_DEFINITION, applyMergePatch(current, config));
}

/** Paths of fields a Clock does not have (`spec.x`), sorted as upstream reports them. */
function unknownPaths(obj: KubeObject): string[] {
  const paths = Object.keys(obj).filter((k) => !TOP_LEVEL_FIELDS.has(k));
  if (isJsonObject(obj.spec)) {
    const known: readonly string[] = SPEC_FIELDS;
    for (const k of Object.keys(obj.spec)) if (!known.includes(k)) paths.push(`spec.${k}`);
  }
  return paths.sort();
}
