/**
 * Which resource names a ResourceQuota may limit (upstream `ValidateResourceQuotaResourceName`
 * and the integer rule of `ValidateResourceQuantityValue`): a qualified name; one without a
 * `/` must be a standard resource (`must be a standard resource type or fully qualified`) and a
 * standard quota resource (`must be a standard resource for quota`); object counts are whole.
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors } from '../field-error.js';
import { isQualifiedName } from '../validation/label-names.js';
import type { Quantity } from '../validation/quantity.js';

const COUNTS = [
  'pods',
  'services',
  'replicationcontrollers',
  'resourcequotas',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
];
const COMPUTE = [
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
];
/** Upstream `standardQuotaResources`. */
const QUOTA_RESOURCES = new Set([...COUNTS, ...COMPUTE, 'requests.storage']);
/** Upstream `standardResources`: the quota ones and `storage`. */
const STANDARD_RESOURCES = new Set([...QUOTA_RESOURCES, 'storage']);
const INTEGER_RESOURCES = new Set(COUNTS);

function isHugePages(name: string): boolean {
  return name.startsWith('hugepages-') || name.startsWith('requests.hugepages-');
}

/** Upstream `IsExtendedResourceName`: a qualified name outside `kubernetes.io/`, not `requests.`. */
function isExtended(name: string): boolean {
  if (!name.includes('/') || name.startsWith('requests.')) return false;
  const domain = name.slice(0, name.indexOf('/'));
  return !(domain === 'kubernetes.io' || domain.endsWith('.kubernetes.io'));
}

export function quotaResourceNameErrors(name: string, p: FieldPath): FieldError[] {
  const msgs = isQualifiedName(name);
  if (msgs.length > 0) return msgs.map((m) => fieldErrors.invalid(p, name, m));
  if (name.includes('/')) return [];
  const errs: FieldError[] = [];
  if (!STANDARD_RESOURCES.has(name) && !isHugePages(name)) {
    errs.push(fieldErrors.invalid(p, name, 'must be a standard resource type or fully qualified'));
  }
  if (!QUOTA_RESOURCES.has(name) && !isHugePages(name)) {
    errs.push(fieldErrors.invalid(p, name, 'must be a standard resource for quota'));
  }
  return errs;
}

/** Object counts and extended resources must be whole numbers. */
export function quotaIntegerErrors(
  name: string,
  q: Quantity,
  raw: unknown,
  p: FieldPath,
): FieldError[] {
  if (!INTEGER_RESOURCES.has(name) && !isExtended(name)) return [];
  return q.nanos % 1_000_000_000n === 0n ? [] : [fieldErrors.invalid(p, raw, 'must be an integer')];
}
