/**
 * API Priority and Fairness' bootstrap configuration (upstream
 * `k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap/default.go`, v1.33): the mandatory
 * PriorityLevelConfigurations `exempt` and `catch-all` with their FlowSchemas, and the
 * suggested ones, as plain objects; and the plans upstream's configuration ensurer follows
 * (`pkg/registry/flowcontrol/ensurer`): create what is missing; keep a mandatory object's
 * spec as bootstrapped, always; keep a suggested object's spec while its
 * `apf.kubernetes.io/autoupdate-spec` annotation is `true` (or absent on an object never
 * changed, generation 1). Also each FlowSchema's `Dangling` condition, which upstream's APF
 * configuration controller keeps (what `kubectl get flowschemas` shows under MISSINGPL).
 *
 * @module
 */
import { semanticEqual } from '../../api/kinds/common.js';
import { getObj, getStr, objects } from '../../api/kinds/json.js';
import type { JsonObject, KubeObject } from '../../api/object.js';

/** Upstream `AutoUpdateAnnotationKey`. */
export const AUTO_UPDATE_ANNOTATION = 'apf.kubernetes.io/autoupdate-spec';

/** One bootstrap object: its spec, and whether it is mandatory. */
export interface BootstrapObject {
  readonly name: string;
  readonly mandatory: boolean;
  readonly spec: JsonObject;
}

const ALL = ['*'];
const MASTERS = 'system:masters';
const AUTHENTICATED = 'system:authenticated';
const UNAUTHENTICATED = 'system:unauthenticated';
const NODES = 'system:nodes';
const CONTROLLER_MANAGER = 'system:kube-controller-manager';
const SCHEDULER = 'system:kube-scheduler';
const SERVICE_ACCOUNTS = 'system:serviceaccounts';

const groups = (...names: string[]) => names.map((name) => ({ kind: 'Group', group: { name } }));
const users = (...names: string[]) => names.map((name) => ({ kind: 'User', user: { name } }));
const kubeSystemSAs = (...names: string[]) =>
  names.map((name) => ({
    kind: 'ServiceAccount',
    serviceAccount: { namespace: 'kube-system', name },
  }));

function resourceRule(
  verbs: string[],
  apiGroups: string[],
  resources: string[],
  clusterScope: boolean,
): JsonObject {
  return {
    verbs,
    apiGroups,
    resources,
    ...(clusterScope ? { clusterScope } : {}),
    namespaces: ALL,
  };
}

const nonResourceRule = (verbs: string[], nonResourceURLs: string[]) => ({
  verbs,
  nonResourceURLs,
});
/** Everything: every resource in every namespace and cluster-wide, every non-resource URL. */
const EVERYTHING = {
  resourceRules: [resourceRule(ALL, ALL, ALL, true)],
  nonResourceRules: [nonResourceRule(ALL, ALL)],
};

function flowSchema(
  name: string,
  priorityLevel: string,
  matchingPrecedence: number,
  distinguisher: string,
  rule: JsonObject,
  mandatory = false,
): BootstrapObject {
  return {
    name,
    mandatory,
    spec: {
      priorityLevelConfiguration: { name: priorityLevel },
      matchingPrecedence,
      ...(distinguisher === '' ? {} : { distinguisherMethod: { type: distinguisher } }),
      rules: [rule],
    },
  };
}

function queued(
  name: string,
  shares: number,
  lendablePercent: number,
  queues: number,
  handSize: number,
): BootstrapObject {
  return {
    name,
    mandatory: false,
    spec: {
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: shares,
        lendablePercent,
        limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit: 50 } },
      },
    },
  };
}

/** Mandatory first, then suggested, in upstream's order. */
export const BOOTSTRAP_PRIORITY_LEVELS: readonly BootstrapObject[] = [
  {
    name: 'catch-all',
    mandatory: true,
    spec: {
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: 5,
        lendablePercent: 0,
        limitResponse: { type: 'Reject' },
      },
    },
  },
  {
    name: 'exempt',
    mandatory: true,
    spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } },
  },
  queued('system', 30, 33, 64, 6),
  queued('node-high', 40, 25, 64, 6),
  queued('leader-election', 10, 0, 16, 4),
  queued('workload-high', 40, 50, 128, 6),
  queued('workload-low', 100, 90, 128, 6),
  queued('global-default', 20, 50, 128, 6),
];

const LEASES = resourceRule(
  ['get', 'create', 'update'],
  ['coordination.k8s.io'],
  ['leases'],
  false,
);

/** Mandatory first, then suggested, in upstream's order. */
export const BOOTSTRAP_FLOW_SCHEMAS: readonly BootstrapObject[] = [
  flowSchema('exempt', 'exempt', 1, '', { subjects: groups(MASTERS), ...EVERYTHING }, true),
  flowSchema(
    'catch-all',
    'catch-all',
    10000,
    'ByUser',
    { subjects: groups(UNAUTHENTICATED, AUTHENTICATED), ...EVERYTHING },
    true,
  ),
  flowSchema('system-nodes', 'system', 500, 'ByUser', { subjects: groups(NODES), ...EVERYTHING }),
  flowSchema('system-node-high', 'node-high', 400, 'ByUser', {
    subjects: groups(NODES),
    resourceRules: [
      resourceRule(ALL, [''], ['nodes', 'nodes/status'], true),
      resourceRule(ALL, ['coordination.k8s.io'], ['leases'], false),
    ],
  }),
  flowSchema('probes', 'exempt', 2, '', {
    subjects: groups(UNAUTHENTICATED, AUTHENTICATED),
    nonResourceRules: [nonResourceRule(['get'], ['/healthz', '/readyz', '/livez'])],
  }),
  flowSchema('system-leader-election', 'leader-election', 100, 'ByUser', {
    subjects: [...users(CONTROLLER_MANAGER, SCHEDULER), ...kubeSystemSAs('*')],
    resourceRules: [LEASES],
  }),
  flowSchema('workload-leader-election', 'leader-election', 200, 'ByUser', {
    subjects: kubeSystemSAs('*'),
    resourceRules: [
      resourceRule(['get', 'create', 'update'], [''], ['endpoints', 'configmaps'], false),
      LEASES,
    ],
  }),
  flowSchema('endpoint-controller', 'workload-high', 150, 'ByUser', {
    subjects: [
      ...users(CONTROLLER_MANAGER),
      ...kubeSystemSAs('endpoint-controller', 'endpointslicemirroring-controller'),
    ],
    resourceRules: [resourceRule(['get', 'create', 'update'], [''], ['endpoints'], false)],
  }),
  flowSchema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', {
    subjects: users(CONTROLLER_MANAGER),
    ...EVERYTHING,
  }),
  flowSchema('kube-scheduler', 'workload-high', 800, 'ByNamespace', {
    subjects: users(SCHEDULER),
    ...EVERYTHING,
  }),
  flowSchema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', {
    subjects: kubeSystemSAs('*'),
    ...EVERYTHING,
  }),
  flowSchema('service-accounts', 'workload-low', 9000, 'ByUser', {
    subjects: groups(SERVICE_ACCOUNTS),
    ...EVERYTHING,
  }),
  flowSchema('global-default', 'global-default', 9900, 'ByUser', {
    subjects: groups(UNAUTHENTICATED, AUTHENTICATED),
    ...EVERYTHING,
  }),
];

/** A write the ensurer plans: a new object, or the stored one with the bootstrap spec. */
export type EnsureWrite =
  | { readonly action: 'create'; readonly object: KubeObject }
  | { readonly action: 'update'; readonly object: KubeObject };

/** Upstream's `shouldUpdateSpec`: mandatory always; suggested while the annotation allows. */
function autoUpdates(current: KubeObject, wanted: BootstrapObject): boolean {
  if (wanted.mandatory) return true;
  const value = current.metadata?.annotations?.[AUTO_UPDATE_ANNOTATION];
  if (value !== undefined) return value === 'true';
  return current.metadata?.generation === 1;
}

/** What the ensurer writes for one bootstrap object, given the stored one (if any). */
export function planBootstrapObject(
  current: KubeObject | undefined,
  wanted: BootstrapObject,
): EnsureWrite | undefined {
  const annotations = { [AUTO_UPDATE_ANNOTATION]: 'true' };
  if (current === undefined) {
    return {
      action: 'create',
      object: { metadata: { name: wanted.name, annotations }, spec: structuredClone(wanted.spec) },
    };
  }
  if (current.metadata?.deletionTimestamp || !autoUpdates(current, wanted)) return undefined;
  const annotated = current.metadata?.annotations?.[AUTO_UPDATE_ANNOTATION] === 'true';
  if (annotated && semanticEqual(current.spec, wanted.spec)) return undefined;
  return {
    action: 'update',
    object: {
      ...current,
      metadata: {
        ...current.metadata,
        annotations: { ...current.metadata?.annotations, ...annotations },
      },
      spec: structuredClone(wanted.spec),
    },
  };
}

/**
 * The `Dangling` condition upstream's APF controller keeps on a FlowSchema, or undefined when
 * the stored one already says the same (its transition time is kept then).
 */
export function planDangling(
  fs: KubeObject,
  priorityLevels: ReadonlySet<string>,
  now: string,
): JsonObject | undefined {
  const plName = getStr(getObj(getObj(fs, 'spec'), 'priorityLevelConfiguration'), 'name') ?? '';
  const found = priorityLevels.has(plName);
  const named = `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(plName)}`;
  const wanted = {
    type: 'Dangling',
    status: found ? 'False' : 'True',
    reason: found ? 'Found' : 'NotFound',
    message: found ? `${named} and it exists` : `${named} but there is no such object`,
  };
  const status = getObj(fs, 'status') ?? {};
  const conditions = objects(status, 'conditions');
  const old = conditions.find((c) => c.type === 'Dangling');
  const same =
    old !== undefined &&
    old.status === wanted.status &&
    old.reason === wanted.reason &&
    old.message === wanted.message;
  if (same) return undefined;
  const others = conditions.filter((c) => c !== old);
  return { ...status, conditions: [...others, { ...wanted, lastTransitionTime: now }] };
}
