/**
 * A recording, fault-injecting wrapper over the real {@link ApiClient}, for the operator's
 * API-fault sweep. Every call the operator makes through it is logged (verb, resource, name,
 * delete preconditions, outcome); a {@link FaultPlan} picks one mutating call by its
 * signature (verb, resource, name) and occurrence among the mutating calls (create, update,
 * updateStatus, patch, delete, createSubresource) and fails it in one of four ways:
 *
 * | fault      | the request is sent | what the caller sees                                  |
 * |------------|---------------------|-------------------------------------------------------|
 * | `timeout`  | no                  | the client's own {@link RequestTimeoutError}          |
 * | `429`      | no                  | a {@link StatusCodeError} with a `TooManyRequests` Status |
 * | `conflict` | no                  | a {@link StatusCodeError} with a `Conflict` Status (409) |
 * | `lost`     | yes, and it commits | {@link RequestTimeoutError}, as if the answer was lost |
 *
 * A `lost` fault whose real request fails anyway passes the real error on (nothing committed,
 * so nothing was lost). Reads are recorded and never faulted.
 *
 * @module
 */
import type { KubeObject } from '../../../api/object.js';
import type { ApiClient } from '../../../client/api-client.js';
import { RequestTimeoutError } from '../../../client/api-errors.js';
import { StatusCodeError } from '../../../client/lister-watcher.js';
import type { ObjectRef } from '../../../client/resource-path.js';

export const FAULT_KINDS = ['timeout', '429', 'conflict', 'lost'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

const MUTATING = ['create', 'update', 'updateStatus', 'patch', 'delete', 'createSubresource'];
const READS = ['get', 'list', 'getPath'];
type Verb = string;
type Method = (...args: unknown[]) => Promise<unknown>;

export interface Preconditions {
  readonly uid?: string;
  readonly resourceVersion?: string;
}

export interface RecordedCall {
  /** 1-based position among mutating calls; 0 for reads. */
  readonly index: number;
  readonly verb: Verb;
  /** The plural, with `/status` for updateStatus and the subresource of a patch. */
  readonly resource: string;
  readonly namespace: string;
  readonly name: string;
  /** Delete preconditions, as sent. */
  readonly preconditions?: Preconditions;
  fault?: FaultKind;
  outcome: 'pending' | 'ok' | 'error';
  /** The HTTP code of a failed call, or `timeout`. */
  error?: string;
  /** The uid the server answered with (creates), or the uid a delete was fenced on. */
  uid?: string;
}

export interface FaultPlan {
  /** The call's 1-based position among the fault-free run's mutating calls (a label). */
  readonly at: number;
  /** The call to fail: the `occurrence`-th (1-based) mutating call with this signature. */
  readonly signature: string;
  readonly occurrence: number;
  readonly kind: FaultKind;
}

/**
 * One plan per mutating call of a recorded run and fault: the call is named by its signature
 * and occurrence, not its raw position, so a run whose status writes interleave a little
 * differently still fails the same call.
 */
export function plansOf(
  recorded: readonly RecordedCall[],
  kinds: readonly FaultKind[],
): FaultPlan[] {
  const seen = new Map<string, number>();
  const plans: FaultPlan[] = [];
  for (const c of recorded) {
    if (c.index === 0) continue;
    const signature = callSignature(c);
    const occurrence = (seen.get(signature) ?? 0) + 1;
    seen.set(signature, occurrence);
    for (const kind of kinds) plans.push({ at: c.index, signature, occurrence, kind });
  }
  return plans;
}

export interface FaultClient {
  readonly client: ApiClient;
  readonly calls: RecordedCall[];
  /** Resolves with the faulted call once the fault has been thrown to the caller. */
  readonly injected: Promise<RecordedCall>;
  /** Mutating calls so far. */
  mutations(): RecordedCall[];
}

/**
 * The one-line signature of a call, stable across runs and namespaces:
 * `delete persistentvolumeclaims/data-f-1`. A reservation's name is a hash of its bucket, which
 * differs per run, so it reads `*`.
 */
export function callSignature(c: Pick<RecordedCall, 'verb' | 'resource' | 'name'>): string {
  const name = c.resource === 'celldstoragereservations' ? '*' : c.name;
  return `${c.verb} ${c.resource}/${name}`;
}

function statusError(code: number, reason: string, message: string): StatusCodeError {
  return new StatusCodeError(code, {
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    code,
    reason,
    message,
  });
}

function thrownBefore(kind: FaultKind, c: RecordedCall): Error | undefined {
  const what = `${c.verb} ${c.resource}/${c.name}`;
  switch (kind) {
    case 'timeout':
      return new RequestTimeoutError(c.verb, what, 60_000);
    case '429':
      return statusError(429, 'TooManyRequests', `injected: too many requests (${what})`);
    case 'conflict':
      return statusError(409, 'Conflict', `injected: the object has been modified (${what})`);
    case 'lost':
      return undefined;
  }
}

/** What a call names, from the method's arguments. */
function describeCall(verb: Verb, args: readonly unknown[]): Omit<RecordedCall, 'index'> {
  const ref = (args[0] ?? {}) as Partial<ObjectRef>;
  const body = (verb === 'create' ? args[1] : undefined) as KubeObject | undefined;
  const options = (verb === 'delete' ? args[1] : verb === 'patch' ? args[3] : undefined) as
    | { preconditions?: Preconditions; subresource?: string }
    | undefined;
  const sub =
    verb === 'updateStatus'
      ? '/status'
      : verb === 'createSubresource'
        ? `/${String(args[1])}`
        : options?.subresource
          ? `/${options.subresource}`
          : '';
  const preconditions = verb === 'delete' ? options?.preconditions : undefined;
  return {
    verb,
    resource: `${ref.plural ?? ''}${sub}`,
    namespace: ref.namespace ?? body?.metadata?.namespace ?? '',
    name: ref.name ?? body?.metadata?.name ?? body?.metadata?.generateName ?? '',
    ...(preconditions ? { preconditions: { ...preconditions } } : {}),
    ...(preconditions?.uid ? { uid: preconditions.uid } : {}),
    outcome: 'pending',
  };
}

function errorLabel(err: unknown): string {
  if (err instanceof StatusCodeError) return String(err.code);
  if (err instanceof RequestTimeoutError) return 'timeout';
  return err instanceof Error ? err.name : 'unknown';
}

/** Wraps `real`; with no plan it only records. */
export function faultClient(
  real: ApiClient,
  plan?: FaultPlan,
  onInject?: (call: RecordedCall) => void,
): FaultClient {
  const calls: RecordedCall[] = [];
  let mutating = 0;
  const occurrences = new Map<string, number>();
  let resolveInjected: (c: RecordedCall) => void = () => {};
  const injected = new Promise<RecordedCall>((resolve) => {
    resolveInjected = (c) => {
      onInject?.(c);
      resolve(c);
    };
  });
  /** Records the call and decides whether it is the planned one. */
  const begin = (verb: Verb, args: unknown[]): [RecordedCall, FaultKind | undefined] => {
    if (!MUTATING.includes(verb)) {
      const read: RecordedCall = { index: 0, ...describeCall(verb, args) };
      calls.push(read);
      return [read, undefined];
    }
    const call: RecordedCall = { index: ++mutating, ...describeCall(verb, args) };
    calls.push(call);
    const signature = callSignature(call);
    const occurrence = (occurrences.get(signature) ?? 0) + 1;
    occurrences.set(signature, occurrence);
    if (plan?.signature !== signature || plan.occurrence !== occurrence) return [call, undefined];
    call.fault = plan.kind;
    return [call, plan.kind];
  };
  const fail = (call: RecordedCall, err: unknown, injectedHere: boolean): never => {
    call.outcome = 'error';
    call.error = errorLabel(err);
    if (injectedHere) resolveInjected(call);
    throw err;
  };
  const invoke = async (verb: Verb, method: Method, args: unknown[]): Promise<unknown> => {
    const [call, fault] = begin(verb, args);
    const before = fault === undefined ? undefined : thrownBefore(fault, call);
    if (before !== undefined) fail(call, before, true);
    let answer: unknown;
    try {
      answer = await method.apply(real, args);
    } catch (err) {
      fail(call, err, fault === 'lost');
    }
    call.outcome = 'ok';
    if (verb === 'create') call.uid = (answer as KubeObject).metadata?.uid ?? '';
    if (fault === 'lost') {
      resolveInjected(call);
      throw new RequestTimeoutError(verb, callSignature(call), 60_000);
    }
    return answer;
  };
  const client = new Proxy(real, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver === client ? target : receiver);
      if (typeof value !== 'function') return value;
      const verb = String(prop);
      if (!MUTATING.includes(verb) && !READS.includes(verb)) return value.bind(target);
      return (...args: unknown[]) => invoke(verb, value as Method, args);
    },
  });
  return {
    client,
    calls,
    injected,
    mutations: () => calls.filter((c) => c.index > 0),
  };
}
