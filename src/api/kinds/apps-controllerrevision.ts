/**
 * apps/v1 ControllerRevisions (StatefulSet history): `data` is required and immutable,
 * `revision` is non-negative. No status, no generation.
 *
 * @module
 */
import { fieldErrors, path } from '../field-error.js';
import type { ResourceDefinition } from '../resource.js';
import { validateNonnegativeField, validateOptionalInteger } from '../validation/numbers.js';
import { immutable, withBuiltinMetadata } from './common.js';

/** apps/v1 `controllerrevisions`. */
export const controllerRevisionResource: ResourceDefinition = {
  group: 'apps',
  version: 'v1',
  kind: 'ControllerRevision',
  listKind: 'ControllerRevisionList',
  plural: 'controllerrevisions',
  singular: 'controllerrevision',
  namespaced: true,
  nameValidation: 'dns-subdomain',
  generation: 'none',
  statusSubresource: false,
  strategy: withBuiltinMetadata({
    validate(obj) {
      const errs =
        obj.data === undefined || obj.data === null
          ? [fieldErrors.required(path('data'), 'data is mandatory')]
          : [];
      const revision = obj.revision;
      const typeErrs = validateOptionalInteger(revision, path('revision'));
      errs.push(...typeErrs);
      if (typeErrs.length === 0 && (typeof revision === 'number' || typeof revision === 'bigint')) {
        errs.push(...validateNonnegativeField(revision, path('revision')));
      }
      return errs;
    },
    validateUpdate(obj, old) {
      return immutable(obj.data, old.data, path('data'));
    },
  }),
};
