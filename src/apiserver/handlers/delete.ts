/**
 * DELETE of one object or a collection. DeleteOptions come from the body (kubectl) or the
 * query (client-node), and are validated as upstream's `ValidateDeleteOptions`.
 *
 * @module
 */
import { badRequest, invalid, isNotFound, statusJson } from '../../api/errors.js';
import { type FieldError, fieldErrors, path } from '../../api/field-error.js';
import { isJsonObject, type JsonObject } from '../../api/object.js';
import { decodeObjectBody, readBody } from '../http/body.js';
import { queryBool } from '../http/query-bool.js';
import { sendJson } from '../http/respond.js';
import { parseRequestSelector } from '../selectors.js';
import { attributesOf } from '../store/attributes.js';
import {
  type DeleteOptions,
  isPropagationPolicy,
  PROPAGATION_POLICIES,
} from '../store/deletion.js';
import { listPrefix } from '../store/keys.js';
import { parseStoredObject } from '../store/object-json.js';
import type { ApiServices, ResourceCall } from './context.js';
import { listJson } from './list.js';

export async function handleDelete(api: ApiServices, call: ResourceCall): Promise<void> {
  const options = await deleteOptions(call);
  const { def, info } = call;
  const dryRun = (options.dryRun ?? []).includes('All');
  const result = await api.store.delete(def, info.namespace, info.name, options, {
    dryRun,
    admit: api.admit?.(call, 'DELETE'),
  });
  if (!result.removed || def.returnsDeletedObject) {
    sendJson(call.res, 200, result.json);
    return;
  }
  sendJson(
    call.res,
    200,
    statusJson({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: {
        name: info.name,
        group: def.group,
        kind: def.plural,
        ...(result.object.metadata?.uid ? { uid: result.object.metadata.uid } : {}),
      },
      code: 0,
    }),
  );
}

/** DELETE on a collection: every selected object, answered with the list of them. */
export async function handleDeleteCollection(api: ApiServices, call: ResourceCall): Promise<void> {
  const options = await deleteOptions(call);
  const { def, info } = call;
  const selector = parseRequestSelector(def, call.query);
  const items = api.backend.list(listPrefix(def, info.namespace), {
    ...(selector.empty ? {} : { filter: (kv) => selector.matches(attributesOf(def, kv)) }),
  }).items;
  const dryRun = (options.dryRun ?? []).includes('All');
  // Each object's delete is admitted, as upstream's DeleteCollection deletes one by one.
  const admit = api.admit?.(call, 'DELETE');
  const deleted: string[] = [];
  for (const kv of items) {
    const obj = parseStoredObject(kv.value);
    try {
      const r = await api.store.delete(
        def,
        obj.metadata?.namespace ?? '',
        obj.metadata?.name ?? '',
        options,
        { dryRun, admit },
      );
      deleted.push(r.json);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
  const metadata = { resourceVersion: String(api.backend.currentRevision()) };
  sendJson(call.res, 200, listJson(def, metadata, deleted));
}

async function deleteOptions(call: ResourceCall): Promise<DeleteOptions> {
  const raw = await deleteOptionsBody(call);
  const q = call.query;
  const options: DeleteOptions = {};
  const errors: FieldError[] = [];
  const grace = raw.gracePeriodSeconds ?? numberParam(q, 'gracePeriodSeconds');
  if (grace !== undefined && grace !== null) {
    if (typeof grace !== 'number' || !Number.isInteger(grace)) {
      throw badRequest('gracePeriodSeconds must be an integer');
    }
    options.gracePeriodSeconds = grace;
  }
  propagation(raw, q, options, errors);
  const dryRun = raw.dryRun ?? q.getAll('dryRun');
  if (Array.isArray(dryRun)) {
    for (const d of dryRun) {
      if (d !== 'All') errors.push(fieldErrors.notSupported(path('dryRun'), d, ['All']));
    }
    // Anything but `All` is an error above, so what is kept when none was found is every value.
    options.dryRun = dryRun.filter((d): d is string => typeof d === 'string');
  }
  if (isJsonObject(raw.preconditions)) {
    options.preconditions = preconditionsOf(raw.preconditions);
  }
  if (errors.length > 0) {
    throw invalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errors);
  }
  return options;
}

/**
 * `preconditions` as the store checks them: a value present is compared as text (a client
 * sending a number for a UID gets the conflict it asked for); null is none, as Go's nil.
 */
function preconditionsOf(raw: JsonObject): NonNullable<DeleteOptions['preconditions']> {
  const { uid, resourceVersion } = raw;
  return {
    ...(uid !== undefined && uid !== null ? { uid: String(uid) } : {}),
    ...(resourceVersion !== undefined && resourceVersion !== null
      ? { resourceVersion: String(resourceVersion) }
      : {}),
  };
}

/** The DeleteOptions body, or `{}` when there is none (client-node sends query parameters). */
async function deleteOptionsBody(call: ResourceCall): Promise<Record<string, unknown>> {
  const body = await readBody(call.req);
  if (body.length === 0 || body.toString('utf8').trim() === '') return {};
  const decoded = await decodeObjectBody(body, call.req.headers['content-type']);
  if (!isJsonObject(decoded)) throw badRequest('DeleteOptions must be a JSON object');
  return decoded;
}

/** `propagationPolicy` and the deprecated `orphanDependents` (upstream `ValidateDeleteOptions`). */
function propagation(
  raw: Record<string, unknown>,
  q: URLSearchParams,
  options: DeleteOptions,
  errors: FieldError[],
): void {
  const policy = raw.propagationPolicy ?? q.get('propagationPolicy') ?? undefined;
  const orphan = raw.orphanDependents ?? queryBool(q, 'orphanDependents');
  const hasPolicy = policy !== undefined && policy !== null;
  if (isPropagationPolicy(policy)) {
    options.propagationPolicy = policy;
  } else if (hasPolicy) {
    errors.push(fieldErrors.notSupported(path('propagationPolicy'), policy, PROPAGATION_POLICIES));
  }
  if (orphan === undefined || orphan === null) return;
  if (hasPolicy) {
    errors.push(
      fieldErrors.invalid(
        path('propagationPolicy'),
        policy,
        'orphanDependents and deletionPropagation cannot be both set',
      ),
    );
  }
  options.orphanDependents = orphan === true;
}

function numberParam(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n)) throw badRequest(`${name} must be an integer`);
  return n;
}
