/**
 * apps/v1 ReplicaSets: `SetDefaults_ReplicaSet`, `ValidateReplicaSetSpec`, immutable selector,
 * `/scale`, and the `status.replicas` field selector.
 *
 * @module
 */
import type { FieldError } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import {
  immutableSelector,
  nonNegativeInt,
  validateReplicaSetLikeTemplate,
  WORKLOAD_SCALE,
} from './apps-common.js';
import { withBuiltinMetadata } from './common.js';
import { getNum, getObj, setDefault, specOf } from './json.js';
import { defaultTemplateOf } from './pod-defaults.js';

function validate(obj: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  return [
    ...nonNegativeInt(spec, 'replicas'),
    ...nonNegativeInt(spec, 'minReadySeconds'),
    ...validateReplicaSetLikeTemplate(spec),
  ];
}

/** apps/v1 `replicasets` (`rs`, category `all`, `/status`, `/scale`). */
export const replicaSetResource: ResourceDefinition = {
  group: 'apps',
  version: 'v1',
  kind: 'ReplicaSet',
  listKind: 'ReplicaSetList',
  plural: 'replicasets',
  singular: 'replicaset',
  namespaced: true,
  shortNames: ['rs'],
  categories: ['all'],
  nameValidation: 'dns-subdomain',
  generation: 'spec',
  statusSubresource: true,
  scale: WORKLOAD_SCALE,
  strategy: withBuiltinMetadata({
    defaults(obj) {
      const spec = specOf(obj);
      if (spec === undefined) return;
      setDefault(spec, 'replicas', 1);
      defaultTemplateOf(spec);
    },
    prepareForCreate(obj) {
      // `replicas` is not omitempty in ReplicaSetStatus, so a fresh status shows it as 0.
      obj.status = { replicas: 0 };
    },
    validate,
    validateUpdate: immutableSelector,
    selectableFields(obj) {
      return { 'status.replicas': String(getNum(getObj(obj, 'status'), 'replicas') ?? 0) };
    },
  }),
};
