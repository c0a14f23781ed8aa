/**
 * policy/v1 PodDisruptionBudgets and networking.k8s.io/v1 NetworkPolicies. Both track
 * generation (their strategies set 1 on create and bump it on spec changes).
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors } from '../field-error.js';
import { validateLabelSelectorObject } from '../labels/selector.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import {
  isNotMoreThan100Percent,
  validatePositiveIntOrPercent,
} from '../validation/int-or-string.js';
import { cidrContains, isValidCIDR, parseCIDRSloppy } from '../validation/ip.js';
import { isValidPortName, isValidPortNum } from '../validation/numbers.js';
import { readSelector, SPEC, withBuiltinMetadata } from './common.js';
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

const EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];

function selectorErrors(v: unknown, fieldPath: FieldPath): FieldError[] {
  if (v === undefined || v === null) return [];
  const { sel, errs } = readSelector(v, fieldPath);
  return sel === undefined ? errs : validateLabelSelectorObject(sel, fieldPath);
}

/** Upstream `ValidatePodDisruptionBudgetSpec`. */
function validatePDB(obj: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  const errs: FieldError[] = [];
  const has = (k: string): boolean => spec[k] !== undefined && spec[k] !== null;
  if (has('minAvailable') && has('maxUnavailable')) {
    errs.push(
      fieldErrors.invalid(SPEC, spec, 'minAvailable and maxUnavailable cannot be both set'),
    );
  }
  for (const key of ['minAvailable', 'maxUnavailable']) {
    if (!has(key)) continue;
    errs.push(
      ...validatePositiveIntOrPercent(spec[key], SPEC.child(key)),
      ...isNotMoreThan100Percent(spec[key], SPEC.child(key)),
    );
  }
  errs.push(...selectorErrors(spec.selector, SPEC.child('selector')));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (
    policy !== undefined &&
    policy !== null &&
    (typeof policy !== 'string' || !EVICTION_POLICIES.includes(policy))
  ) {
    errs.push(
      fieldErrors.notSupported(SPEC.child('unhealthyPodEvictionPolicy'), policy, EVICTION_POLICIES),
    );
  }
  return errs;
}

/** policy/v1 `poddisruptionbudgets` (`pdb`, `/status`). */
export const podDisruptionBudgetResource: ResourceDefinition = {
  group: 'policy',
  version: 'v1',
  kind: 'PodDisruptionBudget',
  listKind: 'PodDisruptionBudgetList',
  plural: 'poddisruptionbudgets',
  singular: 'poddisruptionbudget',
  namespaced: true,
  shortNames: ['pdb'],
  nameValidation: 'dns-subdomain',
  generation: 'spec',
  statusSubresource: true,
  strategy: withBuiltinMetadata({
    prepareForCreate(obj) {
      // These four are not omitempty in PodDisruptionBudgetStatus.
      obj.status = { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
    },
    validate: validatePDB,
  }),
};

/** Upstream `ValidateNetworkPolicyPort`. */
function validatePort(port: JsonObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const protocol = port.protocol;
  if (
    protocol !== undefined &&
    protocol !== null &&
    protocol !== 'TCP' &&
    protocol !== 'UDP' &&
    protocol !== 'SCTP'
  ) {
    errs.push(fieldErrors.notSupported(p.child('protocol'), protocol, ['TCP', 'UDP', 'SCTP']));
  }
  const value = port.port;
  const endPort = getNum(port, 'endPort');
  if (typeof value === 'number') {
    for (const msg of isValidPortNum(value))
      errs.push(fieldErrors.invalid(p.child('port'), value, msg));
    if (endPort !== undefined) {
      if (endPort < value)
        errs.push(
          fieldErrors.invalid(p.child('endPort'), value, 'must be greater than or equal to `port`'),
        );
      for (const msg of isValidPortNum(endPort))
        errs.push(fieldErrors.invalid(p.child('endPort'), endPort, msg));
    }
  } else if (typeof value === 'string') {
    if (endPort !== undefined)
      errs.push(
        fieldErrors.invalid(
          p.child('endPort'),
          endPort,
          'may not be specified when `port` is non-numeric',
        ),
      );
    for (const msg of isValidPortName(value))
      errs.push(fieldErrors.invalid(p.child('port'), value, msg));
  } else if (endPort !== undefined) {
    errs.push(
      fieldErrors.invalid(
        p.child('endPort'),
        endPort,
        'may not be specified when `port` is not specified',
      ),
    );
  }
  return errs;
}

/** Upstream `ValidateIPBlock`. */
function validateIPBlock(block: JsonObject, p: FieldPath): FieldError[] {
  const cidr = getStr(block, 'cidr') ?? '';
  if (cidr === '') return [fieldErrors.required(p.child('cidr'), '')];
  const errs = isValidCIDR(p.child('cidr'), cidr);
  const outer = parseCIDRSloppy(cidr);
  if (outer === undefined) return errs;
  (getArr(block, 'except') ?? []).forEach((e, i) => {
    const except = typeof e === 'string' ? e : '';
    const ep = p.child('except').index(i);
    const inner = parseCIDRSloppy(except);
    if (inner === undefined) errs.push(...isValidCIDR(ep, except));
    else if (
      !cidrContains(cidr, except.slice(0, except.indexOf('/'))) ||
      inner.bits <= outer.bits
    ) {
      errs.push(fieldErrors.invalid(ep, except, 'must be a strict subset of `cidr`'));
    }
  });
  return errs;
}

/** Upstream `ValidateNetworkPolicyPeer`. */
function validatePeer(peer: JsonObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const key of ['podSelector', 'namespaceSelector']) {
    if (peer[key] === undefined || peer[key] === null) continue;
    count++;
    errs.push(...selectorErrors(peer[key], p.child(key)));
  }
  const block = getObj(peer, 'ipBlock');
  if (block !== undefined) {
    count++;
    errs.push(...validateIPBlock(block, p.child('ipBlock')));
  }
  if (count === 0) errs.push(fieldErrors.required(p, 'must specify a peer'));
  else if (count > 1 && block !== undefined)
    errs.push(fieldErrors.forbidden(p, 'may not specify both ipBlock and another peer'));
  return errs;
}

function validateRules(
  spec: JsonObject,
  key: 'ingress' | 'egress',
  peersKey: 'from' | 'to',
): FieldError[] {
  const errs: FieldError[] = [];
  objects(spec, key).forEach((rule, i) => {
    const rp = SPEC.child(key).index(i);
    errs.push(
      ...objects(rule, 'ports').flatMap((port, j) =>
        validatePort(port, rp.child('ports').index(j)),
      ),
    );
    errs.push(
      ...objects(rule, peersKey).flatMap((peer, j) =>
        validatePeer(peer, rp.child(peersKey).index(j)),
      ),
    );
  });
  return errs;
}

/** Upstream `ValidateNetworkPolicySpec`. */
function validateNetworkPolicy(obj: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  const errs = [
    ...selectorErrors(spec.podSelector ?? {}, SPEC.child('podSelector')),
    ...validateRules(spec, 'ingress', 'from'),
    ...validateRules(spec, 'egress', 'to'),
  ];
  const types = getArr(spec, 'policyTypes') ?? [];
  if (types.length > 2) {
    errs.push(
      fieldErrors.invalid(
        SPEC.child('policyTypes'),
        types,
        'may not specify more than two policyTypes',
      ),
    );
    return errs;
  }
  types.forEach((t, i) => {
    if (t !== 'Ingress' && t !== 'Egress')
      errs.push(
        fieldErrors.notSupported(SPEC.child('policyTypes').index(i), t, ['Ingress', 'Egress']),
      );
  });
  return errs;
}

/** `SetDefaults_NetworkPolicy` and `SetDefaults_NetworkPolicyPort`. */
function defaultNetworkPolicy(obj: KubeObject): void {
  const spec = specOf(obj);
  if (spec === undefined) return;
  setDefault(spec, 'podSelector', {});
  for (const key of ['ingress', 'egress']) {
    for (const rule of objects(spec, key))
      for (const port of objects(rule, 'ports')) setDefaultStr(port, 'protocol', 'TCP');
  }
  if ((getArr(spec, 'policyTypes') ?? []).length === 0) {
    spec.policyTypes =
      (getArr(spec, 'egress') ?? []).length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
  }
}

/** networking.k8s.io/v1 `networkpolicies` (`netpol`). */
export const networkPolicyResource: ResourceDefinition = {
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'NetworkPolicy',
  listKind: 'NetworkPolicyList',
  plural: 'networkpolicies',
  singular: 'networkpolicy',
  namespaced: true,
  shortNames: ['netpol'],
  nameValidation: 'dns-subdomain',
  generation: 'spec',
  statusSubresource: false,
  strategy: withBuiltinMetadata({
    defaults: defaultNetworkPolicy,
    validate: validateNetworkPolicy,
  }),
};
