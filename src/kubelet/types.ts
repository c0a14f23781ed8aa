/**
 * The slice of the core/v1 Pod shape the simulated kubelet reads and writes. Plain JSON, no
 * classes: a {@link Pod} is any pod object decoded from the store, narrowed to the fields used here.
 *
 * @module
 */

export interface EnvVarSource {
  configMapKeyRef?: { name?: string; key?: string; optional?: boolean } | null;
  secretKeyRef?: { name?: string; key?: string; optional?: boolean } | null;
}

export interface Container {
  name: string;
  image?: string;
  /** Only meaningful on init containers: `Always` makes it a sidecar. */
  restartPolicy?: string;
  env?: { name: string; value?: string; valueFrom?: EnvVarSource | null }[] | null;
  envFrom?:
    | {
        configMapRef?: { name?: string; optional?: boolean } | null;
        secretRef?: { name?: string; optional?: boolean } | null;
      }[]
    | null;
  [extra: string]: unknown;
}

export interface Volume {
  name: string;
  configMap?: { name?: string; optional?: boolean } | null;
  secret?: { secretName?: string; optional?: boolean } | null;
  [extra: string]: unknown;
}

export interface PodSpec {
  nodeName?: string;
  restartPolicy?: string;
  terminationGracePeriodSeconds?: number | null;
  initContainers?: Container[] | null;
  containers: Container[];
  volumes?: Volume[] | null;
  readinessGates?: { conditionType: string }[] | null;
  [extra: string]: unknown;
}

export interface ContainerStateWaiting {
  reason?: string;
  message?: string;
}
export interface ContainerStateRunning {
  startedAt?: string;
}
export interface ContainerStateTerminated {
  exitCode: number;
  signal?: number;
  reason?: string;
  message?: string;
  startedAt?: string | null;
  finishedAt?: string | null;
  containerID?: string;
}
export interface ContainerState {
  waiting?: ContainerStateWaiting;
  running?: ContainerStateRunning;
  terminated?: ContainerStateTerminated;
}

export interface ContainerStatus {
  name: string;
  image: string;
  imageID: string;
  containerID?: string;
  ready: boolean;
  started: boolean;
  restartCount: number;
  state: ContainerState;
  lastState: ContainerState;
}

export interface PodCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastProbeTime: string | null;
  lastTransitionTime: string;
  reason?: string;
  message?: string;
}

export interface PodStatus {
  phase?: string;
  conditions?: PodCondition[];
  hostIP?: string;
  hostIPs?: { ip: string }[];
  podIP?: string;
  podIPs?: { ip: string }[];
  startTime?: string;
  initContainerStatuses?: ContainerStatus[];
  containerStatuses?: ContainerStatus[];
  qosClass?: string;
  [extra: string]: unknown;
}

export interface Pod {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name?: string;
    namespace?: string;
    uid?: string;
    annotations?: Record<string, string> | null;
    deletionTimestamp?: string | null;
    deletionGracePeriodSeconds?: number | null;
    [extra: string]: unknown;
  };
  spec: PodSpec;
  status?: PodStatus;
}
