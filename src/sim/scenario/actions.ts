/**
 * The steps that are one or a few API writes — apply, patch, scale, delete, cordon,
 * uncordon, fault — and the reads behind wait and expect. Each resolves to a short message
 * for the timeline or rejects with {@link StepFailure} saying what went wrong in the words a
 * user would get from kubectl.
 *
 * - apply is server-side apply (field manager `fleetyard-scenario`, conflicts forced), in
 *   document order; a kind whose CRD the same step applied is retried while the cluster runs
 *   on for up to 10 virtual seconds, the time the CRD takes to be served.
 * - A namespaced target without a namespace is in `default`, as kubectl's.
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import { isNotFound } from '../../client/api-errors.js';
import { StatusCodeError } from '../../client/lister-watcher.js';
import type { ObjectRef } from '../../client/resource-path.js';
import type { ScenarioCluster } from './cluster.js';
import type { CheckView } from './conditions.js';
import { formatDuration } from './format.js';
import { KindNotFoundError, type KindResolver, type ResourceInfo } from './kinds.js';
import type { Check, FaultVerb, KindRef, StepAction, Target } from './types.js';

export const FIELD_MANAGER = 'fleetyard-scenario';

/** A step that did not do what it said. */
export class StepFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StepFailure';
  }
}

/** Why a long step stopped early: an invariant failed while it ran. */
export function interrupted(afterMs: number): StepFailure {
  return new StepFailure(`interrupted after ${formatDuration(afterMs)}: an invariant was violated`);
}

export interface ActionContext {
  readonly cluster: ScenarioCluster;
  readonly kinds: KindResolver;
  /** A line for the timeline under the current step. */
  note(text: string): void;
  /** True once an invariant failed: long steps stop at their next look. */
  stopped(): boolean;
}

/** `Error from server (NotFound): pods "web-9" not found`, or the error's message. */
export function describeError(err: unknown): string {
  if (err instanceof StatusCodeError) {
    const reason = err.status?.reason;
    return `Error from server${reason ? ` (${reason})` : ''}: ${err.message}`;
  }
  return err instanceof Error ? err.message : String(err);
}

export async function resolveKind(ctx: ActionContext, ref: KindRef): Promise<ResourceInfo> {
  try {
    return await ctx.kinds.resolve(ref);
  } catch (err) {
    throw new StepFailure(describeError(err));
  }
}

/** The object a target names, in its namespace (`default` for a namespaced kind without one). */
export function objectRef(
  info: ResourceInfo,
  target: Target & { readonly name: string },
): ObjectRef {
  const namespace = info.namespaced ? (target.namespace ?? 'default') : undefined;
  return {
    group: info.group,
    version: info.version,
    plural: info.plural,
    name: target.name,
    namespace,
  };
}

function stamp(info: ResourceInfo, o: KubeObject): KubeObject {
  return { ...o, kind: info.kind, apiVersion: info.apiVersion };
}

/** kubectl's `kind.group/name`: `statefulset.apps/web`, `pod/web-0`. */
export function shortName(info: ResourceInfo, name: string): string {
  return `${info.kind.toLowerCase()}${info.group ? `.${info.group}` : ''}/${name}`;
}

/** What a check looks at now: the named object (absent when not found) or the matching list. */
export async function fetchView(ctx: ActionContext, check: Check): Promise<CheckView> {
  const info = await resolveKind(ctx, check.target);
  const { name, selector } = check.target;
  try {
    if (name !== undefined) {
      const object = await ctx.cluster.client.get(objectRef(info, { ...check.target, name }));
      return { mode: 'one', object: stamp(info, object) };
    }
    const namespace = info.namespaced ? (check.target.namespace ?? 'default') : undefined;
    const list = await ctx.cluster.client.list(
      { group: info.group, version: info.version, plural: info.plural, namespace },
      selector ? { labelSelector: selector } : {},
    );
    return { mode: 'list', objects: list.items.map((o) => stamp(info, o)) };
  } catch (err) {
    if (name !== undefined && isNotFound(err)) return { mode: 'one', object: undefined };
    throw new StepFailure(describeError(err));
  }
}

/** Runs a write step; resolves to the timeline's note of what happened. */
export async function runWriteAction(
  ctx: ActionContext,
  action: StepAction,
): Promise<string | undefined> {
  switch (action.action) {
    case 'apply':
      return apply(ctx, action.objects);
    case 'patch':
      return patch(ctx, action.target, action.patch, action.patchType, action.subresource);
    case 'scale': {
      const body = { spec: { replicas: action.replicas } };
      return patch(ctx, action.target, body, 'merge', 'scale');
    }
    case 'delete':
      return remove(ctx, action);
    case 'cordon':
    case 'uncordon': {
      const ref = { group: '', version: 'v1', plural: 'nodes', name: action.node };
      const body = { spec: { unschedulable: action.action === 'cordon' ? true : null } };
      await write(() =>
        ctx.cluster.client.patch(ref, body, 'merge', { fieldManager: FIELD_MANAGER }),
      );
      return `node/${action.node} ${action.action}ed`;
    }
    case 'fault':
      await injectFault(ctx.cluster, action.verb, action.target, action.namespace, action.exitCode);
      return undefined;
    default:
      throw new Error(`not a write action: ${action.action}`);
  }
}

async function patch(
  ctx: ActionContext,
  target: Target & { readonly name: string },
  body: unknown,
  type: 'merge' | 'json' | 'strategic',
  subresource: 'status' | 'scale' | undefined,
): Promise<string> {
  const info = await resolveKind(ctx, target);
  await write(() =>
    ctx.cluster.client.patch(objectRef(info, target), body, type, {
      fieldManager: FIELD_MANAGER,
      subresource,
    }),
  );
  return `${shortName(info, target.name)} ${subresource === 'scale' ? 'scaled' : 'patched'}`;
}

async function write<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw new StepFailure(describeError(err));
  }
}

/** Virtual seconds a freshly applied CRD gets to be served before its objects fail. */
const CRD_GRACE_SECONDS = 10;

async function apply(ctx: ActionContext, objects: readonly KubeObject[]): Promise<string> {
  const done: string[] = [];
  let appliedCrd = false;
  for (const obj of objects) {
    const ref = { kind: obj.kind ?? '', apiVersion: obj.apiVersion };
    const info = await resolveApplied(ctx, ref, appliedCrd, done);
    const name = obj.metadata?.name ?? '';
    const target = { ...ref, name, namespace: obj.metadata?.namespace ?? undefined };
    await write(() =>
      ctx.cluster.client.patch(objectRef(info, target), obj, 'apply', {
        fieldManager: FIELD_MANAGER,
        force: true,
      }),
    );
    if (info.kind === 'CustomResourceDefinition') {
      appliedCrd = true;
      ctx.kinds.invalidate();
    }
    done.push(shortName(info, name));
    ctx.note(`${shortName(info, name)} serverside-applied`);
  }
  return `${done.length} object${done.length === 1 ? '' : 's'} applied`;
}

/** The kind of an applied object; one whose CRD this step applied gets time to be served. */
async function resolveApplied(
  ctx: ActionContext,
  ref: KindRef,
  appliedCrd: boolean,
  done: readonly string[],
): Promise<ResourceInfo> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await ctx.kinds.resolve(ref);
    } catch (err) {
      if (!(err instanceof KindNotFoundError) || !appliedCrd || attempt >= CRD_GRACE_SECONDS) {
        const applied = done.length ? ` (applied: ${done.join(', ')})` : '';
        throw new StepFailure(`${describeError(err)}${applied}`);
      }
      await ctx.cluster.clock.advance(1000);
    }
  }
}

async function remove(
  ctx: ActionContext,
  action: Extract<StepAction, { action: 'delete' }>,
): Promise<string> {
  const info = await resolveKind(ctx, action.target);
  const options = {
    gracePeriodSeconds: action.gracePeriodSeconds,
    propagationPolicy: action.propagationPolicy,
  };
  let names: string[];
  if (action.target.name !== undefined) {
    names = [action.target.name];
  } else {
    const view = await fetchView(ctx, {
      target: action.target,
      condition: { form: 'count', count: { min: 0 } },
    });
    names = view.mode === 'list' ? view.objects.map((o) => o.metadata?.name ?? '') : [];
    if (names.length === 0) return 'no objects matched';
  }
  for (const name of names) {
    await write(() =>
      ctx.cluster.client.delete(objectRef(info, { ...action.target, name }), options),
    );
    const forced = action.gracePeriodSeconds === 0 ? ' (force deleted)' : '';
    ctx.note(`${shortName(info, name)} deleted${forced}`);
  }
  return `${names.length} deleted`;
}

/** One fault through the cluster's chaos handle (the same writes as `fleetyard chaos`). */
export async function injectFault(
  cluster: ScenarioCluster,
  verb: FaultVerb,
  target: string,
  namespace = 'default',
  exitCode?: number,
): Promise<void> {
  const c = cluster.chaos;
  const run = (): Promise<void> => {
    switch (verb) {
      case 'node-down':
        return c.nodeDown(target);
      case 'node-up':
        return c.nodeUp(target);
      case 'crash':
        return c.crash(target, { namespace, ...(exitCode !== undefined ? { exitCode } : {}) });
      case 'break-readiness':
        return c.breakReadiness(target, namespace);
      case 'restore-readiness':
        return c.restoreReadiness(target, namespace);
      case 'lose-volume':
        return c.loseVolume(target, namespace);
      case 'fail-zone':
        return c.failZone(target);
      case 'restore-zone':
        return c.restoreZone(target);
      case 'fail-node-storage':
        return c.failNodeStorage(target);
      case 'restore-node-storage':
        return c.restoreNodeStorage(target);
    }
  };
  await write(run);
}
