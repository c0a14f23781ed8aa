/**
 * flowcontrol.apiserver.k8s.io/v1 FlowSchemas and PriorityLevelConfigurations (cluster-scoped,
 * `/status`): upstream's defaults (`SetDefaults_FlowSchemaSpec`, `..._PriorityLevelConfiguration`)
 * and validation (`ValidateFlowSchema`, `ValidatePriorityLevelConfiguration`). fleetyard does
 * not classify requests by them (its in-flight limit stands in for API Priority and Fairness,
 * see `apiserver/http/inflight-limit.ts`), but serves them as upstream does, with the
 * mandatory and suggested objects the bootstrap keeps (`apiserver/bootstrap/flowcontrol-objects.ts`).
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors, path } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { isDNS1123Subdomain } from '../validation/dns.js';
import { SPEC, withBuiltinMetadata } from './common.js';
import { getArr, getNum, getObj, getStr, type JsonObject, objects, setDefault } from './json.js';
import { validateConditions } from './networking-servicecidr.js';

/** Upstream `FlowSchemaMaxMatchingPrecedence`. */
const MAX_PRECEDENCE = 10_000;
const DISTINGUISHERS = ['ByNamespace', 'ByUser'];
const SUBJECT_KINDS = ['Group', 'ServiceAccount', 'User'];
const PL_TYPES = ['Exempt', 'Limited'];
const RESPONSE_TYPES = ['Queue', 'Reject'];

/** A list field's strings; `*` must stand alone (upstream's `hasWildcard` rule). */
function listRule(rule: JsonObject, key: string, p: FieldPath, required: string): FieldError[] {
  const values = getArr(rule, key) ?? [];
  if (values.length === 0) return [fieldErrors.required(p.child(key), required)];
  if (values.length > 1 && values.includes('*'))
    return [
      fieldErrors.invalid(p.child(key), values, `if '*' is present, must not specify other ${key}`),
    ];
  return [];
}

function validateSubject(s: JsonObject, p: FieldPath): FieldError[] {
  const kind = getStr(s, 'kind') ?? '';
  if (!SUBJECT_KINDS.includes(kind))
    return [fieldErrors.notSupported(p.child('kind'), kind, SUBJECT_KINDS)];
  const member = kind === 'Group' ? 'group' : kind === 'User' ? 'user' : 'serviceAccount';
  const m = getObj(s, member);
  if (m === undefined)
    return [
      fieldErrors.required(p.child(member), `${member} is required when subject kind is '${kind}'`),
    ];
  const errs: FieldError[] = [];
  if ((getStr(m, 'name') ?? '') === '')
    errs.push(fieldErrors.required(p.child(member, 'name'), ''));
  if (kind === 'ServiceAccount' && (getStr(m, 'namespace') ?? '') === '')
    errs.push(
      fieldErrors.required(
        p.child(member, 'namespace'),
        'must specify namespace for service account',
      ),
    );
  return errs;
}

/** Upstream `ValidateFlowSchemaPolicyRulesWithSubjects`. */
function validateRule(rule: JsonObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const subjects = objects(rule, 'subjects');
  if (subjects.length === 0)
    errs.push(
      fieldErrors.required(p.child('subjects'), 'subjects must contain at least one value'),
    );
  subjects.forEach((s, i) => {
    errs.push(...validateSubject(s, p.child('subjects').index(i)));
  });
  const resourceRules = objects(rule, 'resourceRules');
  const nonResourceRules = objects(rule, 'nonResourceRules');
  if (resourceRules.length === 0 && nonResourceRules.length === 0) {
    errs.push(
      fieldErrors.required(
        p,
        'at least one of resourceRules and nonResourceRules has to be non-empty',
      ),
    );
  }
  resourceRules.forEach((r, i) => {
    const rp = p.child('resourceRules').index(i);
    errs.push(
      ...listRule(r, 'verbs', rp, 'verbs must contain at least one value'),
      ...listRule(r, 'apiGroups', rp, 'resource rules must supply at least one api group'),
      ...listRule(r, 'resources', rp, 'resource rules must supply at least one resource'),
    );
    if (r.clusterScope !== true && (getArr(r, 'namespaces') ?? []).length === 0) {
      errs.push(
        fieldErrors.required(
          rp.child('namespaces'),
          'resource rules that are not cluster scoped must supply at least one namespace',
        ),
      );
    }
  });
  nonResourceRules.forEach((r, i) => {
    const rp = p.child('nonResourceRules').index(i);
    errs.push(
      ...listRule(r, 'verbs', rp, 'verbs must contain at least one value'),
      ...listRule(r, 'nonResourceURLs', rp, 'nonResourceURLs must contain at least one value'),
    );
  });
  return errs;
}

/** Upstream `ValidateFlowSchemaSpec`. */
function validateFlowSchema(obj: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  const errs: FieldError[] = [];
  const precedence = getNum(spec, 'matchingPrecedence') ?? 0;
  const pp = SPEC.child('matchingPrecedence');
  if (precedence <= 0) errs.push(fieldErrors.invalid(pp, precedence, 'must be a positive value'));
  if (precedence > MAX_PRECEDENCE)
    errs.push(fieldErrors.invalid(pp, precedence, `must not be greater than ${MAX_PRECEDENCE}`));
  if (precedence === 1 && obj.metadata?.name !== 'exempt')
    errs.push(
      fieldErrors.invalid(
        pp,
        precedence,
        "only the schema named 'exempt' may have matchingPrecedence 1",
      ),
    );
  const method = getObj(spec, 'distinguisherMethod');
  if (method !== undefined && !DISTINGUISHERS.includes(getStr(method, 'type') ?? ''))
    errs.push(
      fieldErrors.notSupported(SPEC.child('distinguisherMethod', 'type'), method, DISTINGUISHERS),
    );
  const plName = getStr(getObj(spec, 'priorityLevelConfiguration'), 'name') ?? '';
  const np = SPEC.child('priorityLevelConfiguration', 'name');
  if (plName === '') errs.push(fieldErrors.required(np, 'must reference a priority level'));
  else errs.push(...isDNS1123Subdomain(plName).map((m) => fieldErrors.invalid(np, plName, m)));
  objects(spec, 'rules').forEach((r, i) => {
    errs.push(...validateRule(r, SPEC.child('rules').index(i)));
  });
  return errs;
}

const statusConditions = (obj: KubeObject): FieldError[] =>
  validateConditions(getObj(obj, 'status')?.conditions, path('status', 'conditions'));

/** flowcontrol.apiserver.k8s.io/v1 `flowschemas` (cluster-scoped, `/status`). */
export const flowSchemaResource: ResourceDefinition = {
  group: 'flowcontrol.apiserver.k8s.io',
  version: 'v1',
  kind: 'FlowSchema',
  listKind: 'FlowSchemaList',
  plural: 'flowschemas',
  singular: 'flowschema',
  namespaced: false,
  nameValidation: 'dns-subdomain',
  generation: 'spec',
  statusSubresource: true,
  strategy: withBuiltinMetadata({
    defaults(obj) {
      const spec = getObj(obj, 'spec');
      if (spec !== undefined && (getNum(spec, 'matchingPrecedence') ?? 0) === 0)
        spec.matchingPrecedence = 1000;
    },
    prepareForCreate(obj) {
      obj.status = {};
    },
    validate: validateFlowSchema,
    validateStatusUpdate: statusConditions,
  }),
};

/** Upstream `ValidateLimitedPriorityLevelConfiguration` (v1 field names). */
function validateLimited(limited: JsonObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const shares = getNum(limited, 'nominalConcurrencyShares') ?? 0;
  if (shares < 0)
    errs.push(
      fieldErrors.invalid(
        p.child('nominalConcurrencyShares'),
        shares,
        'must be a non-negative integer',
      ),
    );
  const lendable = getNum(limited, 'lendablePercent') ?? 0;
  if (lendable < 0 || lendable > 100)
    errs.push(
      fieldErrors.invalid(
        p.child('lendablePercent'),
        lendable,
        'must be between 0 and 100, inclusive',
      ),
    );
  const borrowing = getNum(limited, 'borrowingLimitPercent');
  if (borrowing !== undefined && borrowing < 0)
    errs.push(
      fieldErrors.invalid(
        p.child('borrowingLimitPercent'),
        borrowing,
        'if specified, must be a non-negative integer',
      ),
    );
  const response = getObj(limited, 'limitResponse') ?? {};
  const rp = p.child('limitResponse');
  const type = getStr(response, 'type') ?? '';
  const queuing = getObj(response, 'queuing');
  if (!RESPONSE_TYPES.includes(type))
    errs.push(fieldErrors.notSupported(rp.child('type'), type, RESPONSE_TYPES));
  if (type === 'Reject' && queuing !== undefined)
    errs.push(
      fieldErrors.forbidden(
        rp.child('queuing'),
        'must be nil if limited.limitResponse.type is not Limited',
      ),
    );
  if (type === 'Queue' && queuing === undefined)
    errs.push(
      fieldErrors.required(
        rp.child('queuing'),
        'must not be empty if limited.limitResponse.type is Limited',
      ),
    );
  if (type === 'Queue' && queuing !== undefined)
    errs.push(...validateQueuing(queuing, rp.child('queuing')));
  return errs;
}

/** Upstream `ValidatePriorityLevelQueuingConfiguration` (without the entropy bound). */
function validateQueuing(q: JsonObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const queues = getNum(q, 'queues') ?? 0;
  const handSize = getNum(q, 'handSize') ?? 0;
  const limit = getNum(q, 'queueLengthLimit') ?? 0;
  if (limit <= 0)
    errs.push(fieldErrors.invalid(p.child('queueLengthLimit'), limit, 'must be positive'));
  if (queues <= 0) errs.push(fieldErrors.invalid(p.child('queues'), queues, 'must be positive'));
  if (handSize <= 0)
    errs.push(fieldErrors.invalid(p.child('handSize'), handSize, 'must be positive'));
  else if (queues > 0 && handSize > queues)
    errs.push(
      fieldErrors.invalid(
        p.child('handSize'),
        handSize,
        `should not be greater than queues (${queues})`,
      ),
    );
  return errs;
}

/** Upstream `ValidateExemptPriorityLevelConfiguration`. */
function validateExempt(spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  if (getObj(spec, 'limited') !== undefined)
    errs.push(
      fieldErrors.forbidden(SPEC.child('limited'), 'must be nil if the type is not Limited'),
    );
  const exempt = getObj(spec, 'exempt');
  const shares = getNum(exempt, 'nominalConcurrencyShares');
  if (shares !== undefined && shares < 0) {
    const p = SPEC.child('exempt', 'nominalConcurrencyShares');
    errs.push(fieldErrors.invalid(p, shares, 'must be a non-negative integer'));
  }
  const lendable = getNum(exempt, 'lendablePercent');
  if (lendable !== undefined && (lendable < 0 || lendable > 100)) {
    const p = SPEC.child('exempt', 'lendablePercent');
    errs.push(fieldErrors.invalid(p, lendable, 'must be between 0 and 100, inclusive'));
  }
  return errs;
}

/** Upstream `ValidatePriorityLevelConfigurationSpec`. */
function validatePriorityLevel(obj: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  const type = getStr(spec, 'type') ?? '';
  const errs: FieldError[] = [];
  if ((obj.metadata?.name === 'exempt') !== (type === 'Exempt')) {
    const detail = "type must be 'Exempt' if and only if name is 'exempt'";
    errs.push(fieldErrors.invalid(SPEC.child('type'), type, detail));
  }
  const limited = getObj(spec, 'limited');
  if (type === 'Exempt') {
    errs.push(...validateExempt(spec));
  } else if (type === 'Limited') {
    if (getObj(spec, 'exempt') !== undefined)
      errs.push(fieldErrors.forbidden(SPEC.child('exempt'), 'must be nil if the type is Limited'));
    if (limited === undefined)
      errs.push(
        fieldErrors.required(SPEC.child('limited'), 'must not be empty when type is Limited'),
      );
    else errs.push(...validateLimited(limited, SPEC.child('limited')));
  } else {
    errs.push(fieldErrors.notSupported(SPEC.child('type'), type, PL_TYPES));
  }
  return errs;
}

/** Upstream v1 defaults of a priority level's `limited` or `exempt` part and its queuing. */
function defaultPriorityLevel(obj: KubeObject): void {
  const spec = getObj(obj, 'spec');
  const limited = getObj(spec, 'limited');
  if (limited !== undefined) {
    setDefault(limited, 'nominalConcurrencyShares', 30);
    setDefault(limited, 'lendablePercent', 0);
    const queuing = getObj(getObj(limited, 'limitResponse'), 'queuing');
    if (queuing !== undefined) {
      if ((getNum(queuing, 'handSize') ?? 0) === 0) queuing.handSize = 8;
      if ((getNum(queuing, 'queues') ?? 0) === 0) queuing.queues = 64;
      if ((getNum(queuing, 'queueLengthLimit') ?? 0) === 0) queuing.queueLengthLimit = 50;
    }
  }
  const exempt = getObj(spec, 'exempt');
  if (exempt !== undefined) {
    setDefault(exempt, 'nominalConcurrencyShares', 0);
    setDefault(exempt, 'lendablePercent', 0);
  }
}

/** flowcontrol.apiserver.k8s.io/v1 `prioritylevelconfigurations` (cluster-scoped, `/status`). */
export const priorityLevelConfigurationResource: ResourceDefinition = {
  group: 'flowcontrol.apiserver.k8s.io',
  version: 'v1',
  kind: 'PriorityLevelConfiguration',
  listKind: 'PriorityLevelConfigurationList',
  plural: 'prioritylevelconfigurations',
  singular: 'prioritylevelconfiguration',
  namespaced: false,
  nameValidation: 'dns-subdomain',
  generation: 'spec',
  statusSubresource: true,
  strategy: withBuiltinMetadata({
    defaults: defaultPriorityLevel,
    prepareForCreate(obj) {
      obj.status = {};
    },
    validate: validatePriorityLevel,
    validateStatusUpdate: statusConditions,
  }),
};
