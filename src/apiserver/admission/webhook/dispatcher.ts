/**
 * Admission webhooks as kube-apiserver 1.33 runs them (`mutating/dispatcher.go`,
 * `validating/dispatcher.go`), behind fleetyard's {@link ExternalAdmission}:
 *
 * - mutating webhooks one after another (configurations by name, then listed order), each
 *   seeing the object as the previous one left it; a JSON patch that changes the object makes
 *   every earlier `reinvocationPolicy: IfNeeded` webhook due for one more round, which runs
 *   after the first (upstream's reinvocation, limited to webhooks already called once);
 * - validating webhooks all at once, the request refused by the first failure in webhook order
 *   (upstream returns whichever finishes first);
 * - `failurePolicy`: a call that fails (unreachable, timeout, bad answer) is skipped under
 *   `Ignore` (with a `failed-open` audit annotation) and refused under `Fail` with a 500;
 * - a dry run refused with 400 by a webhook whose `sideEffects` is not `None`/`NoneOnDryRun`;
 * - the webhook configurations and admission policies themselves never sent to webhooks.
 *
 * Warnings and audit annotations go to the request's {@link AdmissionRecord}.
 *
 * @module
 */
import type { CelAuthzBackend } from '../../../api/cel/admission-policy/authorizer-library.js';
import { internalError, StatusError } from '../../../api/errors.js';
import type { KubeObject } from '../../../api/object.js';
import { type Clock, realClock } from '../../../util/clock.js';
import type { ExternalAdmission } from '../../store/object-store.js';
import { type CallContext, callWebhook, shouldCallHook, versionedFor } from './call.js';
import { CallingWebhookError, WebhookRejection } from './errors.js';
import { mutatingHooks, validatingHooks, type WebhookEntry } from './hooks.js';
import { type Invocation, isExemptFromWebhooks } from './matching.js';
import { type AdmissionAttributes, AdmissionRecord, type WebhookLookup } from './types.js';
import { convertObject } from './versions.js';

export interface WebhookDispatcherOptions {
  readonly lookup: WebhookLookup;
  /** Times each call's `timeoutSeconds`; the real clock by default. */
  readonly clock?: Pick<Clock, 'setTimer'>;
  /**
   * What `authorizer` in match conditions asks (the server's RBAC `Authorizer` fits); without
   * it every check answers an error.
   */
  readonly authorizer?: CelAuthzBackend;
}

const MUTATION_PREFIX = 'mutation.webhook.admission.k8s.io/';
const PATCH_PREFIX = 'patch.webhook.admission.k8s.io/';
const MUTATION_FAILED_OPEN_PREFIX = 'failed-open.mutation.webhook.admission.k8s.io/';
const VALIDATING_FAILED_OPEN_PREFIX = 'failed-open.validating.webhook.admission.k8s.io/';

/** Upstream `webhookReinvokeContext`. */
interface ReinvokeState {
  /** IfNeeded webhooks called since the object last changed. */
  previouslyInvoked: Set<string>;
  /** Webhooks the second round calls. */
  reinvoke: Set<string>;
  shouldReinvoke: boolean;
}

/** Turns a call's failure into the request's error, or undefined to go on (failing open). */
function failureOf(err: unknown, entry: WebhookEntry): Error | undefined {
  if (err instanceof CallingWebhookError) {
    return entry.hook.failurePolicy === 'Ignore' ? undefined : internalError(err.message);
  }
  if (err instanceof WebhookRejection) return err.status;
  if (err instanceof StatusError) return err;
  return err instanceof Error ? err : new Error(String(err));
}

interface MutatingStep {
  readonly object: KubeObject | undefined;
  readonly changed: boolean;
  readonly failure?: unknown;
}

/** One mutating call: the object as it leaves it (back in the request's version), or the failure. */
async function callMutating(
  ctx: CallContext,
  inv: Invocation,
  object: KubeObject | undefined,
  oldObject: KubeObject | undefined,
  suffix: string,
): Promise<MutatingStep> {
  const { entry } = inv;
  try {
    const outcome = await callWebhook(ctx, inv, versionedFor(ctx, inv, object, oldObject));
    if (outcome.patched === undefined) return { object, changed: outcome.changed };
    ctx.record.addAnnotation(
      PATCH_PREFIX + suffix,
      JSON.stringify({
        configuration: entry.configurationName,
        webhook: entry.hook.name,
        patch: outcome.ops ?? [],
        patchType: 'JSONPatch',
      }),
      'Request',
    );
    const { resource, subresource } = ctx.attrs;
    const patched = convertObject(
      ctx.lookup.resources(),
      inv.resource,
      resource,
      subresource,
      outcome.patched,
    );
    return { object: patched, changed: outcome.changed };
  } catch (failure) {
    return { object, changed: false, failure };
  }
}

export class WebhookDispatcher {
  readonly #lookup: WebhookLookup;
  readonly #clock: Pick<Clock, 'setTimer'>;
  readonly #authorizer: CelAuthzBackend | undefined;

  constructor(options: WebhookDispatcherOptions) {
    this.#lookup = options.lookup;
    this.#clock = options.clock ?? realClock;
    this.#authorizer = options.authorizer;
  }

  /**
   * The store's hooks for one request: `mutate` runs the mutating webhooks (once per call, so
   * once per conflict retry of an update, as upstream), `validate` the validating ones.
   */
  forRequest(
    attrs: AdmissionAttributes,
    record: AdmissionRecord = new AdmissionRecord(),
  ): ExternalAdmission {
    return {
      mutate: async (next, current) => (await this.admit(attrs, next, current, record)) ?? next,
      validate: (next, current) => this.validate(attrs, next, current, record),
    };
  }

  /**
   * Runs the mutating webhooks on `object` (undefined for a DELETE or CONNECT without one) and
   * returns it as they left it.
   */
  async admit(
    attrs: AdmissionAttributes,
    object: KubeObject | undefined,
    oldObject: KubeObject | undefined,
    record: AdmissionRecord = new AdmissionRecord(),
  ): Promise<KubeObject | undefined> {
    if (isExemptFromWebhooks(attrs)) return object;
    const hooks = mutatingHooks(this.#lookup.mutatingWebhookConfigurations());
    if (hooks.length === 0) return object;
    const ctx = this.#context(attrs, record);
    const state: ReinvokeState = {
      previouslyInvoked: new Set(),
      reinvoke: new Set(),
      shouldReinvoke: false,
    };
    let current = await this.#mutatingRound(ctx, hooks, 0, object, oldObject, state);
    if (state.shouldReinvoke) {
      current = await this.#mutatingRound(ctx, hooks, 1, current, oldObject, state);
    }
    return current;
  }

  async #mutatingRound(
    ctx: CallContext,
    hooks: readonly WebhookEntry[],
    round: 0 | 1,
    object: KubeObject | undefined,
    oldObject: KubeObject | undefined,
    state: ReinvokeState,
  ): Promise<KubeObject | undefined> {
    let current = object;
    for (const [i, entry] of hooks.entries()) {
      const inv = shouldCallHook(ctx, entry, current, oldObject);
      if (inv === undefined) continue;
      // A webhook skipped in the first round is not called for the first time in the second.
      if (round === 1 && !state.reinvoke.has(entry.uid)) continue;
      const suffix = `round_${round}_index_${i}`;
      const step = await callMutating(ctx, inv, current, oldObject, suffix);
      current = step.object;
      const { changed, failure } = step;
      ctx.record.addAnnotation(
        MUTATION_PREFIX + suffix,
        JSON.stringify({
          configuration: entry.configurationName,
          webhook: entry.hook.name,
          mutated: changed,
        }),
      );
      if (changed) {
        for (const uid of state.previouslyInvoked) state.reinvoke.add(uid);
        state.previouslyInvoked.clear();
        state.shouldReinvoke = true;
      }
      if (entry.reinvocable) state.previouslyInvoked.add(entry.uid);
      if (failure === undefined) continue;
      const err = failureOf(failure, entry);
      if (err !== undefined) throw err;
      ctx.record.addAnnotation(MUTATION_FAILED_OPEN_PREFIX + suffix, entry.hook.name);
    }
    return current;
  }

  #context(attrs: AdmissionAttributes, record: AdmissionRecord): CallContext {
    const ctx = { attrs, lookup: this.#lookup, clock: this.#clock, record };
    return this.#authorizer === undefined ? ctx : { ...ctx, authorizer: this.#authorizer };
  }

  /** Runs the validating webhooks; throws the first refusal in webhook order. */
  async validate(
    attrs: AdmissionAttributes,
    object: KubeObject | undefined,
    oldObject: KubeObject | undefined,
    record: AdmissionRecord = new AdmissionRecord(),
  ): Promise<void> {
    if (isExemptFromWebhooks(attrs)) return;
    const hooks = validatingHooks(this.#lookup.validatingWebhookConfigurations());
    if (hooks.length === 0) return;
    const ctx = this.#context(attrs, record);
    const relevant: Invocation[] = [];
    for (const entry of hooks) {
      const inv = shouldCallHook(ctx, entry, object, oldObject);
      if (inv !== undefined) relevant.push(inv);
    }
    const failures = await Promise.all(
      relevant.map((inv) =>
        callWebhook(ctx, inv, versionedFor(ctx, inv, object, oldObject)).then(
          () => undefined,
          (e: unknown) => ({ e }),
        ),
      ),
    );
    let first: Error | undefined;
    failures.forEach((f, idx) => {
      if (f === undefined) return;
      const entry = relevant[idx]!.entry;
      const err = failureOf(f.e, entry);
      if (err === undefined) {
        record.addAnnotation(
          `${VALIDATING_FAILED_OPEN_PREFIX}round_0_index_${idx}`,
          entry.hook.name,
        );
      } else {
        first ??= err;
      }
    });
    if (first !== undefined) throw first;
  }
}
