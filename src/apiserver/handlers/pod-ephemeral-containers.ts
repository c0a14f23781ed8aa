/**
 * `pods/{name}/ephemeralcontainers` (what `kubectl debug` patches): GET reads the Pod; PUT and
 * PATCH change only `spec.ephemeralContainers` (upstream `podEphemeralContainersStrategy`:
 * everything else is taken from the stored pod), with upstream's
 * `ValidatePodEphemeralContainersUpdate` rules: containers may be added, never removed or
 * changed; a new one needs a name unique among all the pod's containers and an image, may not
 * set ports, probes, lifecycle, resources, resizePolicy or restartPolicy, nor a volume mount's
 * subPath, and its `targetContainerName` must name one of the pod's containers. The simulated
 * kubelet then runs it (its status in `status.ephemeralContainerStatuses`).
 *
 * @module
 */
import { methodNotSupported } from '../../api/errors.js';
import { type FieldError, fieldErrors, path } from '../../api/field-error.js';
import {
  deepEqualJson,
  getArr,
  getObj,
  isJsonObject,
  type JsonObject,
  objects,
} from '../../api/kinds/json.js';
import type { KubeObject } from '../../api/object.js';
import { groupResource } from '../../api/resource.js';
import { sendJson } from '../http/respond.js';
import type { ApiServices, ResourceCall } from './context.js';
import { handlePatch } from './patch.js';
import { type PartialUpdate, restrictedServices } from './pod-subresource-write.js';
import { handleUpdate } from './write.js';

const SPEC_PATH = path('spec', 'ephemeralContainers');

/** Container fields an ephemeral container may not set (upstream's allow-list, inverted). */
const FORBIDDEN = [
  'ports',
  'resources',
  'resizePolicy',
  'restartPolicy',
  'lifecycle',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
];

export async function handleEphemeralContainers(
  api: ApiServices,
  call: ResourceCall,
): Promise<void> {
  const { def, info } = call;
  switch (info.verb) {
    case 'get':
      sendJson(call.res, 200, api.store.getJson(def, info.namespace, info.name).value);
      return;
    case 'update':
      return handleUpdate(restrictedServices(api, EPHEMERAL), call);
    case 'patch':
      return handlePatch(restrictedServices(api, EPHEMERAL), call);
    default:
      throw methodNotSupported(groupResource(def), info.verb);
  }
}

function spec(o: KubeObject): JsonObject {
  return getObj(o, 'spec') ?? {};
}

export const EPHEMERAL: PartialUpdate = {
  restrict(proposed, current) {
    const next = structuredClone(current);
    const ephemeral = getArr(spec(proposed), 'ephemeralContainers');
    const nextSpec = spec(next);
    if (ephemeral === undefined) delete nextSpec.ephemeralContainers;
    else nextSpec.ephemeralContainers = ephemeral;
    next.spec = nextSpec;
    // The caller's resourceVersion stays a precondition, as upstream keeps it.
    const rv = proposed.metadata?.resourceVersion;
    if (rv !== undefined && next.metadata) next.metadata.resourceVersion = rv;
    return next;
  },
  validate(next, current) {
    return validateEphemeralUpdate(spec(next), spec(current));
  },
};

/** Upstream `ValidatePodEphemeralContainersUpdate` (the spec part). */
export function validateEphemeralUpdate(spec: JsonObject, oldSpec: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  const next = objects(spec, 'ephemeralContainers');
  const byName = new Map(next.map((c) => [String(c.name ?? ''), c]));
  for (const old of objects(oldSpec, 'ephemeralContainers')) {
    const name = String(old.name ?? '');
    const now = byName.get(name);
    if (now === undefined) {
      errors.push(
        fieldErrors.forbidden(
          SPEC_PATH,
          `existing ephemeral containers ${JSON.stringify(name)} may not be removed\n`,
        ),
      );
    } else if (!deepEqualJson(now, old)) {
      errors.push(
        fieldErrors.forbidden(
          SPEC_PATH.child(name),
          `existing ephemeral containers ${JSON.stringify(name)} may not be changed\n`,
        ),
      );
    }
  }
  const others = [...objects(spec, 'containers'), ...objects(spec, 'initContainers')].map((c) =>
    String(c.name ?? ''),
  );
  const seen = new Set(others);
  next.forEach((c, i) => {
    const at = SPEC_PATH.index(i);
    const name = typeof c.name === 'string' ? c.name : '';
    if (name === '') errors.push(fieldErrors.required(at.child('name')));
    else if (seen.has(name)) errors.push(fieldErrors.duplicate(at.child('name'), name));
    seen.add(name);
    if (typeof c.image !== 'string' || c.image.trim() === '')
      errors.push(fieldErrors.required(at.child('image')));
    for (const field of FORBIDDEN) {
      if (c[field] !== undefined && !isEmpty(c[field])) {
        errors.push(
          fieldErrors.forbidden(at.child(field), 'cannot be set for an Ephemeral Container'),
        );
      }
    }
    objects(c, 'volumeMounts').forEach((m, j) => {
      if (typeof m.subPath === 'string' && m.subPath !== '') {
        errors.push(
          fieldErrors.forbidden(
            at.child('volumeMounts').index(j).child('subPath'),
            'cannot be set for an Ephemeral Container',
          ),
        );
      }
    });
    const target = c.targetContainerName;
    if (typeof target === 'string' && target !== '' && !others.includes(target)) {
      errors.push(fieldErrors.notFound(at.child('targetContainerName'), target));
    }
  });
  return errors;
}

/** An empty list or object is what Go's zero value serialises to: not "set". */
function isEmpty(v: unknown): boolean {
  if (Array.isArray(v)) return v.length === 0;
  return isJsonObject(v) && Object.keys(v).length === 0;
}
