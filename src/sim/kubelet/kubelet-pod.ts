/**
 * The pod as the simulated kubelet plays it: the generated `Pod` (`src/api/model/`), narrowed
 * once where a pod enters the kubelet ({@link isKubeletPod}) to one whose `metadata` and `spec`
 * are there. A pod bound to a node always has both; the planners read them on every line.
 *
 * Its status admits `null` for the times the kubelet writes as null, as upstream writes a zero
 * `metav1.Time`: `lastProbeTime: null` on every condition, and `startedAt`/`finishedAt: null` on
 * a container whose state could not be found when its pod was killed. The generated types say
 * string for those (they admit null only on ObjectMeta), while the goldens and what the API
 * server stores and serves carry null, so the status is the generated one with those fields
 * widened, nothing else.
 *
 * @module
 */
import type * as model from '../../api/model/index.js';
import { kindMismatch } from '../../api/model/index.js';
import { isJsonObject, type KubeObject } from '../../api/object.js';

export type { Container } from '../../api/model/index.js';

/** A `metav1.Time` as the kubelet writes it: RFC 3339, or null for the zero time. */
type NullableTime = string | null;

export type PodCondition = Omit<model.PodCondition, 'lastProbeTime'> & {
  lastProbeTime?: NullableTime;
};

export type ContainerStateTerminated = Omit<
  model.ContainerStateTerminated,
  'startedAt' | 'finishedAt'
> & { startedAt?: NullableTime; finishedAt?: NullableTime };

export type ContainerState = Omit<model.ContainerState, 'terminated'> & {
  terminated?: ContainerStateTerminated;
};

export type ContainerStatus = Omit<model.ContainerStatus, 'state' | 'lastState'> & {
  state?: ContainerState;
  lastState?: ContainerState;
};

export type PodStatus = Omit<
  model.PodStatus,
  'conditions' | 'initContainerStatuses' | 'containerStatuses'
> & {
  conditions?: PodCondition[];
  initContainerStatuses?: ContainerStatus[];
  containerStatuses?: ContainerStatus[];
};

/** A pod with its metadata and spec, as the kubelet plays it. */
export type KubeletPod = Omit<model.Pod, 'metadata' | 'spec' | 'status'> & {
  metadata: model.ObjectMeta;
  spec: model.PodSpec;
  status?: PodStatus;
};

/**
 * Whether `obj` (from a pods informer or lister) is a pod the kubelet can play: no other kind,
 * and `metadata` and `spec` objects with a `containers` list (the API server requires one).
 */
export function isKubeletPod(obj: KubeObject): obj is KubeletPod {
  return (
    kindMismatch(obj, 'Pod') === undefined &&
    isJsonObject(obj.metadata) &&
    isJsonObject(obj.spec) &&
    Array.isArray(obj.spec.containers)
  );
}
