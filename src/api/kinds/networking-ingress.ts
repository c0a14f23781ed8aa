/**
 * networking.k8s.io/v1 Ingresses (`ing`, `/status`) and IngressClasses (cluster-scoped):
 * upstream's `ValidateIngressCreate`/`ValidateIngressSpec` (rules, paths and their required
 * `pathType`, service or resource backends, `defaultBackend`, TLS hosts and secret names,
 * `ingressClassName`), the load-balancer status checks, and `ValidateIngressClass` (a
 * domain-prefixed controller, immutable once set; parameters scoped `Cluster` by default).
 * The DefaultIngressClass admission plugin (`apiserver/admission/default-ingress-class.ts`)
 * fills `ingressClassName` from {@link isDefaultIngressClass}.
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors, path } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { parseTime } from '../time.js';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain } from '../validation/dns.js';
import { isValidIP, parseIPSloppy } from '../validation/ip.js';
import { regexError } from '../validation/messages.js';
import { isValidPathSegmentName } from '../validation/names.js';
import { isValidPortName, isValidPortNum } from '../validation/numbers.js';
import { immutable, SPEC, withBuiltinMetadata } from './common.js';
import { get, getNum, getObj, getStr, type JsonObject, objects } from './json.js';

/** The annotation that marks the default IngressClass (upstream `IngressClassAnnotationIsDefault`). */
export const DEFAULT_INGRESS_CLASS_ANNOTATION = 'ingressclass.kubernetes.io/is-default-class';

/** The deprecated class annotation: an Ingress carrying it is left to its controller. */
export const INGRESS_CLASS_ANNOTATION = 'kubernetes.io/ingress.class';

/** Upstream `IsDefaultIngressClass`: the annotation set to exactly "true". */
export function isDefaultIngressClass(ic: KubeObject): boolean {
  return ic.metadata?.annotations?.[DEFAULT_INGRESS_CLASS_ANNOTATION] === 'true';
}

/**
 * The DefaultIngressClass plugin's `getDefaultClass`: among the classes marked default, the
 * newest (creationTimestamp) wins, then the first by name, so marking a new default while
 * the old one is still marked never refuses Ingresses (upstream v1.28+; before, two defaults
 * refused every class-less Ingress).
 */
export function defaultIngressClassOf(classes: readonly KubeObject[]): KubeObject | undefined {
  const created = (c: KubeObject) => parseTime(c.metadata?.creationTimestamp) ?? 0;
  const name = (c: KubeObject) => c.metadata?.name ?? '';
  return classes.filter(isDefaultIngressClass).sort((a, b) => {
    const byTime = created(b) - created(a);
    if (byTime !== 0) return byTime;
    return name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0;
  })[0];
}

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const INVALID_PATH_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_PATH_SUFFIXES = ['/..', '/.'];
const WILDCARD_FMT = '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
const WILDCARD_RE = new RegExp(`^${WILDCARD_FMT}$`);
const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const HTTP_PATH_RE = new RegExp(`^${HTTP_PATH_FMT}$`);
/** Upstream `maxLenIngressClassController`. */
const MAX_CONTROLLER_LENGTH = 250;
const PARAMETER_SCOPES = ['Cluster', 'Namespace'];

function stringMessages(p: FieldPath, value: string, messages: string[]): FieldError[] {
  return messages.map((m) => fieldErrors.invalid(p, value, m));
}

/** Upstream `IsWildcardDNS1123Subdomain`. */
function isWildcardSubdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!WILDCARD_RE.test(value)) {
    errs.push(
      regexError(
        "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character",
        WILDCARD_FMT,
        '*.example.com',
      ),
    );
  }
  return errs;
}

/** Upstream `validateIngressTypedLocalObjectReference`. */
function validateTypedReference(ref: JsonObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const group = getStr(ref, 'apiGroup');
  if (group !== undefined)
    errs.push(...stringMessages(p.child('apiGroup'), group, isDNS1123Subdomain(group)));
  for (const key of ['kind', 'name']) {
    const v = getStr(ref, key) ?? '';
    if (v === '') errs.push(fieldErrors.required(p.child(key), `${key} is required`));
    else errs.push(...stringMessages(p.child(key), v, isValidPathSegmentName(v)));
  }
  return errs;
}

/** Upstream `validateIngressBackend`. */
function validateBackend(backend: JsonObject, p: FieldPath): FieldError[] {
  const resource = getObj(backend, 'resource');
  const service = getObj(backend, 'service');
  if (resource !== undefined && service !== undefined) {
    return [fieldErrors.invalid(p, '', 'cannot set both resource and service backends')];
  }
  if (resource !== undefined) return validateTypedReference(resource, p.child('resource'));
  if (service === undefined) {
    return [fieldErrors.invalid(p, '', 'resource or service backend is required')];
  }
  const errs: FieldError[] = [];
  const name = getStr(service, 'name') ?? '';
  if (name === '') errs.push(fieldErrors.required(p.child('service', 'name'), ''));
  else errs.push(...stringMessages(p.child('service', 'name'), name, isDNS1035Label(name)));
  const port = getObj(service, 'port') ?? {};
  const portName = getStr(port, 'name') ?? '';
  const portNumber = getNum(port, 'number') ?? 0;
  if (portName !== '' && portNumber !== 0) {
    errs.push(fieldErrors.invalid(p, '', 'cannot set both port name & port number'));
  } else if (portName !== '') {
    errs.push(
      ...stringMessages(p.child('service', 'port', 'name'), portName, isValidPortName(portName)),
    );
  } else if (portNumber !== 0) {
    for (const m of isValidPortNum(portNumber))
      errs.push(fieldErrors.invalid(p.child('service', 'port', 'number'), portNumber, m));
  } else {
    errs.push(fieldErrors.required(p, 'port name or number is required'));
  }
  return errs;
}

/** The path rules of `Exact` and `Prefix` paths. */
function validateStrictPath(value: string, pp: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!value.startsWith('/')) errs.push(fieldErrors.invalid(pp, value, 'must be an absolute path'));
  for (const seq of INVALID_PATH_SEQUENCES) {
    if (value.includes(seq)) errs.push(fieldErrors.invalid(pp, value, `must not contain '${seq}'`));
  }
  for (const suffix of INVALID_PATH_SUFFIXES) {
    if (value.endsWith(suffix))
      errs.push(fieldErrors.invalid(pp, value, `cannot end with '${suffix}'`));
  }
  return errs;
}

/** Upstream `validateHTTPIngressPath`. */
function validatePath(ip: JsonObject, p: FieldPath): FieldError[] {
  const pathType = ip.pathType;
  if (pathType === undefined || pathType === null) {
    return [fieldErrors.required(p.child('pathType'), 'pathType must be specified')];
  }
  const errs: FieldError[] = [];
  const value = getStr(ip, 'path') ?? '';
  const pp = p.child('path');
  if (pathType === 'Exact' || pathType === 'Prefix') {
    errs.push(...validateStrictPath(value, pp));
  } else if (pathType === 'ImplementationSpecific') {
    if (value !== '' && !value.startsWith('/'))
      errs.push(fieldErrors.invalid(pp, value, 'must be an absolute path'));
  } else {
    errs.push(fieldErrors.notSupported(p.child('pathType'), pathType, PATH_TYPES));
  }
  errs.push(...validateBackend(getObj(ip, 'backend') ?? {}, p.child('backend')));
  return errs;
}

/** Upstream `validateIngressRules`. */
function validateRules(rules: JsonObject[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  rules.forEach((rule, i) => {
    const rp = p.index(i);
    const host = getStr(rule, 'host') ?? '';
    if (host !== '') {
      if (parseIPSloppy(host) !== undefined)
        errs.push(
          fieldErrors.invalid(rp.child('host'), host, 'must be a DNS name, not an IP address'),
        );
      const messages = host.includes('*') ? isWildcardSubdomain(host) : isDNS1123Subdomain(host);
      errs.push(...stringMessages(rp.child('host'), host, messages));
    }
    const http = getObj(rule, 'http');
    if (http === undefined) return;
    const paths = objects(http, 'paths');
    const hp = rp.child('http');
    if (paths.length === 0) errs.push(fieldErrors.required(hp.child('paths'), ''));
    paths.forEach((ip, j) => {
      errs.push(...validatePath(ip, hp.child('paths').index(j)));
    });
  });
  return errs;
}

/** Upstream `validateIngressTLS`: wildcard hosts allowed, secret names are DNS subdomains. */
function validateTLS(tls: JsonObject[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  tls.forEach((t, i) => {
    const tp = p.index(i);
    (Array.isArray(t.hosts) ? t.hosts : []).forEach((h, j) => {
      const host = typeof h === 'string' ? h : '';
      const bare = host.startsWith('*.') ? host.slice(2) : host;
      errs.push(...stringMessages(tp.child('hosts').index(j), host, isDNS1123Subdomain(bare)));
    });
    const secret = getStr(t, 'secretName') ?? '';
    if (secret !== '')
      errs.push(...stringMessages(tp.child('secretName'), secret, isDNS1123Subdomain(secret)));
  });
  return errs;
}

/** Upstream `ValidateIngressSpec`. */
export function validateIngressSpec(spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const rules = objects(spec, 'rules');
  const defaultBackend = getObj(spec, 'defaultBackend');
  if (rules.length === 0 && defaultBackend === undefined) {
    errs.push(
      fieldErrors.invalid(
        SPEC,
        spec.rules ?? null,
        'either `defaultBackend` or `rules` must be specified',
      ),
    );
  }
  if (defaultBackend !== undefined)
    errs.push(...validateBackend(defaultBackend, SPEC.child('defaultBackend')));
  errs.push(...validateRules(rules, SPEC.child('rules')));
  errs.push(...validateTLS(objects(spec, 'tls'), SPEC.child('tls')));
  const className = getStr(spec, 'ingressClassName');
  if (className !== undefined)
    errs.push(
      ...stringMessages(SPEC.child('ingressClassName'), className, isDNS1123Subdomain(className)),
    );
  return errs;
}

/** Upstream `ValidateIngressLoadBalancerStatus`. */
function validateIngressStatus(obj: KubeObject): FieldError[] {
  const p = path('status', 'loadBalancer', 'ingress');
  const errs: FieldError[] = [];
  objects(getObj(getObj(obj, 'status'), 'loadBalancer'), 'ingress').forEach((ing, i) => {
    const ip = getStr(ing, 'ip');
    if (ip !== undefined && ip !== '') errs.push(...isValidIP(p.index(i).child('ip'), ip));
    const hostname = getStr(ing, 'hostname');
    if (hostname !== undefined && hostname !== '') {
      errs.push(
        ...stringMessages(p.index(i).child('hostname'), hostname, isDNS1123Subdomain(hostname)),
      );
      if (parseIPSloppy(hostname) !== undefined)
        errs.push(
          fieldErrors.invalid(
            p.index(i).child('hostname'),
            hostname,
            'must be a DNS name, not an IP address',
          ),
        );
    }
  });
  return errs;
}

/** networking.k8s.io/v1 `ingresses` (`ing`, `/status`). */
export const ingressResource: ResourceDefinition = {
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'Ingress',
  listKind: 'IngressList',
  plural: 'ingresses',
  singular: 'ingress',
  namespaced: true,
  shortNames: ['ing'],
  nameValidation: 'dns-subdomain',
  generation: 'spec',
  statusSubresource: true,
  strategy: withBuiltinMetadata({
    prepareForCreate(obj) {
      // `status` is a struct (not omitempty) upstream: a fresh Ingress shows `loadBalancer: {}`.
      obj.status = { loadBalancer: {} };
    },
    validate: (obj) => validateIngressSpec(getObj(obj, 'spec') ?? {}),
    validateStatusUpdate: validateIngressStatus,
  }),
};

/** Upstream `IsDomainPrefixedPath`. */
function isDomainPrefixedPath(p: FieldPath, value: string): FieldError[] {
  const slash = value.indexOf('/');
  const host = slash < 0 ? value : value.slice(0, slash);
  const rest = slash < 0 ? '' : value.slice(slash + 1);
  if (slash < 0 || host === '' || rest === '') {
    return [
      fieldErrors.invalid(p, value, 'must be a domain-prefixed path (such as "acme.io/foo")'),
    ];
  }
  const errs = stringMessages(p, host, isDNS1123Subdomain(host));
  if (!HTTP_PATH_RE.test(rest))
    errs.push(fieldErrors.invalid(p, rest, regexError('Invalid path', HTTP_PATH_FMT)));
  return errs;
}

/** Upstream `validateIngressClassParametersReference`. */
function validateParameters(params: JsonObject, p: FieldPath): FieldError[] {
  const errs = validateTypedReference(params, p);
  const scope = getStr(params, 'scope') ?? '';
  const namespace = get(params, 'namespace');
  if (!PARAMETER_SCOPES.includes(scope)) {
    errs.push(fieldErrors.notSupported(p.child('scope'), scope, PARAMETER_SCOPES));
  } else if (scope === 'Namespace') {
    if (typeof namespace !== 'string') {
      errs.push(
        fieldErrors.required(p.child('namespace'), "`parameters.scope` is set to 'Namespace'"),
      );
    } else {
      errs.push(...stringMessages(p.child('namespace'), namespace, isDNS1123Label(namespace)));
    }
  } else if (namespace !== undefined && namespace !== null) {
    errs.push(
      fieldErrors.forbidden(p.child('namespace'), "`parameters.scope` is set to 'Cluster'"),
    );
  }
  return errs;
}

/** Upstream `validateIngressClassSpec`. */
function validateIngressClass(obj: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  const controller = getStr(spec, 'controller') ?? '';
  const errs: FieldError[] = [];
  if (controller.length > MAX_CONTROLLER_LENGTH)
    errs.push(fieldErrors.tooLong(SPEC.child('controller'), MAX_CONTROLLER_LENGTH));
  errs.push(...isDomainPrefixedPath(SPEC.child('controller'), controller));
  const params = getObj(spec, 'parameters');
  if (params !== undefined) errs.push(...validateParameters(params, SPEC.child('parameters')));
  return errs;
}

/** networking.k8s.io/v1 `ingressclasses` (cluster-scoped). */
export const ingressClassResource: ResourceDefinition = {
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'IngressClass',
  listKind: 'IngressClassList',
  plural: 'ingressclasses',
  singular: 'ingressclass',
  namespaced: false,
  nameValidation: 'dns-subdomain',
  generation: 'spec',
  statusSubresource: false,
  strategy: withBuiltinMetadata({
    defaults(obj) {
      // Upstream `SetDefaults_IngressClass`: parameters are cluster-scoped unless they say so.
      const params = getObj(getObj(obj, 'spec'), 'parameters');
      if (params !== undefined && (params.scope === undefined || params.scope === null))
        params.scope = 'Cluster';
    },
    validate: validateIngressClass,
    validateUpdate(obj, old) {
      const controller = getStr(getObj(obj, 'spec'), 'controller');
      return immutable(
        controller,
        getStr(getObj(old, 'spec'), 'controller'),
        SPEC.child('controller'),
      );
    },
  }),
};
