/**
 * `pods/{name}/resize` (in-place resize, beta in v1.33: `kubectl patch --subresource resize`):
 * GET reads the Pod; PUT and PATCH change only the containers' (and sidecars')
 * `resources` and `resizePolicy` (upstream `dropNonResizeUpdates`: every other change is
 * dropped), with upstream's `ValidatePodResize` rules: not a static or Windows pod; the QoS
 * class may not change; requests and limits may not be removed; only cpu and memory may
 * change; a resize policy names cpu or memory and `NotRequired` or `RestartContainer`.
 * Acting on it (allocating, `PodResizePending` / `PodResizeInProgress`) is the node's part.
 *
 * @module
 */
import { methodNotSupported } from '../../api/errors.js';
import { type FieldError, type FieldPath, fieldErrors, path } from '../../api/field-error.js';
import { deepEqualJson, getObj, getStr, type JsonObject, objects } from '../../api/kinds/json.js';
import { podQOSClass } from '../../api/kinds/qos.js';
import type { KubeObject } from '../../api/object.js';
import { groupResource } from '../../api/resource.js';
import { sendJson } from '../http/respond.js';
import type { ApiServices, ResourceCall } from './context.js';
import { handlePatch } from './patch.js';
import { type PartialUpdate, restrictedServices } from './pod-subresource-write.js';
import { handleUpdate } from './write.js';

const SPEC = path('spec');
const MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';
const MUTABLE = new Set(['cpu', 'memory']);

export async function handleResize(api: ApiServices, call: ResourceCall): Promise<void> {
  const { def, info } = call;
  switch (info.verb) {
    case 'get':
      sendJson(call.res, 200, api.store.getJson(def, info.namespace, info.name).value);
      return;
    case 'update':
      return handleUpdate(restrictedServices(api, RESIZE), call);
    case 'patch':
      return handlePatch(restrictedServices(api, RESIZE), call);
    default:
      throw methodNotSupported(groupResource(def), info.verb);
  }
}

function specOf(o: KubeObject): JsonObject {
  return getObj(o, 'spec') ?? {};
}

/** Sidecars (init containers that restart) are resizable as regular containers are. */
function resizable(spec: JsonObject, key: 'containers' | 'initContainers'): JsonObject[] {
  const list = objects(spec, key);
  return key === 'containers' ? list : list.filter((c) => c.restartPolicy === 'Always');
}

export const RESIZE: PartialUpdate = {
  restrict(proposed, current) {
    const next = structuredClone(current);
    const nextSpec = specOf(next);
    for (const key of ['containers', 'initContainers'] as const) {
      const wanted = new Map(objects(specOf(proposed), key).map((c) => [getStr(c, 'name'), c]));
      for (const c of resizable(nextSpec, key)) {
        const w = wanted.get(getStr(c, 'name'));
        if (w === undefined) continue;
        for (const field of ['resources', 'resizePolicy']) {
          if (w[field] === undefined) delete c[field];
          else c[field] = w[field];
        }
      }
    }
    const rv = proposed.metadata?.resourceVersion;
    if (rv !== undefined && next.metadata) next.metadata.resourceVersion = rv;
    return next;
  },
  validate(next, current) {
    return validateResize(next, current);
  },
};

/** Upstream `ValidatePodResize` (see the module comment). */
export function validateResize(next: KubeObject, current: KubeObject): FieldError[] {
  if (current.metadata?.annotations?.[MIRROR_ANNOTATION] !== undefined) {
    return [fieldErrors.forbidden('', 'static pods cannot be resized')];
  }
  const spec = specOf(next);
  const oldSpec = specOf(current);
  if (getStr(getObj(oldSpec, 'os'), 'name') === 'windows') {
    return [fieldErrors.forbidden('', 'windows pods cannot be resized')];
  }
  const errors: FieldError[] = [];
  if (podQOSClass(oldSpec) !== podQOSClass(spec)) {
    const shown = getStr(getObj(next, 'status'), 'qosClass') ?? '';
    errors.push(
      fieldErrors.invalid(SPEC, shown, 'Pod QOS Class may not change as a result of resizing'),
    );
  }
  let otherChanged = false;
  for (const key of ['initContainers', 'containers'] as const) {
    const olds = resizable(oldSpec, key);
    resizable(spec, key).forEach((c, i) => {
      const at = SPEC.child(key).index(objects(spec, key).indexOf(c));
      const old = olds[i];
      if (old === undefined) return;
      errors.push(
        ...removals(getObj(c, 'resources'), getObj(old, 'resources'), at.child('resources')),
      );
      errors.push(...policyErrors(c, at));
      if (!sameExceptCpuMemory(getObj(c, 'resources'), getObj(old, 'resources')))
        otherChanged = true;
    });
  }
  if (otherChanged)
    errors.push(fieldErrors.forbidden(SPEC, 'only cpu and memory resources are mutable'));
  return errors;
}

function removals(
  res: JsonObject | undefined,
  old: JsonObject | undefined,
  at: FieldPath,
): FieldError[] {
  const errors: FieldError[] = [];
  for (const list of ['requests', 'limits']) {
    const now = getObj(res, list) ?? {};
    for (const name of Object.keys(getObj(old, list) ?? {})) {
      if (now[name] === undefined) {
        errors.push(
          fieldErrors.forbidden(at.child(list).key(name), 'resource removal is not allowed'),
        );
      }
    }
  }
  return errors;
}

function policyErrors(c: JsonObject, at: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  objects(c, 'resizePolicy').forEach((p, i) => {
    const here = at.child('resizePolicy').index(i);
    if (!MUTABLE.has(String(p.resourceName))) {
      errors.push(
        fieldErrors.notSupported(here.child('resourceName'), p.resourceName, ['cpu', 'memory']),
      );
    }
    if (p.restartPolicy !== 'NotRequired' && p.restartPolicy !== 'RestartContainer') {
      errors.push(
        fieldErrors.notSupported(here.child('restartPolicy'), p.restartPolicy, [
          'NotRequired',
          'RestartContainer',
        ]),
      );
    }
  });
  return errors;
}

/** The two resource lists with cpu and memory left out. */
function sameExceptCpuMemory(a: JsonObject | undefined, b: JsonObject | undefined): boolean {
  const strip = (r: JsonObject | undefined) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(r ?? {})) {
      if (k !== 'requests' && k !== 'limits') out[k] = v;
      else {
        const kept = Object.entries(getObj(r, k) ?? {}).filter(([n]) => !MUTABLE.has(n));
        if (kept.length > 0) out[k] = Object.fromEntries(kept);
      }
    }
    return out;
  };
  return deepEqualJson(strip(a), strip(b));
}
