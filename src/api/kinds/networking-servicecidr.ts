/**
 * networking.k8s.io/v1 ServiceCIDRs (cluster-scoped, `/status`) and IPAddresses (`ip`,
 * cluster-scoped), GA and served by default in v1.33 (KEP-1880, MultiCIDRServiceAllocator):
 * upstream's `ValidateServiceCIDR` (one or two CIDRs, one per family; only a single-stack
 * range may gain its second family on update), `ValidateIPAddress` (the name is an IP in
 * canonical form, e.g. `10.96.0.1` or `2001:db8::1`; `parentRef` required and immutable).
 * The API server's bootstrap creates the default `kubernetes` ServiceCIDR and one IPAddress
 * per allocated ClusterIP (`apiserver/bootstrap/cluster-objects.ts`).
 *
 * @module
 */
import { ipFamily } from '../../util/ip.js';
import { type FieldError, type FieldPath, fieldErrors, path } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { isDNS1123Subdomain } from '../validation/dns.js';
import { isValidCIDR, parseCIDRSloppy } from '../validation/ip.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../validation/messages.js';
import { isValidPathSegmentName } from '../validation/names.js';
import { immutable, SPEC, withBuiltinMetadata } from './common.js';
import { getArr, getObj, getStr } from './json.js';

/** The name of the ServiceCIDR the API server creates from its service range. */
export const DEFAULT_SERVICE_CIDR_NAME = 'kubernetes';
/** Labels upstream's IP allocator puts on each IPAddress it creates. */
export const IP_FAMILY_LABEL = 'ipaddress.kubernetes.io/ip-family';
export const IP_MANAGED_BY_LABEL = 'ipaddress.kubernetes.io/managed-by';
/** Upstream `ControllerName` of the ClusterIP allocator. */
export const IP_ALLOCATOR_MANAGER = 'ipallocator.k8s.io';

const CIDRS = SPEC.child('cidrs');

function cidrStrings(obj: KubeObject): string[] {
  return (getArr(getObj(obj, 'spec'), 'cidrs') ?? []).map((c) => (typeof c === 'string' ? c : ''));
}

/** Upstream `ValidateServiceCIDR`. */
function validateServiceCIDR(obj: KubeObject): FieldError[] {
  const cidrs = cidrStrings(obj);
  const spec = getObj(obj, 'spec') ?? {};
  if (cidrs.length === 0) return [fieldErrors.required(CIDRS, 'at least one CIDR required')];
  if (cidrs.length > 2) return [fieldErrors.invalid(CIDRS, spec, 'may only hold up to 2 values')];
  if (cidrs.length === 2) {
    const families = cidrs.map((c) => parseCIDRSloppy(c)?.family);
    if (families.includes(undefined) || families[0] === families[1]) {
      return [
        fieldErrors.invalid(
          CIDRS,
          spec,
          'may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64',
        ),
      ];
    }
  }
  return cidrs.flatMap((c, i) => isValidCIDR(CIDRS.index(i), c));
}

/** Upstream `ValidateServiceCIDRUpdate` (v1.33: a single-stack range may become dual-stack). */
function validateServiceCIDRUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const next = cidrStrings(obj);
  const prev = cidrStrings(old);
  if (next.length === prev.length) {
    return prev.flatMap((c, i) =>
      c === next[i]
        ? []
        : [fieldErrors.invalid(CIDRS.index(i), next[i], FIELD_IMMUTABLE_ERROR_MSG)],
    );
  }
  if (prev.length === 1 && next.length === 2) {
    return next[0] === prev[0]
      ? []
      : [fieldErrors.invalid(CIDRS.index(0), next[0], FIELD_IMMUTABLE_ERROR_MSG)];
  }
  return [fieldErrors.invalid(CIDRS, next, 'field is immutable')];
}

const CONDITION_STATUSES = ['False', 'True', 'Unknown'];

/**
 * The condition checks the status writers of ServiceCIDRs, APIServices and flowcontrol
 * objects can get wrong: a type, each type once, a known status. (Upstream's status
 * validations of these kinds check no more: the default ServiceCIDR's Ready condition is
 * written without a reason.)
 */
export function validateConditions(conditions: unknown, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (Array.isArray(conditions) ? conditions : []).forEach((c, i) => {
    const cp = p.index(i);
    const type = getStr(c, 'type') ?? '';
    if (type === '') errs.push(fieldErrors.required(cp.child('type'), 'must be set'));
    else if (seen.has(type)) errs.push(fieldErrors.duplicate(cp.child('type'), type));
    seen.add(type);
    const status = getStr(c, 'status') ?? '';
    if (!CONDITION_STATUSES.includes(status))
      errs.push(fieldErrors.notSupported(cp.child('status'), status, CONDITION_STATUSES));
  });
  return errs;
}

/** networking.k8s.io/v1 `servicecidrs` (cluster-scoped, `/status`). */
export const serviceCIDRResource: ResourceDefinition = {
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'ServiceCIDR',
  listKind: 'ServiceCIDRList',
  plural: 'servicecidrs',
  singular: 'servicecidr',
  namespaced: false,
  nameValidation: 'dns-subdomain',
  generation: 'spec',
  statusSubresource: true,
  strategy: withBuiltinMetadata({
    prepareForCreate(obj) {
      delete obj.status;
    },
    validate: validateServiceCIDR,
    validateUpdate: validateServiceCIDRUpdate,
    validateStatusUpdate: (obj) =>
      validateConditions(getObj(obj, 'status')?.conditions, path('status', 'conditions')),
  }),
};

/**
 * Upstream `ValidateIPAddressName`: `netip.ParseAddr(name)` must succeed and give back the
 * name itself (IPv4 without leading zeros, IPv6 lower case and compressed as RFC 5952).
 */
export function validateIPAddressName(name: string): string[] {
  const family = ipFamily(name);
  const sloppy = /^[0-9.]+$/.test(name) && name.split('.').length === 4;
  if (family === 0 && !sloppy) return [`ParseAddr(${JSON.stringify(name)}): unable to parse IP`];
  if (family === 0) {
    return [`ParseAddr(${JSON.stringify(name)}): IPv4 field has octet with leading zero`];
  }
  if (family === 6 && new URL(`http://[${name}]/`).hostname.slice(1, -1) !== name) {
    return ['must be a canonical format IP address'];
  }
  return [];
}

/** Upstream `validateIPAddressParentReference`. */
function validateParentRef(obj: KubeObject): FieldError[] {
  const ref = getObj(getObj(obj, 'spec'), 'parentRef');
  const p = SPEC.child('parentRef');
  if (ref === undefined) return [fieldErrors.required(p, '')];
  const errs: FieldError[] = [];
  const group = getStr(ref, 'group') ?? '';
  if (group !== '') {
    for (const m of isDNS1123Subdomain(group))
      errs.push(fieldErrors.invalid(p.child('group'), group, m));
  }
  for (const key of ['resource', 'namespace', 'name']) {
    const v = getStr(ref, key) ?? '';
    if (v === '') {
      if (key !== 'namespace') errs.push(fieldErrors.required(p.child(key), ''));
      continue;
    }
    for (const m of isValidPathSegmentName(v)) errs.push(fieldErrors.invalid(p.child(key), v, m));
  }
  return errs;
}

/** networking.k8s.io/v1 `ipaddresses` (`ip`, cluster-scoped). */
export const ipAddressResource: ResourceDefinition = {
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'IPAddress',
  listKind: 'IPAddressList',
  plural: 'ipaddresses',
  singular: 'ipaddress',
  namespaced: false,
  shortNames: ['ip'],
  // The name is an IP (`2001:db8::1` has colons): only the path-segment rules apply
  // generically; `validate` checks the canonical form.
  nameValidation: 'path-segment',
  generation: 'none',
  statusSubresource: false,
  strategy: withBuiltinMetadata({
    validate(obj) {
      const name = obj.metadata?.name ?? '';
      const errs = validateIPAddressName(name).map((m) =>
        fieldErrors.invalid(path('metadata', 'name'), name, m),
      );
      return [...errs, ...validateParentRef(obj)];
    },
    validateUpdate(obj, old) {
      return immutable(
        getObj(getObj(obj, 'spec'), 'parentRef'),
        getObj(getObj(old, 'spec'), 'parentRef'),
        SPEC.child('parentRef'),
      );
    },
  }),
};
