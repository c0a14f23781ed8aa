/**
 * core/v1 ResourceQuotas and LimitRanges as objects: their amounts are valid, non-negative
 * quantities stored in canonical form, and a LimitRange's items are defaulted and checked
 * against each other, as upstream. What they enforce lives in the API server's admission
 * (`apiserver/admission`: LimitRanger, ResourceQuota) and the quota controller
 * (`controllers/resourcequota`).
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors, path } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { canonicalQuantity, parseQuantity } from '../validation/quantity.js';
import { withBuiltinMetadata } from './common.js';
import { getObj, objects } from './json.js';
import { limitRangeItemErrors, limitTypeErrors } from './limit-range-validation.js';
import { quotaIntegerErrors, quotaResourceNameErrors } from './quota-resource-names.js';

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
  const hard = getObj(getObj(obj, 'spec'), 'hard');
  const p = path('spec', 'hard');
  const errs: FieldError[] = [];
  for (const [name, raw] of Object.entries(hard ?? {})) {
    errs.push(...quotaResourceNameErrors(name, p.key(name)));
    const amount = validateResourceList({ [name]: raw }, p);
    errs.push(...amount);
    const parsed = parseQuantity(typeof raw === 'number' ? raw : String(raw));
    if (amount.length === 0 && parsed.ok) {
      errs.push(...quotaIntegerErrors(name, parsed.quantity, raw, p.key(name)));
    }
  }
  return errs;
}

const LIMIT_FIELDS = ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'] as const;

function validateLimitRange(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<unknown>();
  objects(getObj(obj, 'spec'), 'limits').forEach((item, i) => {
    const p = path('spec', 'limits').index(i);
    errs.push(...limitTypeErrors(item.type, p.child('type')));
    if (seen.has(item.type)) errs.push(fieldErrors.duplicate(p.child('type'), item.type));
    seen.add(item.type);
    const amounts: FieldError[] = [];
    for (const field of LIMIT_FIELDS) {
      amounts.push(...validateResourceList(getObj(item, field), p.child(field)));
    }
    errs.push(...amounts);
    // The relations need every amount parsed.
    if (amounts.length === 0) errs.push(...limitRangeItemErrors(item, p));
  });
  return errs;
}

/**
 * Upstream `SetDefaults_ResourceList` (every amount rounded up to milli and stored as
 * `Quantity.String()` writes it: `1.5` becomes `1500m`) over the lists of `fields`.
 */
function canonicalLists(owner: unknown, fields: readonly string[]): void {
  for (const field of fields) {
    const list = getObj(owner, field);
    for (const [name, raw] of Object.entries(list ?? {})) {
      const canonical = canonicalQuantity(raw, true);
      if (canonical !== undefined && list) list[name] = canonical;
    }
  }
}

/**
 * Upstream `SetDefaults_LimitRangeItem`, for `Container` items only: a missing default limit
 * is the max, a missing default request the default limit, else the min.
 */
function defaultLimitRange(obj: KubeObject): void {
  for (const item of objects(getObj(obj, 'spec'), 'limits')) {
    canonicalLists(item, LIMIT_FIELDS);
    if (item.type !== 'Container') continue;
    const fill = (to: 'default' | 'defaultRequest', from: 'max' | 'default' | 'min') => {
      const source = getObj(item, from) ?? {};
      const target = { ...(getObj(item, to) ?? {}) };
      for (const [name, value] of Object.entries(source))
        if (!(name in target)) target[name] = value;
      if (Object.keys(target).length > 0) item[to] = target;
    };
    fill('default', 'max');
    fill('defaultRequest', 'default');
    fill('defaultRequest', 'min');
  }
}

function defaultResourceQuota(obj: KubeObject): void {
  canonicalLists(getObj(obj, 'spec'), ['hard']);
  canonicalLists(getObj(obj, 'status'), ['hard', 'used']);
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
  strategy: withBuiltinMetadata({
    defaults: defaultResourceQuota,
    validate: validateResourceQuota,
  }),
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
  strategy: withBuiltinMetadata({ defaults: defaultLimitRange, validate: validateLimitRange }),
};
