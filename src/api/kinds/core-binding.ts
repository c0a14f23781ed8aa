/**
 * core/v1 Bindings: `POST /api/v1/namespaces/{ns}/bindings` with a Binding named after a pod
 * binds that pod, exactly as `POST …/pods/{name}/binding` does (upstream serves both from one
 * `BindingREST`). Nothing is stored under `bindings`: the router hands the request to the
 * pods' binding handler with the pod's name taken from the body, and refuses every other
 * verb (405), as upstream whose resource serves only `create`.
 *
 * @module
 */
import { fieldErrors, path } from '../field-error.js';
import type { ResourceDefinition } from '../resource.js';

/** The verbs upstream serves for `bindings`. */
export const BINDING_VERBS: readonly string[] = ['create'];

/** core/v1 `bindings` (namespaced, create only). */
export const bindingResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'Binding',
  listKind: 'BindingList',
  plural: 'bindings',
  singular: 'binding',
  namespaced: true,
  nameValidation: 'dns-subdomain',
  generation: 'none',
  statusSubresource: false,
  strategy: {
    // A second guard: a Binding is never stored, whatever route reaches the store.
    validate() {
      return [fieldErrors.forbidden(path('metadata'), 'bindings bind pods and are not stored')];
    },
  },
};
