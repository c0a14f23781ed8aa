/**
 * The `CelldFleet` OpenAPI v3 schema, with every immutability and cross-field rule as CEL
 * `x-kubernetes-validations` so the same rules hold on a real kube-apiserver. Messages are
 * exported so tests (and the operator's own checks) name them once.
 *
 * Differences from the Go operator are deliberate: `bucketWorkload` has no schema default (the
 * Go default made every PersistentFleet carry a meaningless `Deployment`), `placement.azCount`
 * is gone (it had to equal the zone count anyway), and `runtimeImage` is required and
 * digest-pinned here instead of blocking at reconcile time with `UnsupportedTransition`.
 *
 * @module
 */
import {
  celStringList,
  ENV_NAME_MESSAGE,
  ENV_NAME_PATTERN,
  ENV_RESERVED_MESSAGE,
  ENV_RESERVED_PREFIX_MESSAGE,
  RESERVED_ENV_NAMES,
  RESERVED_ENV_PREFIXES,
} from './env-names.js';
import {
  bool,
  conditionSchema,
  DNS_SUBDOMAIN,
  enumOf,
  fixedAtCreation,
  int,
  list,
  obj,
  type SchemaNode,
  str,
  withRules,
} from './schema-builder.js';
import { FLEET_STATES } from './types.js';

export const FLEET_MESSAGES = {
  name: 'metadata.name must be a DNS label of at most 40 characters',
  profile: 'profile is immutable',
  bucketWorkload: 'bucketWorkload is only allowed with profile Bucket',
  storageClassRequired: 'storage.storageClassName is required with profile PersistentFleet',
  storageClassForbidden: 'storage.storageClassName is only allowed with profile PersistentFleet',
  replicasZones: 'replicas must be at least the number of placement zones',
  storage: 'storage is immutable: the bucket stays reserved to this fleet',
  serviceAccountName: 'serviceAccountName is immutable',
  placement: 'placement is immutable',
  execution: 'execution is fixed at creation',
  lifecycle: 'lifecycle is fixed at creation',
  env: 'env is fixed at creation',
  bucketWorkloadFixed: 'bucketWorkload is fixed at creation',
  terminationGrace: 'terminationGraceSeconds must be at least shutdownSeconds + 5',
  cpuLimit: 'cpuLimit must be at least cpuRequest',
  memoryLimit: 'memoryLimit must be at least memoryRequest',
  quantity: 'must be a Kubernetes quantity',
  envValue: 'exactly one of value and secretKeyRef must be set',
  envName: ENV_NAME_MESSAGE,
  envReserved: ENV_RESERVED_MESSAGE,
  envReservedPrefix: ENV_RESERVED_PREFIX_MESSAGE,
} as const;

const M = FLEET_MESSAGES;

/** `registry[:port]/path[:tag]@sha256:<64 hex>`: a member must never run an image that moves. */
const DIGEST_IMAGE =
  '^[a-z0-9]+([._-][a-z0-9]+)*(\\.[a-z0-9]+)*(:[0-9]+)?(/[a-z0-9]+([._-][a-z0-9]+)*)+(:[\\w][\\w.-]{0,127})?@sha256:[a-f0-9]{64}$';

function quantity(description: string, def?: string): SchemaNode {
  const node = str({ maxLength: 64, description, ...(def ? { default: def } : {}) });
  return withRules(node, [{ rule: 'isQuantity(self)', message: M.quantity }]);
}

/** `limit >= request` when both are set; a malformed quantity is reported by its own rule. */
function limitRule(limit: string, request: string, message: string) {
  return {
    rule:
      `!has(self.${limit}) || !has(self.${request}) || !isQuantity(self.${limit}) || ` +
      `!isQuantity(self.${request}) || quantity(self.${limit}).compareTo(quantity(self.${request})) >= 0`,
    message,
    fieldPath: `.${limit}`,
  };
}

function storageSchema(): SchemaNode {
  return obj(
    {
      bucket: str({
        minLength: 3,
        maxLength: 63,
        pattern: '^[a-z0-9][a-z0-9-]*[a-z0-9]$',
        description: 'S3 bucket; permanently reserved to this fleet.',
      }),
      region: str({ maxLength: 32, pattern: '^[a-z]{2}(-[a-z]+)+-[0-9]+$' }),
      endpoint: obj(
        {
          url: str({ maxLength: 2048, pattern: '^https?://[^\\s/?#]+(/[^\\s?#]*)?$' }),
          credentialsSecretName: str({
            maxLength: 253,
            pattern: DNS_SUBDOMAIN,
            description: 'Secret with keys accessKeyId and secretAccessKey.',
          }),
        },
        { required: ['url', 'credentialsSecretName'], description: 'S3-compatible store.' },
      ),
      storageClassName: str({
        maxLength: 253,
        pattern: DNS_SUBDOMAIN,
        description: 'PersistentFleet only: class of the members’ retained claims.',
      }),
      sizeGiB: int({
        minimum: 1,
        maximum: 16384,
        default: 10,
        description: 'PVC size (PersistentFleet) or emptyDir limit (Bucket).',
      }),
    },
    { required: ['bucket', 'region'], rules: [{ rule: 'self == oldSelf', message: M.storage }] },
  );
}

function executionSchema(): SchemaNode {
  return obj(
    {
      cpuRequest: quantity('CPU request.', '250m'),
      cpuLimit: quantity('CPU limit; none by default.'),
      memoryRequest: quantity('Memory request.', '512Mi'),
      memoryLimit: quantity('Memory limit.', '1Gi'),
      maxResidentCells: int({
        minimum: 1,
        maximum: 1000000,
        description: 'CELLD_MAX_RESIDENT_CELLS',
      }),
      idleEvictSeconds: int({ minimum: 1, maximum: 86400, description: 'CELLD_IDLE_EVICT_S' }),
    },
    {
      default: {},
      rules: [
        limitRule('cpuLimit', 'cpuRequest', M.cpuLimit),
        limitRule('memoryLimit', 'memoryRequest', M.memoryLimit),
      ],
    },
  );
}

function lifecycleSchema(): SchemaNode {
  const shutdownSeconds = 20;
  const terminationGraceSeconds = 30;
  return obj(
    {
      shutdownSeconds: int({ minimum: 1, maximum: 3600, default: shutdownSeconds }),
      terminationGraceSeconds: int({ minimum: 6, maximum: 3605, default: terminationGraceSeconds }),
    },
    {
      // Spelled out rather than `{}`: the server checks a default against the object's rules
      // without applying nested defaults first.
      default: { shutdownSeconds, terminationGraceSeconds },
      rules: [
        {
          // Both fields have defaults, but a rule must not depend on defaulting having run.
          rule:
            '!has(self.terminationGraceSeconds) || !has(self.shutdownSeconds) || ' +
            'self.terminationGraceSeconds >= self.shutdownSeconds + 5',
          message: M.terminationGrace,
          fieldPath: '.terminationGraceSeconds',
        },
      ],
    },
  );
}

function envSchema(): SchemaNode {
  const name = withRules(str({ maxLength: 128 }), [
    { rule: `self.matches('${ENV_NAME_PATTERN}')`, message: M.envName },
    { rule: `!(self in ${celStringList(RESERVED_ENV_NAMES)})`, message: M.envReserved },
    {
      rule: `!${celStringList(RESERVED_ENV_PREFIXES)}.exists(p, self.startsWith(p))`,
      message: M.envReservedPrefix,
    },
  ]);
  const item = obj(
    {
      name,
      value: str({ maxLength: 4096 }),
      secretKeyRef: obj(
        {
          name: str({ maxLength: 253, pattern: DNS_SUBDOMAIN }),
          key: str({ maxLength: 253, pattern: '^[-._a-zA-Z0-9]+$' }),
        },
        { required: ['name', 'key'] },
      ),
    },
    {
      required: ['name'],
      rules: [{ rule: 'has(self.value) != has(self.secretKeyRef)', message: M.envValue }],
    },
  );
  return list(item, { maxItems: 32, listType: { mapKeys: ['name'] } });
}

function specSchema(): SchemaNode {
  return obj(
    {
      profile: withRules(enumOf(['PersistentFleet', 'Bucket'], 'Durability profile.'), [
        { rule: 'self == oldSelf', message: M.profile },
      ]),
      bucketWorkload: enumOf(['Deployment', 'Ordered'], 'Bucket only; absent means Deployment.'),
      replicas: int({ minimum: 1, maximum: 100, default: 3 }),
      runtimeImage: str({ maxLength: 512, pattern: DIGEST_IMAGE, description: 'Digest-pinned.' }),
      maintenance: obj({
        paused: bool('Stops workload writes and self-healing.'),
        restartToken: str({ maxLength: 128, description: 'A new value rolls every member.' }),
      }),
      serviceAccountName: withRules(str({ minLength: 1, maxLength: 253, pattern: DNS_SUBDOMAIN }), [
        { rule: 'self == oldSelf', message: M.serviceAccountName },
      ]),
      storage: storageSchema(),
      placement: obj(
        {
          zones: list(str({ minLength: 1, maxLength: 63 }), {
            minItems: 1,
            maxItems: 6,
            listType: 'set',
          }),
          mode: enumOf(['Strict', 'Relaxed'], undefined, 'Strict'),
        },
        { required: ['zones'], rules: [{ rule: 'self == oldSelf', message: M.placement }] },
      ),
      execution: executionSchema(),
      lifecycle: lifecycleSchema(),
      env: envSchema(),
    },
    {
      required: ['profile', 'runtimeImage', 'serviceAccountName', 'storage', 'placement'],
      // Each cross-field rule first checks that the fields it reads are present: the required-
      // field errors run beside the rules (upstream blocks CEL only on type errors), so an
      // unguarded `self.placement.zones` adds "no such key: placement evaluating rule …" to
      // the one error the user needs. A missing field is reported once, by `required`.
      rules: [
        {
          rule: "!has(self.bucketWorkload) || !has(self.profile) || self.profile == 'Bucket'",
          message: M.bucketWorkload,
          fieldPath: '.bucketWorkload',
        },
        {
          rule:
            '!has(self.profile) || !has(self.storage) || ' +
            "self.profile != 'PersistentFleet' || has(self.storage.storageClassName)",
          message: M.storageClassRequired,
          fieldPath: '.storage',
          reason: 'FieldValueRequired',
        },
        {
          rule:
            '!has(self.profile) || !has(self.storage) || ' +
            "self.profile == 'PersistentFleet' || !has(self.storage.storageClassName)",
          message: M.storageClassForbidden,
          fieldPath: '.storage.storageClassName',
          reason: 'FieldValueForbidden',
        },
        {
          rule:
            '!has(self.replicas) || !has(self.placement) || !has(self.placement.zones) || ' +
            'self.replicas >= size(self.placement.zones)',
          message: M.replicasZones,
          fieldPath: '.replicas',
        },
        fixedAtCreation('execution', M.execution),
        fixedAtCreation('lifecycle', M.lifecycle),
        fixedAtCreation('env', M.env),
        fixedAtCreation('bucketWorkload', M.bucketWorkloadFixed),
      ],
    },
  );
}

function memberSchema(): SchemaNode {
  return obj(
    {
      pod: str({ maxLength: 253 }),
      ordinal: int({ minimum: 0 }),
      ready: bool(),
      node: str({ maxLength: 253 }),
      zone: str({ maxLength: 63 }),
      claim: str({ maxLength: 253 }),
      claimPhase: enumOf(['Pending', 'Bound', 'Lost']),
      downSince: str({ maxLength: 64, format: 'date-time' }),
      replacementDue: str({ maxLength: 64, format: 'date-time' }),
      note: str({ maxLength: 1024, description: 'Why a down member is not (yet) replaced.' }),
    },
    { required: ['pod', 'ready'] },
  );
}

function statusSchema(): SchemaNode {
  return obj({
    replicas: int({ minimum: 0 }),
    readyReplicas: int({ minimum: 0 }),
    labelSelector: str({ maxLength: 1024 }),
    observedGeneration: int({ minimum: 0, format: 'int64' }),
    state: enumOf(FLEET_STATES, 'One-word summary of the conditions.'),
    reservation: str({ maxLength: 253 }),
    conditions: list(conditionSchema(), { maxItems: 16, listType: { mapKeys: ['type'] } }),
    blockedSince: str({ maxLength: 64, format: 'date-time' }),
    members: list(memberSchema(), { maxItems: 100, listType: { mapKeys: ['pod'] } }),
  });
}

/** The whole object's schema (`openAPIV3Schema`). */
export function celldFleetSchema(): SchemaNode {
  return obj(
    {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec: specSchema(),
      status: statusSchema(),
    },
    {
      required: ['spec'],
      rules: [
        {
          rule: "self.metadata.name.size() <= 40 && self.metadata.name.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')",
          message: M.name,
        },
      ],
    },
  );
}
