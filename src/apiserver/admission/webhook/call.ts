/**
 * Deciding on and making one webhook call, shared by the mutating and validating dispatchers:
 * {@link shouldCallHook} (upstream `ShouldCallHook`: selectors and rules from `matching.ts`,
 * then `matchConditions` on the object as the matched version has it) and {@link callWebhook}
 * (upstream `callAttrMutatingHook` / `callHook`: the dry-run check, the AdmissionReview, the
 * POST, the answer's checks, its warnings and audit annotations, the rejection, and for a
 * mutating webhook the JSON patch applied and defaulted).
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { CelAuthzBackend } from '../../../api/cel/admission-policy/authorizer-library.js';
import { forbidden, internalError } from '../../../api/errors.js';
import { deepEqual, isJsonObject, type KubeObject } from '../../../api/object.js';
import { applyJsonPatch } from '../../../api/patch/json-patch.js';
import type { Clock } from '../../../util/clock.js';
import { CallError, postReview } from './client.js';
import { TargetError, webhookTarget } from './endpoint.js';
import { CallingWebhookError, dryRunUnsupported, toStatusErr, WebhookRejection } from './errors.js';
import type { WebhookEntry } from './hooks.js';
import { matchConditions } from './match-conditions.js';
import { type Invocation, selectInvocation } from './matching.js';
import { decodePatch, InvalidResponseError, verifyAdmissionResponse } from './response.js';
import {
  admissionReview,
  NO_KNOWN_REVIEW_VERSION,
  requestFrame,
  reviewVersionFor,
} from './review.js';
import type { AdmissionAttributes, AdmissionRecord, WebhookLookup } from './types.js';
import { applyDefaults, convertObject } from './versions.js';

/** What one request's calls share. */
export interface CallContext {
  readonly attrs: AdmissionAttributes;
  readonly lookup: WebhookLookup;
  readonly clock: Pick<Clock, 'setTimer'>;
  readonly record: AdmissionRecord;
  /** What match conditions' `authorizer` asks; without it every check errors. */
  readonly authorizer?: CelAuthzBackend;
}

/** The objects as the invocation's version has them. */
export interface Versioned {
  readonly object: KubeObject | undefined;
  readonly oldObject: KubeObject | undefined;
}

export function versionedFor(
  ctx: CallContext,
  inv: Invocation,
  object: KubeObject | undefined,
  oldObject: KubeObject | undefined,
): Versioned {
  const resources = ctx.lookup.resources();
  const convert = (o: KubeObject | undefined): KubeObject | undefined =>
    o === undefined
      ? undefined
      : convertObject(resources, ctx.attrs.resource, inv.resource, ctx.attrs.subresource, o);
  return { object: convert(object), oldObject: convert(oldObject) };
}

/**
 * Upstream `ShouldCallHook`: the invocation, undefined to skip, or a thrown StatusError (a
 * missing namespace's 404, a failing match condition's 403 under `failurePolicy: Fail`).
 */
export function shouldCallHook(
  ctx: CallContext,
  entry: WebhookEntry,
  object: KubeObject | undefined,
  oldObject: KubeObject | undefined,
): Invocation | undefined {
  const inv = selectInvocation(entry, ctx.attrs, object, oldObject, ctx.lookup);
  if (inv === undefined) return undefined;
  const conditions = entry.hook.matchConditions ?? [];
  if (conditions.length === 0) return inv;
  const v = versionedFor(ctx, inv, object, oldObject);
  const result = matchConditions(
    conditions,
    {
      object: v.object ?? null,
      oldObject: v.oldObject ?? null,
      request: celRequest(ctx.attrs, inv),
      authz: {
        ...(ctx.authorizer !== undefined ? { backend: ctx.authorizer } : {}),
        user: ctx.attrs.userInfo,
        requestResource: {
          ...ctx.attrs.resource,
          subresource: ctx.attrs.subresource,
          namespace: ctx.attrs.namespace,
          name: ctx.attrs.name,
        },
      },
    },
    entry.hook.failurePolicy ?? 'Fail',
  );
  if ('error' in result) {
    const gr = { group: ctx.attrs.resource.group, resource: ctx.attrs.resource.resource };
    throw forbidden(gr, ctx.attrs.name, result.error);
  }
  return result.matches ? inv : undefined;
}

/** The `request` variable of match conditions (upstream `CreateAdmissionRequest`). */
function celRequest(a: AdmissionAttributes, inv: Invocation): Record<string, unknown> {
  return { ...requestFrame(a, inv), dryRun: a.dryRun, options: a.options ?? null };
}

const DEFAULT_TIMEOUT_SECONDS = 10;
const MAX_TIMEOUT_SECONDS = 30;

function timeoutOf(entry: WebhookEntry): number {
  const t = entry.hook.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  return Math.min(Math.max(1, Math.floor(t)), MAX_TIMEOUT_SECONDS);
}

export interface CallOutcome {
  /** The patched object (mutating webhooks that returned a non-empty patch). */
  readonly patched?: KubeObject;
  readonly changed: boolean;
  /** The patch applied, for the audit annotation. */
  readonly ops?: readonly unknown[];
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Upstream's dry-run rule: only webhooks without side effects (or none on dry run) are called. */
function checkDryRun(ctx: CallContext, entry: WebhookEntry): void {
  if (!ctx.attrs.dryRun) return;
  const sideEffects = entry.hook.sideEffects;
  if (sideEffects === undefined || sideEffects === '') {
    throw new CallingWebhookError(entry.hook.name, 'Webhook SideEffects is nil');
  }
  if (sideEffects !== 'None' && sideEffects !== 'NoneOnDryRun') {
    throw dryRunUnsupported(entry.hook.name);
  }
}

/**
 * Calls the webhook of `inv` with the versioned objects.
 * @throws {CallingWebhookError} the call failed (the failure policy decides).
 * @throws {WebhookRejection} the webhook refused.
 * @throws {StatusError} refused whatever the failure policy (dry run, a patch that fails).
 */
export async function callWebhook(
  ctx: CallContext,
  inv: Invocation,
  v: Versioned,
): Promise<CallOutcome> {
  const { entry } = inv;
  const name = entry.hook.name;
  checkDryRun(ctx, entry);
  const version = reviewVersionFor(entry.hook.admissionReviewVersions);
  if (version === undefined) {
    throw new CallingWebhookError(
      name,
      `could not create admission objects: ${NO_KNOWN_REVIEW_VERSION}`,
    );
  }
  const timeout = timeoutOf(entry);
  let target: ReturnType<typeof webhookTarget>;
  try {
    target = webhookTarget(entry.hook.clientConfig, timeout, ctx.lookup);
  } catch (e) {
    if (!(e instanceof TargetError)) throw e;
    throw new CallingWebhookError(name, `could not get REST client: ${e.message}`);
  }
  const uid = randomUUID();
  const body = JSON.stringify(admissionReview(version, uid, ctx.attrs, inv, v.object, v.oldObject));
  let answer: unknown;
  try {
    answer = await postReview(target, body, timeout, ctx.clock);
  } catch (e) {
    if (!(e instanceof CallError)) throw e;
    throw new CallingWebhookError(name, `failed to call webhook: ${e.message}`);
  }
  let result: ReturnType<typeof verifyAdmissionResponse>;
  try {
    result = verifyAdmissionResponse(version, uid, entry.mutating, answer);
  } catch (e) {
    if (!(e instanceof InvalidResponseError)) throw e;
    throw new CallingWebhookError(name, `received invalid webhook response: ${e.message}`);
  }
  for (const [k, val] of Object.entries(result.auditAnnotations)) {
    ctx.record.addAnnotation(`${name}/${k}`, val);
  }
  for (const w of result.warnings) ctx.record.addWarning(w);
  if (!result.allowed) throw new WebhookRejection(toStatusErr(name, result.result));
  if (!entry.mutating || result.patch === '') return { changed: false };
  return applyPatch(ctx, inv, v.object, result.patch, result.patchType);
}

function applyPatch(
  ctx: CallContext,
  inv: Invocation,
  object: KubeObject | undefined,
  patch: string,
  patchType: string,
): CallOutcome {
  const name = inv.entry.hook.name;
  let ops: unknown[];
  try {
    ops = decodePatch(patch);
  } catch (e) {
    throw new CallingWebhookError(
      name,
      `received undecodable patch in webhook response: ${message(e)}`,
    );
  }
  if (ops.length === 0) return { changed: false };
  if (object === undefined) {
    throw internalError(
      `admission webhook "${name}" attempted to modify the object, which is not supported for this operation`,
    );
  }
  if (patchType !== 'JSONPatch') {
    throw new CallingWebhookError(name, `unsupported patch type "${patchType}"`);
  }
  let patched: unknown;
  try {
    patched = applyJsonPatch(object, ops);
  } catch (e) {
    throw internalError(message(e));
  }
  if (!isJsonObject(patched)) {
    throw internalError('json: cannot unmarshal the patched document into an object');
  }
  // Compared before defaulting, as upstream compares the decoded object.
  const changed = !deepEqual(object, patched);
  applyDefaults(ctx.lookup.resources(), inv.resource, inv.subresource, patched);
  return { patched, changed, ops };
}
