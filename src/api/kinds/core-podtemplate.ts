/**
 * core/v1 PodTemplates: a stored pod template (`template`), defaulted and validated as the
 * templates of workloads are (upstream `ValidatePodTemplate`, `SetDefaults_PodSpec` through
 * the template). Upstream's strategy tracks generation on template changes; `spec` generation
 * here counts every field outside metadata, which for a PodTemplate is `template` alone.
 *
 * @module
 */
import { path } from '../field-error.js';
import type { ResourceDefinition } from '../resource.js';
import { withBuiltinMetadata } from './common.js';
import { defaultTemplateOf } from './pod-defaults.js';
import { validatePodTemplateSpec } from './pod-spec-validation.js';

/** core/v1 `podtemplates` (namespaced, no short name). */
export const podTemplateResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'PodTemplate',
  listKind: 'PodTemplateList',
  plural: 'podtemplates',
  singular: 'podtemplate',
  namespaced: true,
  nameValidation: 'dns-subdomain',
  generation: 'spec',
  statusSubresource: false,
  strategy: withBuiltinMetadata({
    defaults(obj) {
      // The object itself holds `template`, as a workload's spec does.
      if (obj.template !== undefined && obj.template !== null) defaultTemplateOf(obj);
    },
    validate(obj) {
      return validatePodTemplateSpec(obj.template, path('template'));
    },
  }),
};
