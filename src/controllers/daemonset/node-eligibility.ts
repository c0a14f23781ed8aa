/**
 * Which nodes a DaemonSet runs on, and the pods it makes for them (upstream
 * `daemon_controller.go: NodeShouldRunDaemonPod, predicates, NewPod` and
 * `util/daemonset_util.go: AddOrUpdateDaemonPodTolerations, CreatePodTemplate,
 * ReplaceDaemonSetPodNodeNameNodeAffinity, GetTargetNodeName`).
 *
 * A node is eligible when the template's `nodeName` (if any) is the node, its `nodeSelector`
 * and required node affinity match, and it has no NoSchedule/NoExecute taint the daemon pod
 * (with the tolerations below added) does not tolerate. A pod already running may stay while
 * the only untolerated taints are NoSchedule ones. Since 1.12 the controller does not bind: it
 * pins each pod to its node with a required `matchFields` term on `metadata.name` and leaves
 * binding to the scheduler.
 *
 * @module
 */
import type {
  Affinity,
  DaemonSet,
  Node,
  Pod,
  PodSpec,
  PodTemplateSpec,
  Taint,
  Toleration,
} from '../../api/model/index.js';
import { deepCopy, deepEqual } from '../../api/object.js';
import { toleratesTaint } from '../../api/taints.js';
import { nodeSelectorTermMatches } from '../../scheduler/node-selector.js';

/** Label of a daemon pod: the template generation it was made from (upstream `DaemonSetTemplateGenerationKey`). */
export const POD_TEMPLATE_GENERATION_LABEL = 'pod-template-generation';
/** Label of a daemon pod and of a revision: the template hash (upstream `DefaultDaemonSetUniqueLabelKey`). */
export const DAEMONSET_HASH_LABEL = 'controller-revision-hash';
/** The field a daemon pod's node affinity names its node by (upstream `metav1.ObjectNameField`). */
export const NODE_NAME_FIELD = 'metadata.name';

const exists = (key: string, effect: string): Toleration => ({ key, operator: 'Exists', effect });

/**
 * The tolerations every daemon pod gets, in upstream's order: it must survive node problems
 * (not-ready and unreachable NoExecute, so taint-based eviction never removes it) and run on
 * nodes under pressure or cordoned (TaintNodesByCondition's NoSchedule taints).
 */
export const DAEMON_POD_TOLERATIONS: readonly Toleration[] = [
  exists('node.kubernetes.io/not-ready', 'NoExecute'),
  exists('node.kubernetes.io/unreachable', 'NoExecute'),
  exists('node.kubernetes.io/disk-pressure', 'NoSchedule'),
  exists('node.kubernetes.io/memory-pressure', 'NoSchedule'),
  exists('node.kubernetes.io/pid-pressure', 'NoSchedule'),
  exists('node.kubernetes.io/unschedulable', 'NoSchedule'),
];
/** Only for host-network pods: they do not need the pod network. */
const NETWORK_UNAVAILABLE = exists('node.kubernetes.io/network-unavailable', 'NoSchedule');

/** Upstream `Toleration.MatchToleration`: same key, operator, value and effect. */
function sameToleration(a: Toleration, b: Toleration): boolean {
  return (
    (a.key ?? '') === (b.key ?? '') &&
    (a.operator ?? '') === (b.operator ?? '') &&
    (a.value ?? '') === (b.value ?? '') &&
    (a.effect ?? '') === (b.effect ?? '')
  );
}

/** Upstream `AddOrUpdateTolerationInPodSpec`: a matching one is replaced, else it is appended. */
function addOrUpdateToleration(list: Toleration[], toleration: Toleration): Toleration[] {
  let updated = false;
  const next = list.map((t) => {
    if (!sameToleration(t, toleration)) return t;
    updated = true;
    return toleration;
  });
  return updated ? next : [...next, toleration];
}

/** Upstream `AddOrUpdateDaemonPodTolerations`: the pod spec with the daemon tolerations. */
export function withDaemonTolerations(spec: PodSpec): PodSpec {
  let tolerations = [...(spec.tolerations ?? [])];
  const wanted =
    spec.hostNetwork === true
      ? [...DAEMON_POD_TOLERATIONS, NETWORK_UNAVAILABLE]
      : DAEMON_POD_TOLERATIONS;
  for (const t of wanted) tolerations = addOrUpdateToleration(tolerations, t);
  return deepEqual(tolerations, spec.tolerations ?? []) ? spec : { ...spec, tolerations };
}

/** Whether node eligibility says create (`shouldRun`) and keep (`shouldContinueRunning`). */
export interface Eligibility {
  readonly shouldRun: boolean;
  readonly shouldContinueRunning: boolean;
}

function untolerated(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
  effects: readonly string[],
): boolean {
  return taints.some(
    (taint) => effects.includes(taint.effect) && !tolerations.some((t) => toleratesTaint(t, taint)),
  );
}

/** Upstream `nodeaffinity.GetRequiredNodeAffinity(pod).Match(node)`. */
export function matchesNodeAffinity(spec: PodSpec, node: Node): boolean {
  const labels = node.metadata?.labels ?? {};
  for (const [k, v] of Object.entries(spec.nodeSelector ?? {})) {
    if (labels[k] !== v) return false;
  }
  const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (required === undefined || required === null) return true;
  const name = node.metadata?.name ?? '';
  return (required.nodeSelectorTerms ?? []).some((t) =>
    nodeSelectorTermMatches(t, { name, labels }),
  );
}

/** Upstream `NodeShouldRunDaemonPod`. */
export function nodeShouldRunDaemonPod(node: Node, ds: DaemonSet): Eligibility {
  const name = node.metadata?.name ?? '';
  const spec = ds.spec?.template?.spec;
  const wanted = spec?.nodeName ?? '';
  if (spec === undefined || (wanted !== '' && wanted !== name)) {
    return { shouldRun: false, shouldContinueRunning: false };
  }
  if (!matchesNodeAffinity(spec, node)) return { shouldRun: false, shouldContinueRunning: false };
  const taints = node.spec?.taints ?? [];
  const tolerations = withDaemonTolerations(spec).tolerations ?? [];
  if (!untolerated(taints, tolerations, ['NoSchedule', 'NoExecute'])) {
    return { shouldRun: true, shouldContinueRunning: true };
  }
  return {
    shouldRun: false,
    shouldContinueRunning: !untolerated(taints, tolerations, ['NoExecute']),
  };
}

/**
 * Upstream `ReplaceDaemonSetPodNodeNameNodeAffinity`: the required node affinity becomes the one
 * term `metadata.name In [node]` (preferred terms and pod (anti-)affinity are kept).
 */
export function pinToNode(affinity: Affinity | undefined, nodeName: string): Affinity {
  const required = {
    nodeSelectorTerms: [
      { matchFields: [{ key: NODE_NAME_FIELD, operator: 'In', values: [nodeName] }] },
    ],
  };
  const base = affinity ?? {};
  return {
    ...base,
    nodeAffinity: {
      ...(base.nodeAffinity ?? {}),
      requiredDuringSchedulingIgnoredDuringExecution: required,
    },
  };
}

/**
 * Upstream `CreatePodTemplate` plus the node pin: the template of the daemon pod for `nodeName`,
 * with the daemon tolerations, the generation and hash labels.
 */
export function daemonPodTemplate(
  ds: DaemonSet,
  nodeName: string,
  hash: string,
  generation: number | undefined,
): PodTemplateSpec {
  const template = deepCopy(ds.spec?.template ?? {});
  const labels = { ...(template.metadata?.labels ?? {}) };
  if (generation !== undefined) labels[POD_TEMPLATE_GENERATION_LABEL] = `${generation}`;
  if (hash !== '') labels[DAEMONSET_HASH_LABEL] = hash;
  const spec = withDaemonTolerations(template.spec ?? { containers: [] });
  return {
    ...template,
    metadata: { ...(template.metadata ?? {}), labels },
    spec: { ...spec, affinity: pinToNode(spec.affinity, nodeName) },
  };
}

/**
 * Upstream `GetTargetNodeName`: `spec.nodeName`, or for a pod not bound yet the single value of
 * its `metadata.name In` matchFields requirement; undefined when it names no node.
 */
export function targetNodeName(pod: Pod): string | undefined {
  const bound = pod.spec?.nodeName ?? '';
  if (bound !== '') return bound;
  const terms =
    pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
      ?.nodeSelectorTerms ?? [];
  for (const term of terms) {
    for (const r of term.matchFields ?? []) {
      if (r.key === NODE_NAME_FIELD && r.operator === 'In') {
        return r.values?.length === 1 ? r.values[0] : undefined;
      }
    }
  }
  return undefined;
}
