/**
 * node.k8s.io/v1 RuntimeClasses (cluster-scoped): upstream's `ValidateRuntimeClass` (the
 * `handler` is a DNS label and immutable; `overhead.podFixed` is a resource list;
 * `scheduling` carries a node selector and tolerations without duplicates). Nothing more is
 * stored than the object: the RuntimeClass admission plugin (which adds the overhead to pods)
 * is not run, as simulated kubelets have one runtime.
 *
 * @module
 */
import { type FieldError, fieldErrors, path } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { isDNS1123Label } from '../validation/dns.js';
import { validateLabels } from '../validation/metadata-fields.js';
import { immutable, semanticEqual, withBuiltinMetadata } from './common.js';
import { getObj } from './json.js';
import { validateTolerations } from './pod-spec-validation.js';
import { validateResources } from './resources-validation.js';

const HANDLER = path('handler');

/** Upstream `validateScheduling`: the selector's labels, and each toleration once. */
function validateScheduling(obj: KubeObject): FieldError[] {
  const scheduling = getObj(obj, 'scheduling');
  if (scheduling === undefined) return [];
  const p = path('scheduling');
  const errs = [
    ...validateLabels(scheduling.nodeSelector, p.child('nodeSelector')),
    ...validateTolerations(scheduling.tolerations, p.child('tolerations')),
  ];
  const tolerations = Array.isArray(scheduling.tolerations) ? scheduling.tolerations : [];
  tolerations.forEach((t, i) => {
    if (tolerations.slice(0, i).some((seen) => semanticEqual(seen, t)))
      errs.push(fieldErrors.duplicate(p.child('tolerations').index(i), t));
  });
  return errs;
}

/** Upstream `ValidateRuntimeClass`. */
export function validateRuntimeClass(obj: KubeObject): FieldError[] {
  const handler = typeof obj.handler === 'string' ? obj.handler : '';
  const errs = isDNS1123Label(handler).map((m) => fieldErrors.invalid(HANDLER, handler, m));
  const overhead = getObj(obj, 'overhead');
  if (overhead !== undefined && overhead.podFixed !== undefined) {
    errs.push(...validateResources({ limits: overhead.podFixed }, path('overhead', 'podFixed')));
  }
  errs.push(...validateScheduling(obj));
  return errs;
}

/** node.k8s.io/v1 `runtimeclasses` (cluster-scoped). */
export const runtimeClassResource: ResourceDefinition = {
  group: 'node.k8s.io',
  version: 'v1',
  kind: 'RuntimeClass',
  listKind: 'RuntimeClassList',
  plural: 'runtimeclasses',
  singular: 'runtimeclass',
  namespaced: false,
  nameValidation: 'dns-subdomain',
  generation: 'none',
  statusSubresource: false,
  strategy: withBuiltinMetadata({
    validate: validateRuntimeClass,
    validateUpdate: (obj, old) => immutable(obj.handler, old.handler, HANDLER),
  }),
};
