/**
 * The `/scale` subresource: an autoscaling/v1 Scale view of a workload's replica count.
 * Reading it reports `spec.replicas`, `status.replicas` and the selector as a string;
 * writing it sets the parent's `spec.replicas` (which bumps the parent's generation).
 *
 * @module
 */
import { invalid } from '../../api/errors.js';
import { fieldErrors, path } from '../../api/field-error.js';
import { isJsonObject, type JsonObject, type KubeObject, valueAtPath } from '../../api/object.js';
import { formatLabelSelector } from '../../api/printers/format.js';
import type { ResourceDefinition, ScaleSpec } from '../../api/resource.js';
import { decodeObjectBody, readBody } from '../http/body.js';
import { sendJson } from '../http/respond.js';
import type { ApiServices, ResourceCall } from './context.js';
import { isDryRun } from './context.js';
import { trackUpdates } from './field-manager.js';
import { kindSchema } from './kind-schema.js';
import { asObjectOf, checkName } from './object-body.js';
import { checkResourceVersion } from './write.js';

function setPath(obj: JsonObject, dotted: string, value: unknown): void {
  const parts = dotted.replace(/^\./, '').split('.');
  let cur = obj;
  for (const part of parts.slice(0, -1)) {
    const next = cur[part];
    if (isJsonObject(next)) {
      cur = next;
    } else {
      const made: JsonObject = {};
      cur[part] = made;
      cur = made;
    }
  }
  cur[parts.at(-1)!] = value;
}

function scaleSpecOf(def: ResourceDefinition): ScaleSpec {
  if (def.scale === undefined) throw new Error(`${def.plural} has no scale subresource`);
  return def.scale;
}

/** `labels.SelectorFromSet(m).String()`: `k=v` pairs sorted by key, comma-separated. */
function mapSelectorString(m: unknown): string {
  if (!isJsonObject(m)) return '';
  return Object.keys(m)
    .sort()
    .map((k) => `${k}=${String(m[k])}`)
    .join(',');
}

/** The Scale object for a workload. */
export function scaleOf(def: ResourceDefinition, obj: KubeObject): KubeObject {
  const spec = scaleSpecOf(def);
  const meta = obj.metadata ?? {};
  const selector =
    spec.labelSelectorPath === undefined ? undefined : valueAtPath(obj, spec.labelSelectorPath);
  const status: Record<string, unknown> = {
    replicas: Number(valueAtPath(obj, spec.statusReplicasPath) ?? 0),
  };
  if (typeof selector === 'string') status.selector = selector;
  else if (spec.selectorIsMap === true) status.selector = mapSelectorString(selector);
  else if (selector !== undefined && selector !== null)
    status.selector = formatLabelSelector(selector);
  const scaleMeta: Record<string, unknown> = {
    name: meta.name,
    namespace: meta.namespace,
    uid: meta.uid,
    resourceVersion: meta.resourceVersion,
    creationTimestamp: meta.creationTimestamp,
  };
  for (const k of Object.keys(scaleMeta)) if (scaleMeta[k] === undefined) delete scaleMeta[k];
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: scaleMeta,
    spec: { replicas: Number(valueAtPath(obj, spec.specReplicasPath) ?? 0) },
    status,
  };
}

/** The workload with the Scale's `spec.replicas` written into it. */
export function applyScale(
  def: ResourceDefinition,
  current: KubeObject,
  scale: KubeObject,
): KubeObject {
  const replicas = valueAtPath(scale, 'spec.replicas') ?? 0;
  const name = current.metadata?.name ?? '';
  if (typeof replicas !== 'number' || !Number.isInteger(replicas)) {
    throw invalid({ group: 'autoscaling', kind: 'Scale' }, name, [
      fieldErrors.invalid(path('spec', 'replicas'), replicas, 'must be an integer'),
    ]);
  }
  if (replicas < 0) {
    throw invalid({ group: 'autoscaling', kind: 'Scale' }, name, [
      fieldErrors.invalid(path('spec', 'replicas'), replicas, 'must be greater than or equal to 0'),
    ]);
  }
  const next = structuredClone(current);
  setPath(next, scaleSpecOf(def).specReplicasPath, replicas);
  return next;
}

export function handleGetScale(api: ApiServices, call: ResourceCall): void {
  const obj = api.store.get(call.def, call.info.namespace, call.info.name);
  sendJson(call.res, 200, scaleOf(call.def, obj));
}

export async function handleUpdateScale(api: ApiServices, call: ResourceCall): Promise<void> {
  const { def, info } = call;
  const raw = await decodeObjectBody(await readBody(call.req), call.req.headers['content-type']);
  const scale = asObjectOf(def, raw, 'Scale', 'autoscaling/v1');
  checkName(scale, info.name);
  const result = await api.store.update(
    def,
    info.namespace,
    info.name,
    (current) => {
      checkResourceVersion(call, scale, current);
      return applyScale(def, current, scale);
    },
    {
      dryRun: isDryRun(call.query),
      track: trackUpdates(api, call, await kindSchema(def)),
      admit: api.admit?.(call, 'UPDATE'),
    },
  );
  sendJson(call.res, 200, scaleOf(def, result.object));
}
