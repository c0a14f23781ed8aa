/**
 * core/v1 Services: `SetDefaults_Service`, `ValidateService` / `ValidateServiceUpdate`.
 *
 * Cluster IP, IP family and node port *allocation* is not done here: the API server's
 * allocator fills `clusterIP`/`clusterIPs`/`ipFamilies`/`nodePort`s/`healthCheckNodePort` (and
 * must carry them over on updates that omit them, as upstream's REST storage does).
 * Defaulting does pick `ipFamilyPolicy` the way upstream's allocator would when it is unset.
 *
 * Names: upstream checks Service names as DNS-1035 labels (a letter first). The definition
 * says `dns-label`; validation adds the DNS-1035 message for names that pass that check but
 * start with a digit.
 *
 * @module
 */
import { type FieldError, fieldErrors } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain } from '../validation/dns.js';
import { isValidCIDR, isValidIP } from '../validation/ip.js';
import { validateLabels } from '../validation/metadata-fields.js';
import { METADATA, SPEC, withBuiltinMetadata } from './common.js';
import { requiredOneOf } from './container-validation.js';
import {
  getArr,
  getNum,
  getObj,
  getStr,
  type JsonObject,
  objects,
  setDefault,
  setDefaultStr,
  specOf,
} from './json.js';
import { validateServicePorts } from './service-ports.js';

const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const TRAFFIC_POLICIES = ['Cluster', 'Local'];
const IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const LB_ONLY = "may only be used when `type` is 'LoadBalancer'";

/** The first cluster IP, from `clusterIPs` or `clusterIP`. */
export function primaryClusterIP(spec: JsonObject): string {
  const first = (getArr(spec, 'clusterIPs') ?? [])[0];
  return typeof first === 'string' ? first : (getStr(spec, 'clusterIP') ?? '');
}

function isHeadless(spec: JsonObject): boolean {
  return primaryClusterIP(spec) === 'None';
}

/** Upstream `service.ExternallyAccessible`. */
function externallyAccessible(spec: JsonObject): boolean {
  const type = spec.type;
  if (type === 'LoadBalancer' || type === 'NodePort') return true;
  return type === 'ClusterIP' && (getArr(spec, 'externalIPs') ?? []).length > 0;
}

function defaultPorts(spec: JsonObject): void {
  for (const port of objects(spec, 'ports')) {
    setDefaultStr(port, 'protocol', 'TCP');
    const target = port.targetPort;
    if (target === undefined || target === null || target === 0 || target === '')
      port.targetPort = port.port;
  }
}

function defaults(obj: KubeObject): void {
  const spec = specOf(obj);
  if (spec === undefined) return;
  setDefaultStr(spec, 'sessionAffinity', 'None');
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    const timeout = getObj(getObj(spec, 'sessionAffinityConfig'), 'clientIP')?.timeoutSeconds;
    if (timeout === undefined || timeout === null)
      spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
  }
  setDefaultStr(spec, 'type', 'ClusterIP');
  defaultPorts(spec);
  if (externallyAccessible(spec)) setDefaultStr(spec, 'externalTrafficPolicy', 'Cluster');
  if (spec.type === 'NodePort' || spec.type === 'LoadBalancer' || spec.type === 'ClusterIP') {
    setDefault(spec, 'internalTrafficPolicy', 'Cluster');
  }
  if (spec.type === 'LoadBalancer') setDefault(spec, 'allocateLoadBalancerNodePorts', true);
  if (spec.type !== 'ExternalName') {
    // What upstream's allocator picks: a headless Service without selector serves every family.
    const selectorless = Object.keys(getObj(spec, 'selector') ?? {}).length === 0;
    setDefault(
      spec,
      'ipFamilyPolicy',
      isHeadless(spec) && selectorless ? 'RequireDualStack' : 'SingleStack',
    );
  }
}

function prepareForCreate(obj: KubeObject): void {
  obj.status = { loadBalancer: {} };
  const spec = getObj(obj, 'spec');
  if (spec === undefined) return;
  // Upstream `normalizeClusterIPs`: the two fields agree before allocation.
  const ip = getStr(spec, 'clusterIP') ?? '';
  const first = (getArr(spec, 'clusterIPs') ?? [])[0];
  if (ip !== '' && first === undefined) spec.clusterIPs = [ip];
  else if (ip === '' && typeof first === 'string') spec.clusterIP = first;
}

function validateName(obj: KubeObject): FieldError[] {
  const name = obj.metadata?.name;
  // Names that are not even DNS-1123 labels are reported by the server's generic check.
  if (typeof name !== 'string' || name === '' || isDNS1123Label(name).length > 0) return [];
  return isDNS1035Label(name).map((msg) => fieldErrors.invalid(METADATA.child('name'), name, msg));
}

function validateExternalName(spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  if ((getArr(spec, 'clusterIPs') ?? []).length > 0) {
    errs.push(
      fieldErrors.forbidden(SPEC.child('clusterIPs'), 'may not be set for ExternalName services'),
    );
  }
  if ((getArr(spec, 'ipFamilies') ?? []).length > 0) {
    errs.push(
      fieldErrors.forbidden(SPEC.child('ipFamilies'), 'may not be set for ExternalName services'),
    );
  }
  if (spec.ipFamilyPolicy !== undefined && spec.ipFamilyPolicy !== null) {
    errs.push(
      fieldErrors.forbidden(
        SPEC.child('ipFamilyPolicy'),
        'may not be set for ExternalName services',
      ),
    );
  }
  // A trailing dot marks the CNAME as fully qualified.
  const cname = (getStr(spec, 'externalName') ?? '').replace(/\.$/, '');
  if (cname === '') errs.push(fieldErrors.required(SPEC.child('externalName'), ''));
  else
    for (const msg of isDNS1123Subdomain(cname))
      errs.push(fieldErrors.invalid(SPEC.child('externalName'), cname, msg));
  return errs;
}

function validateTypeRules(spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const type = getStr(spec, 'type') ?? '';
  if (objects(spec, 'ports').length === 0 && !isHeadless(spec) && type !== 'ExternalName') {
    errs.push(fieldErrors.required(SPEC.child('ports'), ''));
  }
  if ((type === 'LoadBalancer' || type === 'NodePort') && isHeadless(spec)) {
    errs.push(
      fieldErrors.invalid(
        SPEC.child('clusterIPs').index(0),
        'None',
        `may not be set to 'None' for ${type} services`,
      ),
    );
  }
  if (type === 'ExternalName') errs.push(...validateExternalName(spec));
  errs.push(...requiredOneOf(type, SERVICE_TYPES, SPEC.child('type')));
  return errs;
}

function validateAffinity(spec: JsonObject): FieldError[] {
  const affinity = getStr(spec, 'sessionAffinity') ?? '';
  const errs = requiredOneOf(affinity, ['ClientIP', 'None'], SPEC.child('sessionAffinity'));
  const config = spec.sessionAffinityConfig;
  const p = SPEC.child('sessionAffinityConfig');
  if (affinity === 'None' && config !== undefined && config !== null) {
    errs.push(fieldErrors.forbidden(p, 'must not be set when session affinity is None'));
  }
  if (affinity === 'ClientIP') {
    const timeout = getNum(
      getObj(getObj(spec, 'sessionAffinityConfig'), 'clientIP'),
      'timeoutSeconds',
    );
    if (timeout === undefined) {
      errs.push(
        fieldErrors.required(
          p.child('clientIP', 'timeoutSeconds'),
          'when session affinity type is ClientIP',
        ),
      );
    } else if (timeout <= 0 || timeout > 86400) {
      errs.push(
        fieldErrors.invalid(
          p.child('clientIP', 'timeoutSeconds'),
          timeout,
          'must be greater than 0 and less than 86400',
        ),
      );
    }
  }
  return errs;
}

function validateIPs(spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  (getArr(spec, 'clusterIPs') ?? []).forEach((ip, i) => {
    if (i === 0 && ip === 'None') return;
    errs.push(...isValidIP(SPEC.child('clusterIPs').index(i), typeof ip === 'string' ? ip : ''));
  });
  (getArr(spec, 'externalIPs') ?? []).forEach((ip, i) => {
    errs.push(...isValidIP(SPEC.child('externalIPs').index(i), typeof ip === 'string' ? ip : ''));
  });
  const policy = spec.ipFamilyPolicy;
  if (policy !== undefined && policy !== null) {
    errs.push(
      ...requiredOneOf(
        typeof policy === 'string' ? policy : '',
        IP_FAMILY_POLICIES,
        SPEC.child('ipFamilyPolicy'),
      ),
    );
  }
  (getArr(spec, 'ipFamilies') ?? []).forEach((f, i) => {
    if (f !== 'IPv4' && f !== 'IPv6')
      errs.push(fieldErrors.notSupported(SPEC.child('ipFamilies').index(i), f, ['IPv4', 'IPv6']));
  });
  return errs;
}

function validateLoadBalancerFields(spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const lb = spec.type === 'LoadBalancer';
  const ranges = getArr(spec, 'loadBalancerSourceRanges') ?? [];
  if (ranges.length > 0) {
    // Upstream's path really is capitalised here.
    const p = SPEC.child('LoadBalancerSourceRanges');
    if (!lb) errs.push(fieldErrors.forbidden(p, LB_ONLY));
    errs.push(
      ...ranges.flatMap((r, i) => isValidCIDR(p.index(i), typeof r === 'string' ? r.trim() : '')),
    );
  }
  if (
    spec.allocateLoadBalancerNodePorts !== undefined &&
    spec.allocateLoadBalancerNodePorts !== null &&
    !lb
  ) {
    errs.push(fieldErrors.forbidden(SPEC.child('allocateLoadBalancerNodePorts'), LB_ONLY));
  }
  return errs;
}

function validateTrafficPolicies(spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const external = getStr(spec, 'externalTrafficPolicy') ?? '';
  if (!externallyAccessible(spec)) {
    if (external !== '') {
      errs.push(
        fieldErrors.invalid(
          SPEC.child('externalTrafficPolicy'),
          external,
          'may only be set for externally-accessible services',
        ),
      );
    }
  } else {
    errs.push(...requiredOneOf(external, TRAFFIC_POLICIES, SPEC.child('externalTrafficPolicy')));
  }
  const needsHealthCheck = spec.type === 'LoadBalancer' && external === 'Local';
  const hc = getNum(spec, 'healthCheckNodePort') ?? 0;
  if (!needsHealthCheck && hc !== 0) {
    errs.push(
      fieldErrors.invalid(
        SPEC.child('healthCheckNodePort'),
        hc,
        "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
      ),
    );
  }
  const internal = spec.internalTrafficPolicy;
  if (internal !== undefined && internal !== null && !TRAFFIC_POLICIES.includes(String(internal))) {
    errs.push(
      fieldErrors.notSupported(SPEC.child('internalTrafficPolicy'), internal, TRAFFIC_POLICIES),
    );
  }
  const distribution = spec.trafficDistribution;
  if (distribution !== undefined && distribution !== null && distribution !== 'PreferClose') {
    errs.push(
      fieldErrors.notSupported(SPEC.child('trafficDistribution'), distribution, ['PreferClose']),
    );
  }
  return errs;
}

/** Upstream `ValidateService` (without the allocator's own checks). */
function validate(obj: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  return [
    ...validateName(obj),
    ...validateTypeRules(spec),
    ...validateServicePorts(spec),
    ...validateLabels(spec.selector, SPEC.child('selector')),
    ...validateAffinity(spec),
    ...validateIPs(spec),
    ...validateLoadBalancerFields(spec),
    ...validateTrafficPolicies(spec),
  ];
}

/** Upstream `validateUpgradeDowngradeClusterIPs`: the primary cluster IP never changes. */
function validateUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  const oldSpec = getObj(old, 'spec') ?? {};
  if (spec.type === 'ExternalName' || oldSpec.type === 'ExternalName') return [];
  const next = primaryClusterIP(spec);
  const prev = primaryClusterIP(oldSpec);
  if (next === '' || prev === '' || next === prev) return [];
  return [
    fieldErrors.invalid(
      SPEC.child('clusterIPs').index(0),
      getArr(spec, 'clusterIPs') ?? next,
      'may not change once set',
    ),
  ];
}

/** core/v1 `services` (`svc`, category `all`, `/status`). */
export const serviceResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'Service',
  listKind: 'ServiceList',
  plural: 'services',
  singular: 'service',
  namespaced: true,
  shortNames: ['svc'],
  categories: ['all'],
  nameValidation: 'dns-label',
  generation: 'none',
  statusSubresource: true,
  strategy: withBuiltinMetadata({ defaults, prepareForCreate, validate, validateUpdate }),
};
