/**
 * What the API server needs from the nodes' kubelets to serve the pod subresources a real
 * kube-apiserver proxies to them (`log`, `exec`, `attach`, `portforward`) and the Metrics API
 * (`metrics.k8s.io`, which metrics-server serves from the kubelets' summaries). The API server
 * defines these small interfaces and serves through them; the simulation implements them
 * (`src/sim/kubelet-api/`), and `src/cluster/up.ts` hands its implementation to the server
 * (this layer may not import `sim`). Everything here is derived from API objects the server
 * already holds, so the implementations need no channel to the kubelets' thread.
 *
 * @module
 */
import type { Node, Pod } from '../../api/model/index.js';

/** One line a container wrote: when (epoch ms) and its text, without the newline. */
export interface LogLine {
  readonly at: number;
  readonly text: string;
}

/** The log of one run of a container. */
export interface ContainerLog {
  /**
   * Every line this run writes, in time order. A running container's later lines may lie in
   * the future (`at` after now): the server shows only those already written, and a follow
   * waits for the rest.
   */
  readonly lines: readonly LogLine[];
  /** The run's container ID: a follow ends when it changes (the container restarted). */
  readonly containerID: string;
  /** False once the run has ended: nothing more will be written. */
  readonly running: boolean;
}

/** The kubelet's `/containerLogs`: what a container wrote, from the pod as stored. */
export interface PodLogSource {
  /**
   * The current run of `container` (any kind: regular, init, ephemeral), or with `previous`
   * the run before it (`lastState.terminated`). Undefined when the run has no log (the
   * caller has checked the container's state already).
   */
  containerLog(pod: Pod, container: string, previous: boolean): ContainerLog | undefined;
}

/** A byte sink of one stream (stdout, stderr) of an exec or attach session. */
export type Sink = (chunk: Uint8Array) => void;

/** The ends of one exec or attach session, as the server's stream protocol hands them over. */
export interface SessionIO {
  /** Present when the client asked for stdin; it ends when the client closes it. */
  readonly stdin?: AsyncIterable<Uint8Array>;
  readonly stdout?: Sink;
  readonly stderr?: Sink;
  readonly tty: boolean;
  /** Aborts when the client goes away or the server stops. */
  readonly signal: AbortSignal;
}

/** How a session ended: the process's exit code (0 is success). */
export interface SessionResult {
  readonly exitCode: number;
}

/**
 * The kubelet's `/exec` and `/portForward` on a running pod (`attach` shows the container's
 * log as it is written, from {@link PodLogSource}).
 */
export interface ContainerStreams {
  exec(
    pod: Pod,
    container: string,
    command: readonly string[],
    io: SessionIO,
  ): Promise<SessionResult>;
  /**
   * `/portForward`: an explanation of why `port` cannot be reached (nothing listens in a
   * simulated pod), as the error stream carries it; undefined if the connection is accepted.
   */
  portForwardRefusal(pod: Pod, port: number): string | undefined;
}

/** Usage of one container: CPU in nanocores, memory (working set) in bytes. */
export interface ContainerUsage {
  readonly name: string;
  readonly cpuNanoCores: bigint;
  readonly memoryBytes: bigint;
}

/** What metrics-server would have scraped from the kubelets. */
export interface MetricsSource {
  /** The running containers' usage; undefined when the pod has none to report (not running). */
  podUsage(pod: Pod): readonly ContainerUsage[] | undefined;
  /** A node's usage, given the pods bound to it; undefined when its kubelet cannot be scraped. */
  nodeUsage(
    node: Node,
    pods: readonly Pod[],
  ): { readonly cpuNanoCores: bigint; readonly memoryBytes: bigint } | undefined;
}

/** Everything the server serves through the simulated (or any) kubelets. */
export interface KubeletEndpoints {
  readonly logs: PodLogSource;
  readonly streams: ContainerStreams;
  readonly metrics: MetricsSource;
}
