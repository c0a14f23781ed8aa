/**
 * The kubelet's pod admission as one pure function: `admitPod(pod, node, admitted)` says
 * whether the node takes a pod bound to it, given the pods it has already admitted (upstream
 * `Kubelet.canAdmitPod` over its admit handlers). The scheduler checks the same things, but a
 * pod bound by `spec.nodeName` (or placed from a stale cache) skips it; the kubelet is the
 * last word, and a rejected pod goes `Failed` with the reason and message returned here
 * (`admission-status.ts`).
 *
 * The handlers, in upstream's order; the first refusal wins:
 * 1. sysctls (`sysctls.ts`): `SysctlForbidden`;
 * 2. the predicate handler (`pkg/kubelet/lifecycle/predicate.go`):
 *    - a `kubernetes.io/os` pod label other than `linux`: `PodOSSelectorNodeLabelDoesNotMatch`;
 *    - `spec.os.name` other than `linux`: `PodOSNotSupported`;
 *    - `generalFilter`, which collects every failure and reports the first: resources
 *      (`admission-resources.ts`; reason `OutOf<resource>`, message `Node didn't have enough
 *      resource: cpu, requested: 5000, used: 0, capacity: 4000`), NodeAffinity (nodeSelector
 *      and required node affinity), NodeName, NodePorts (`host-ports.ts`), then TaintToleration
 *      — only `NoExecute` taints, as a `NoSchedule` taint is the scheduler's business; each of
 *      these reports reason = predicate name and `Predicate <name> failed: <description>`
 *      (the description since Kubernetes 1.31).
 *
 * Only non-terminal pods bound to this node count as admitted; the caller passes the pods it
 * admitted earlier (see `admission-ledger.ts` for the order). Not simulated: the eviction
 * manager (the nodes never report pressure), device plugins, and the kubelet's preemption of
 * lower-priority pods for a critical pod short of resources.
 *
 * @module
 */
import { asKind, type Pod, type PodSpec } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { NODE_AFFINITY_REASON } from '../../scheduler/filters/node-affinity.js';
import { NODE_NAME_REASON } from '../../scheduler/filters/node-name.js';
import { NODE_PORTS_REASON } from '../../scheduler/filters/node-ports.js';
import { anyHostPortConflict, hostPortsOf } from '../../scheduler/host-ports.js';
import { buildNodeInfos } from '../../scheduler/node-info.js';
import { matchesRequiredNodeAffinity } from '../../scheduler/node-selector.js';
import { labelsOf, podSpecOf } from '../../scheduler/pod-view.js';
import { findUntoleratedTaint } from '../../scheduler/tolerations.js';
import type { NodeInfo } from '../../scheduler/types.js';
import {
  admissionRequests,
  type InsufficientResource,
  insufficientResources,
} from './admission-resources.js';
import { forbiddenSysctl, SYSCTL_FORBIDDEN } from './sysctls.js';

export interface Rejection {
  /** One word: `OutOfcpu`, `NodePorts`, `NodeAffinity`, `TaintToleration`, … */
  readonly reason: string;
  /** Without the `Pod was rejected: ` prefix the status adds (the Event carries it bare). */
  readonly message: string;
}

export type AdmitResult = { readonly admit: true } | ({ readonly admit: false } & Rejection);

const ADMIT: AdmitResult = { admit: true };

/** The OS of the simulated nodes (upstream compares with the kubelet's `runtime.GOOS`). */
const NODE_OS = 'linux';
const OS_LABEL = 'kubernetes.io/os';

/** Upstream `TaintToleration` filter's reason (the kubelet does not name the taint). */
export const TAINT_TOLERATION_REASON = "node(s) had taints that the pod didn't tolerate";

/** Upstream's `OutOfCPU`, `OutOfMemory`, `OutOfPods`, … : `OutOf` + the resource name. */
export function outOfReason(resource: string): string {
  return `OutOf${resource}`;
}

export function insufficientResourceMessage(r: InsufficientResource): string {
  return (
    `Node didn't have enough resource: ${r.resource}, requested: ${r.requested}, ` +
    `used: ${r.used}, capacity: ${r.capacity}`
  );
}

export function predicateMessage(predicate: string, description: string): string {
  return `Predicate ${predicate} failed: ${description}`;
}

function reject(reason: string, message: string): AdmitResult {
  return { admit: false, reason, message };
}

function predicate(name: string, description: string): AdmitResult {
  return reject(name, predicateMessage(name, description));
}

/** Upstream `generalFilter`: every failure in order; the caller reports the first. */
function generalFilter(spec: PodSpec, node: NodeInfo): AdmitResult[] {
  const out: AdmitResult[] = insufficientResources(
    admissionRequests(spec, node.allocatable),
    node,
  ).map((r) => reject(outOfReason(r.resource), insufficientResourceMessage(r)));
  if (!matchesRequiredNodeAffinity(spec, node)) {
    out.push(predicate('NodeAffinity', NODE_AFFINITY_REASON));
  }
  if (spec.nodeName && spec.nodeName !== node.name) {
    out.push(predicate('NodeName', NODE_NAME_REASON));
  }
  const used = node.pods.flatMap((p) => hostPortsOf(podSpecOf(p)));
  if (anyHostPortConflict(hostPortsOf(spec), used)) {
    out.push(predicate('NodePorts', NODE_PORTS_REASON));
  }
  const noExecute = findUntoleratedTaint(
    node.spec.taints ?? [],
    spec.tolerations ?? [],
    (t) => t.effect === 'NoExecute',
  );
  if (noExecute !== undefined) out.push(predicate('TaintToleration', TAINT_TOLERATION_REASON));
  return out;
}

/** Upstream `predicateAdmitHandler.Admit`. */
function predicateAdmit(pod: Pod, spec: PodSpec, node: NodeInfo): AdmitResult {
  const osLabel = labelsOf(pod)[OS_LABEL];
  if (osLabel !== undefined && osLabel !== NODE_OS) {
    return reject(
      'PodOSSelectorNodeLabelDoesNotMatch',
      "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label",
    );
  }
  const os = spec.os?.name;
  if (os && os !== NODE_OS) {
    return reject('PodOSNotSupported', "Failed to admit pod as the OS field doesn't match node OS");
  }
  return generalFilter(spec, node)[0] ?? ADMIT;
}

/**
 * Whether `node` admits `pod`, given the pods it admitted before (any order; the pod itself,
 * terminal pods and pods bound elsewhere are ignored).
 */
export function admitPod(
  obj: KubeObject,
  node: KubeObject,
  admitted: readonly KubeObject[],
): AdmitResult {
  const pod = asKind(obj, 'Pod');
  const spec = podSpecOf(pod);
  const sysctl = forbiddenSysctl(spec);
  if (sysctl !== undefined) return reject(SYSCTL_FORBIDDEN, sysctl);
  const uid = pod.metadata?.uid;
  const others = admitted
    .map((p) => asKind(p, 'Pod'))
    .filter((p) => uid === undefined || p.metadata?.uid !== uid);
  const [info] = buildNodeInfos([asKind(node, 'Node')], others);
  if (info === undefined) return ADMIT; // unreachable: one node in, one out
  return predicateAdmit(pod, spec, info);
}
