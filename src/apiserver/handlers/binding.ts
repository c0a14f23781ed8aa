/**
 * `POST …/pods/{name}/binding`: how a scheduler assigns a pod to a node (upstream
 * `BindingREST.Create` / `setPodHostAndAnnotations`). The pod must not be bound yet (409
 * `pod x is already assigned to node "n"`) nor being deleted; binding sets `spec.nodeName`,
 * copies the Binding's annotations, and sets `PodScheduled=True`. Answers 201 with a Success
 * Status, as upstream.
 *
 * @module
 */
import { conflict, invalid } from '../../api/errors.js';
import { type FieldError, fieldErrors, path } from '../../api/field-error.js';
import { getObj, objects } from '../../api/kinds/json.js';
import type { JsonObject, KubeObject } from '../../api/object.js';
import { formatTime } from '../../api/time.js';
import { decodeObjectBody, readBody } from '../http/body.js';
import { sendJson } from '../http/respond.js';
import type { ApiServices, ResourceCall } from './context.js';
import { isDryRun } from './context.js';
import { asObjectOf, checkName } from './object-body.js';

const BINDINGS = { group: '', resource: 'pods/binding' };

/** Upstream `ValidatePodBinding`, of the Binding's `target`. */
function validateTarget(target: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  if (target.kind !== undefined && target.kind !== '' && target.kind !== 'Node') {
    errs.push(fieldErrors.notSupported(path('target', 'kind'), target.kind, ['Node', '<empty>']));
  }
  if (!target.name) errs.push(fieldErrors.required(path('target', 'name')));
  return errs;
}

export async function handleBinding(api: ApiServices, call: ResourceCall): Promise<void> {
  const { def, info } = call;
  const raw = await decodeObjectBody(await readBody(call.req), call.req.headers['content-type']);
  const binding = asObjectOf(def, raw, 'Binding', 'v1');
  // `POST …/namespaces/{ns}/bindings` names the pod in the body; `pods/{name}/binding` in the URL.
  const name = info.name !== '' ? info.name : (binding.metadata?.name ?? '');
  checkName(binding, name);
  const target = getObj(binding, 'target') ?? {};
  const errors = validateTarget(target);
  if (errors.length > 0) throw invalid({ group: '', kind: 'Binding' }, name, errors);
  const node = target.name ?? '';
  const now = formatTime(api.clock.now());
  await api.store.update(def, info.namespace, name, (pod) => bound(pod, binding, node, now), {
    dryRun: isDryRun(call.query),
    subresource: 'binding',
  });
  sendJson(call.res, 201, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    code: 201,
  });
}

function bound(pod: KubeObject, binding: KubeObject, node: unknown, now: string): KubeObject {
  const name = pod.metadata?.name ?? '';
  if (pod.metadata?.deletionTimestamp) {
    throw conflict(BINDINGS, name, `pod ${name} is being deleted, cannot be assigned to a host`);
  }
  const spec = getObj(pod, 'spec') ?? {};
  if (spec.nodeName) {
    throw conflict(
      BINDINGS,
      name,
      `pod ${name} is already assigned to node ${JSON.stringify(spec.nodeName)}`,
    );
  }
  const annotations = { ...pod.metadata?.annotations, ...binding.metadata?.annotations };
  const status = getObj(pod, 'status') ?? {};
  const conditions = objects(status, 'conditions').filter((c) => c.type !== 'PodScheduled');
  const previous = objects(status, 'conditions').find((c) => c.type === 'PodScheduled');
  conditions.push({
    type: 'PodScheduled',
    status: 'True',
    lastProbeTime: null,
    lastTransitionTime: previous?.status === 'True' ? (previous.lastTransitionTime ?? now) : now,
  });
  return {
    ...pod,
    metadata: {
      ...pod.metadata,
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    },
    spec: { ...spec, nodeName: node },
    status: { ...status, conditions },
  };
}
