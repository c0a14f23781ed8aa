/**
 * core/v1 ResourceQuotas and LimitRanges, served as stored objects (`kubectl describe
 * namespace` lists both). Their amounts must be valid, non-negative quantities, as upstream
 * validates them; quota admission and usage tracking (`status.used`) are not modelled.
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors, path } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { parseQuantity } from '../validation/quantity.js';
import { withBuiltinMetadata } from './common.js';
import { getObj, objects } from './json.js';

/** Upstream `ValidateResourceQuantityValue` for each entry of a resource list. */
function validateResourceList(
  list: Record<string, unknown> | undefined,
  p: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  for (const [name, raw] of Object.entries(list ?? {})) {
    const value = typeof raw === 'number' || typeof raw === 'string' ? raw : String(raw);
    const parsed = parseQuantity(value);
    if (!parsed.ok) {
      errs.push(fieldErrors.invalid(p.key(name), value, parsed.error));
    } else if (parsed.quantity.nanos < 0n) {
      errs.push(fieldErrors.invalid(p.key(name), value, 'must be greater than or equal to 0'));
    }
  }
  return errs;
}

function validateResourceQuota(obj: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec');
  return validateResourceList(getObj(spec, 'hard'), path('spec', 'hard'));
}

function validateLimitRange(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  objects(getObj(obj, 'spec'), 'limits').forEach((item, i) => {
    const p = path('spec', 'limits').index(i);
    for (const field of ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio']) {
      errs.push(...validateResourceList(getObj(item, field), p.child(field)));
    }
  });
  return errs;
}

export const resourceQuotaResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'ResourceQuota',
  listKind: 'ResourceQuotaList',
  plural: 'resourcequotas',
  singular: 'resourcequota',
  namespaced: true,
  shortNames: ['quota'],
  nameValidation: 'dns-subdomain',
  generation: 'none',
  statusSubresource: true,
  strategy: withBuiltinMetadata({ validate: validateResourceQuota }),
};

export const limitRangeResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'LimitRange',
  listKind: 'LimitRangeList',
  plural: 'limitranges',
  singular: 'limitrange',
  namespaced: true,
  shortNames: ['limits'],
  nameValidation: 'dns-subdomain',
  generation: 'none',
  statusSubresource: false,
  strategy: withBuiltinMetadata({ validate: validateLimitRange }),
};
