/**
 * Writes through a pod subresource that may change only part of the pod (`ephemeralcontainers`:
 * `spec.ephemeralContainers`; `resize`: containers' resources), as upstream's subresource
 * strategies do: the request is decoded, patched (every patch type, apply included) and
 * field-managed by the ordinary handlers (`write.ts`, `patch.ts`), and this store wrapper then
 * keeps only the part the subresource owns from their result (upstream `dropNon…Updates`),
 * validates it with the subresource's own rules, and writes the rest as stored.
 *
 * The store checks only the metadata of these writes (`store/validate.ts`): the pod's general
 * update rules (`pod-update.ts`) forbid exactly the changes these subresources exist to make,
 * and their own rules ran here already.
 *
 * @module
 */
import { invalid } from '../../api/errors.js';
import type { FieldError } from '../../api/field-error.js';
import type { KubeObject } from '../../api/object.js';
import type { ObjectStore, UpdateFn, UpdateOptions } from '../store/object-store.js';
import type { ApiServices } from './context.js';

/** Keeps what the subresource may change from `proposed` over `current`, and checks it. */
export interface PartialUpdate {
  restrict(proposed: KubeObject, current: KubeObject): KubeObject;
  validate(next: KubeObject, current: KubeObject): FieldError[];
}

/** `api` with a store whose updates go through `rule`. */
export function restrictedServices(api: ApiServices, rule: PartialUpdate): ApiServices {
  const store = api.store;
  const update = (
    def: Parameters<ObjectStore['update']>[0],
    namespace: string,
    name: string,
    fn: UpdateFn,
    options: UpdateOptions = {},
  ) =>
    store.update(
      def,
      namespace,
      name,
      (current) => {
        const next = rule.restrict(fn(current), current);
        const errors = rule.validate(next, current);
        if (errors.length > 0) {
          throw invalid({ group: '', kind: 'Pod' }, name, errors);
        }
        return next;
      },
      options,
    );
  const wrapped = new Proxy(store, {
    get(target, prop) {
      if (prop === 'update') return update;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { ...api, store: wrapped };
}
