/**
 * `POST …/pods/{name}/eviction`: a pod deletion that respects its PodDisruptionBudget
 * (upstream `pkg/registry/core/pod/storage/eviction.go`, `EvictionREST.Create`). The pure
 * decision is `evictionDecision` (`src/api/policy/`); this file does the I/O in upstream's
 * order: read the pod and the namespace's PDBs, spend one disruption in the PDB's status
 * (optimistic concurrency, re-deciding on a conflict), put the `DisruptionTarget` condition on
 * the pod, then delete it with the Eviction's DeleteOptions (graceful for pods). Answers 201
 * with a Success Status; 429 with a `DisruptionBudget` cause when the budget forbids it.
 *
 * @module
 */
import {
  badRequest,
  conflict,
  invalid,
  isConflict,
  optimisticLockConflict,
  StatusError,
  unclassifiedError,
} from '../../api/errors.js';
import { type FieldError, fieldErrors, path } from '../../api/field-error.js';
import { isJsonObject, type KubeObject } from '../../api/object.js';
import {
  type EvictionAllowed,
  evictionConflictError,
  evictionDecision,
} from '../../api/policy/eviction-decision.js';
import { updatePodCondition } from '../../api/policy/pod-conditions.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { decodeObjectBody, readBody } from '../http/body.js';
import { sendJson } from '../http/respond.js';
import {
  type DeleteOptions,
  isPropagationPolicy,
  PROPAGATION_POLICIES,
} from '../store/deletion.js';
import { listPrefix } from '../store/keys.js';
import { parseStoredObject } from '../store/object-json.js';
import type { ApiServices, ResourceCall } from './context.js';
import { checkWriteOptions } from './field-manager.js';
import { asObjectOf, checkNamespace } from './object-body.js';

/** Upstream `EvictionsRetry`: 20 attempts (upstream sleeps ~500 ms between them; we re-read at once). */
const EVICTION_RETRIES = 20;

/** Upstream accepts both versions of the body (`AcceptsGroupVersion`). */
const EVICTION_VERSIONS = ['policy/v1', 'policy/v1beta1'];

export async function handleEviction(api: ApiServices, call: ResourceCall): Promise<void> {
  checkWriteOptions(call, 'CreateOptions');
  const options = await evictionOptions(call);
  for (let attempt = 1; ; attempt++) {
    const outcome = await attemptEviction(api, call, options, attempt >= EVICTION_RETRIES);
    if (outcome === 'done') break;
  }
  sendJson(call.res, 201, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    code: 201,
  });
}

/**
 * One pass of upstream's retry loops: read, decide, spend the budget, delete. `retry` when a
 * write lost a race that upstream retries (the newest state is read and decided again).
 */
async function attemptEviction(
  api: ApiServices,
  call: ResourceCall,
  options: DeleteOptions,
  last: boolean,
): Promise<'done' | 'retry'> {
  const { def, info } = call;
  const pdbDef = api.registry.get('policy', 'v1', 'poddisruptionbudgets');
  const pod = api.store.get(def, info.namespace, info.name);
  const pdbs = pdbDef === undefined ? [] : listPdbs(api, pdbDef, info.namespace);
  const decision = evictionDecision(pod, pdbs, api.clock.now(), options);
  if (!decision.allow) throw decision.error;
  const { pdbUpdate } = decision;
  if (pdbUpdate !== undefined && pdbDef !== undefined) {
    const written = await writePdbStatus(api, pdbDef, info.namespace, pdbUpdate);
    if (!written && last) throw pdbTimeout(pdbUpdate.name);
    // Another writer changed the PDB since it was read: read it again and decide again.
    if (!written) return 'retry';
  }
  try {
    await addConditionAndDelete(api, call, decision, options);
    return 'done';
  } catch (e) {
    if (!isConflict(e)) throw e;
    // Upstream retries the ignored-PDB path on a Conflict unless the caller set an RV.
    const callerRv = options.preconditions?.resourceVersion !== undefined;
    if (decision.via === 'ignoredPdb' && !callerRv && !last) return 'retry';
    if (decision.conflictIsTooManyRequests) throw evictionConflictError(decision.pdbName ?? '');
    throw e;
  }
}

function listPdbs(api: ApiServices, pdbDef: ResourceDefinition, namespace: string): KubeObject[] {
  const { items } = api.backend.list(listPrefix(pdbDef, namespace));
  return items.map((kv) => parseStoredObject(kv.value));
}

/** `NewTimeoutError` after the retries ran out on PDB status conflicts. */
function pdbTimeout(name: string): StatusError {
  const message = `couldn't update PodDisruptionBudget ${JSON.stringify(name)} due to conflicts`;
  return new StatusError(504, 'Timeout', `Timeout: ${message}`, { retryAfterSeconds: 10 });
}

/**
 * Writes the decremented PDB status, conditioned on the resourceVersion it was computed from.
 * Returns false when the PDB changed meanwhile (upstream's UpdateStatus Conflict).
 */
async function writePdbStatus(
  api: ApiServices,
  pdbDef: ResourceDefinition,
  namespace: string,
  update: NonNullable<EvictionAllowed['pdbUpdate']>,
): Promise<boolean> {
  try {
    await api.store.update(
      pdbDef,
      namespace,
      update.name,
      (current) => {
        if (current.metadata?.resourceVersion !== update.resourceVersion) {
          throw optimisticLockConflict({ group: 'policy', resource: pdbDef.plural }, update.name);
        }
        return { ...current, status: update.status };
      },
      { subresource: 'status' },
    );
    return true;
  } catch (e) {
    if (isConflict(e)) return false;
    throw e;
  }
}

/**
 * Upstream `addConditionAndDeletePod`: unless dry run, check the preconditions against the
 * newest pod, set `DisruptionTarget` through `/status`, move a resourceVersion precondition to
 * the version that write produced; then delete with the (graceful) options.
 */
async function addConditionAndDelete(
  api: ApiServices,
  call: ResourceCall,
  decision: EvictionAllowed,
  options: DeleteOptions,
): Promise<void> {
  const { def, info } = call;
  const dryRun = (options.dryRun ?? []).length > 0;
  let deleteOptions: DeleteOptions =
    decision.deleteResourceVersion === undefined
      ? options
      : {
          ...options,
          preconditions: {
            ...options.preconditions,
            resourceVersion: decision.deleteResourceVersion,
          },
        };
  const condition = decision.podCondition;
  if (!dryRun && condition !== undefined) {
    const written = await api.store.update(
      def,
      info.namespace,
      info.name,
      (latest) => {
        checkPodPreconditions(latest, deleteOptions);
        const status = isJsonObject(latest.status) ? latest.status : {};
        const next = updatePodCondition(status.conditions, condition);
        return next.changed
          ? { ...latest, status: { ...status, conditions: next.conditions } }
          : latest;
      },
      { subresource: 'status' },
    );
    const rv = written.object.metadata?.resourceVersion;
    if (deleteOptions.preconditions?.resourceVersion !== undefined && rv !== undefined) {
      deleteOptions = {
        ...deleteOptions,
        preconditions: { ...deleteOptions.preconditions, resourceVersion: rv },
      };
    }
  }
  await api.store.delete(def, info.namespace, info.name, deleteOptions, { dryRun });
}

/** The precondition check of upstream's `getLatestPod` (group resource `Pod`, its texts). */
function checkPodPreconditions(pod: KubeObject, options: DeleteOptions): void {
  const gr = { group: '', resource: 'Pod' };
  const name = pod.metadata?.name ?? '';
  const uid = options.preconditions?.uid;
  if (uid && uid !== pod.metadata?.uid) {
    throw conflict(
      gr,
      name,
      `the UID in the precondition (${uid}) does not match the UID in record (${pod.metadata?.uid ?? ''}). The object might have been deleted and then recreated`,
    );
  }
  const rv = options.preconditions?.resourceVersion;
  if (rv && rv !== pod.metadata?.resourceVersion) {
    throw conflict(
      gr,
      name,
      `the ResourceVersion in the precondition (${rv}) does not match the ResourceVersion in record (${pod.metadata?.resourceVersion ?? ''}). The object might have been modified`,
    );
  }
}

/**
 * Decodes the Eviction (policy/v1 or v1beta1), checks its name and namespace against the URL,
 * and returns its DeleteOptions with the request's dryRun folded in (upstream
 * `propagateDryRun`).
 */
async function evictionOptions(call: ResourceCall): Promise<DeleteOptions> {
  const raw = await decodeObjectBody(await readBody(call.req), call.req.headers['content-type']);
  const version =
    isJsonObject(raw) && EVICTION_VERSIONS.includes(String(raw.apiVersion))
      ? String(raw.apiVersion)
      : 'policy/v1';
  const eviction = asObjectOf(call.def, raw, 'Eviction', version);
  checkNamespace(call.def, eviction, call.info.namespace);
  if ((eviction.metadata?.name ?? '') !== call.info.name) {
    throw badRequest('name in URL does not match name in Eviction object');
  }
  const body = eviction.deleteOptions;
  if (body !== undefined && body !== null && !isJsonObject(body)) {
    throw badRequest('Eviction.deleteOptions must be an object');
  }
  const options = parseDeleteOptions(isJsonObject(body) ? body : {});
  const queryDryRun = call.query.getAll('dryRun');
  const bodyDryRun = options.dryRun ?? [];
  if (bodyDryRun.length === 0) {
    if (queryDryRun.length > 0) options.dryRun = queryDryRun;
  } else if (queryDryRun.length > 0 && queryDryRun.join('\0') !== bodyDryRun.join('\0')) {
    throw unclassifiedError(
      `Non-matching dry-run options in request and content: [${queryDryRun.join(' ')}] and [${bodyDryRun.join(' ')}]`,
    );
  }
  validateDryRun(options.dryRun ?? []);
  return options;
}

/** The Eviction's `deleteOptions`, typed and validated as upstream's `ValidateDeleteOptions`. */
function parseDeleteOptions(raw: Record<string, unknown>): DeleteOptions {
  const options: DeleteOptions = {};
  const errors: FieldError[] = [];
  const grace = raw.gracePeriodSeconds;
  if (grace !== undefined && grace !== null) {
    if (typeof grace !== 'number' || !Number.isInteger(grace)) {
      throw badRequest('gracePeriodSeconds must be an integer');
    }
    options.gracePeriodSeconds = grace;
  }
  const policy = raw.propagationPolicy;
  if (policy !== undefined && policy !== null) {
    if (isPropagationPolicy(policy)) options.propagationPolicy = policy;
    else
      errors.push(
        fieldErrors.notSupported(path('propagationPolicy'), policy, PROPAGATION_POLICIES),
      );
  }
  if (typeof raw.orphanDependents === 'boolean') options.orphanDependents = raw.orphanDependents;
  if (Array.isArray(raw.dryRun)) options.dryRun = raw.dryRun.map(String);
  if (isJsonObject(raw.preconditions)) {
    const { uid, resourceVersion } = raw.preconditions;
    options.preconditions = {
      ...(typeof uid === 'string' ? { uid } : {}),
      ...(typeof resourceVersion === 'string' ? { resourceVersion } : {}),
    };
  }
  if (errors.length > 0) throw invalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errors);
  return options;
}

function validateDryRun(dryRun: readonly string[]): void {
  const errors = dryRun
    .filter((d) => d !== 'All')
    .map((d) => fieldErrors.notSupported(path('dryRun'), d, ['All']));
  if (errors.length > 0) throw invalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errors);
}
