/**
 * discovery.k8s.io/v1 EndpointSlices: defaults and validation after upstream
 * `pkg/apis/discovery` (`SetDefaults_EndpointPort`, `ValidateEndpointSlice{Create,Update}`).
 *
 * The slice has no spec: `addressType`, `endpoints` and `ports` sit at the top level, so its
 * generation (bumped on any change outside metadata, as upstream's strategy does) uses the
 * `spec` rule, which compares everything but metadata and status.
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors, path } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../validation/dns.js';
import { parseIPSloppy } from '../validation/ip.js';
import { isQualifiedName } from '../validation/label-names.js';
import { validateLabels } from '../validation/metadata-fields.js';
import { immutable, withBuiltinMetadata } from './common.js';
import { getArr, getStr, isJsonObject, type JsonObject, objects, setDefaultStr } from './json.js';

const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
/** Upstream limits (`maxEndpoints`, `maxPorts`, `maxAddresses`, `maxTopologyLabels`). */
export const MAX_ENDPOINTS = 1000;
export const MAX_PORTS = 100;
export const MAX_ADDRESSES = 100;
const MAX_TOPOLOGY_LABELS = 16;

/** Upstream `ValidateNonSpecialIP` for an address already known to parse. */
/** Upstream `ValidateNonSpecialIP`: no unspecified, loopback or link-local address. */
export function nonSpecialIP(ip: string, p: FieldPath): FieldError[] {
  const bad = (detail: string) => [fieldErrors.invalid(p, ip, detail)];
  const lower = ip.toLowerCase();
  if (ip === '0.0.0.0' || /^[0:]*$/.test(lower)) return bad('may not be unspecified (0.0.0.0)');
  if (/^127\./.test(ip) || lower === '::1')
    return bad('may not be in the loopback range (127.0.0.0/8, ::1/128)');
  if (/^169\.254\./.test(ip) || /^fe[89ab]/.test(lower))
    return bad('may not be in the link-local range (169.254.0.0/16, fe80::/10)');
  if (/^224\.0\.0\./.test(ip) || /^ff02:/.test(lower))
    return bad('may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)');
  return [];
}

/** Upstream `IsFullyQualifiedDomainName`: a DNS subdomain of two labels or more (trailing dot allowed). */
function fqdnErrors(value: string, p: FieldPath): FieldError[] {
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  if (name === '') return [fieldErrors.required(p, '')];
  if (!name.includes('.'))
    return [
      fieldErrors.invalid(
        p,
        value,
        'should be a domain with at least two segments separated by dots',
      ),
    ];
  return isDNS1123Subdomain(name).map((msg) => fieldErrors.invalid(p, value, msg));
}

function addressErrors(address: unknown, addressType: string, p: FieldPath): FieldError[] {
  const value = typeof address === 'string' ? address : '';
  switch (addressType) {
    case 'IPv4':
      if (parseIPSloppy(value) !== 4)
        return [fieldErrors.invalid(p, value, 'must be a valid IPv4 address')];
      return nonSpecialIP(value, p);
    case 'IPv6':
      if (parseIPSloppy(value) !== 6)
        return [fieldErrors.invalid(p, value, 'must be a valid IPv6 address')];
      return nonSpecialIP(value, p);
    case 'FQDN':
      return fqdnErrors(value, p);
    default:
      // Unknown types are reported once on addressType; their addresses are not checked.
      return [];
  }
}

function validateEndpoint(ep: JsonObject, addressType: string, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const addresses = getArr(ep, 'addresses') ?? [];
  const ap = p.child('addresses');
  if (addresses.length === 0)
    errs.push(fieldErrors.required(ap, 'must contain at least 1 address'));
  else if (addresses.length > MAX_ADDRESSES)
    errs.push(fieldErrors.tooMany(ap, addresses.length, MAX_ADDRESSES));
  addresses.forEach((a, i) => {
    errs.push(...addressErrors(a, addressType, ap.index(i)));
  });
  const nodeName = getStr(ep, 'nodeName');
  if (nodeName !== undefined)
    for (const msg of isDNS1123Subdomain(nodeName))
      errs.push(fieldErrors.invalid(p.child('nodeName'), nodeName, msg));
  const topology = ep.deprecatedTopology;
  if (isJsonObject(topology)) {
    const tp = p.child('deprecatedTopology');
    const n = Object.keys(topology).length;
    if (n > MAX_TOPOLOGY_LABELS) errs.push(fieldErrors.tooMany(tp, n, MAX_TOPOLOGY_LABELS));
    errs.push(...validateLabels(topology, tp));
  }
  const hostname = getStr(ep, 'hostname');
  if (hostname !== undefined)
    for (const msg of isDNS1123Label(hostname))
      errs.push(fieldErrors.invalid(p.child('hostname'), hostname, msg));
  return errs;
}

function validatePorts(obj: KubeObject): FieldError[] {
  const ports = objects(obj, 'ports');
  const pp = path('ports');
  if (ports.length > MAX_PORTS) return [fieldErrors.tooMany(pp, ports.length, MAX_PORTS)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const ip = pp.index(i);
    const name = getStr(port, 'name') ?? '';
    if (name !== '')
      for (const msg of isDNS1123Label(name))
        errs.push(fieldErrors.invalid(ip.child('name'), name, msg));
    if (names.has(name)) errs.push(fieldErrors.duplicate(ip.child('name'), name));
    names.add(name);
    const protocol = getStr(port, 'protocol');
    if (protocol === undefined) errs.push(fieldErrors.required(ip.child('protocol'), ''));
    else if (!PROTOCOLS.includes(protocol))
      errs.push(fieldErrors.notSupported(ip.child('protocol'), protocol, PROTOCOLS));
    const appProtocol = getStr(port, 'appProtocol');
    if (appProtocol !== undefined)
      for (const msg of isQualifiedName(appProtocol))
        errs.push(fieldErrors.invalid(ip.child('appProtocol'), appProtocol, msg));
  });
  return errs;
}

/** Upstream `ValidateEndpointSlice` (metadata is validated generically). */
export function validateEndpointSlice(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const addressType = getStr(obj, 'addressType') ?? '';
  if (addressType === '') errs.push(fieldErrors.required(path('addressType'), ''));
  else if (!ADDRESS_TYPES.includes(addressType))
    errs.push(fieldErrors.notSupported(path('addressType'), addressType, ADDRESS_TYPES));
  const endpoints = objects(obj, 'endpoints');
  const ep = path('endpoints');
  if (endpoints.length > MAX_ENDPOINTS) {
    errs.push(fieldErrors.tooMany(ep, endpoints.length, MAX_ENDPOINTS));
  } else {
    endpoints.forEach((e, i) => {
      errs.push(...validateEndpoint(e, addressType, ep.index(i)));
    });
  }
  errs.push(...validatePorts(obj));
  return errs;
}

/** discovery.k8s.io/v1 `endpointslices` (no short name, no status, not in `all`). */
export const endpointSliceResource: ResourceDefinition = {
  group: 'discovery.k8s.io',
  version: 'v1',
  kind: 'EndpointSlice',
  listKind: 'EndpointSliceList',
  plural: 'endpointslices',
  singular: 'endpointslice',
  namespaced: true,
  nameValidation: 'dns-subdomain',
  generation: 'spec',
  statusSubresource: false,
  strategy: withBuiltinMetadata({
    defaults(obj: KubeObject) {
      // `SetDefaults_EndpointPort`: name "" and protocol TCP when unset.
      for (const port of objects(obj, 'ports')) {
        setDefaultStr(port, 'name', '');
        setDefaultStr(port, 'protocol', 'TCP');
      }
    },
    validate: validateEndpointSlice,
    validateUpdate(obj: KubeObject, old: KubeObject) {
      return immutable(obj.addressType, old.addressType, path('addressType'));
    },
  }),
};
