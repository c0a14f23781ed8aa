/**
 * `pods/{name}/exec`, `attach` and `portforward`: what kube-apiserver proxies to the node's
 * kubelet, served over the WebSocket protocols kubectl 1.31+ and the official clients speak
 * (`../kubelet/channels.ts`). The request is checked as upstream checks it before any
 * upgrade (the pod, its node, a completed pod, the container), so a failure is an ordinary
 * Status, which kubectl prints as upstream's. Then:
 *
 * - exec runs the command in the simulated container (`ContainerStreams.exec`) and reports
 *   its exit code on the error channel;
 * - attach shows what the container writes from now on (its log, followed) until that run
 *   ends; what the client types is read and dropped (a simulated process reads nothing);
 * - portforward over the `portforward.k8s.io` WebSocket protocol accepts the connection and
 *   writes, on each port's error channel, why nothing answers (a simulated pod has no network).
 *
 * SPDY (kubectl ≤ 1.30, and kubectl's fallback after a failed WebSocket upgrade) and
 * port-forward's SPDY-in-WebSocket tunnel are refused with a 400 Status that says so.
 *
 * @module
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { badRequest, methodNotSupported, pathNotFound, StatusError } from '../../api/errors.js';
import { asKind, type Pod } from '../../api/model/index.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { checkPathSegments } from '../http/path-segment.js';
import { queryFlag } from '../http/query-bool.js';
import type { RequestUrl } from '../http/request-url.js';
import { ByteQueue, CHANNEL, ChannelSession, chooseStreamProtocol } from '../kubelet/channels.js';
import { followLog } from '../kubelet/log-follow.js';
import { containerStatus, selectContainer } from '../kubelet/pod-containers.js';
import type { KubeletEndpoints } from '../kubelet/types.js';
import {
  handshakeResponse,
  isWebSocketRequest,
  offeredProtocols,
  WebSocketConnection,
} from '../kubelet/websocket.js';
import type { RequestInfo, ResourceRequest } from '../request-info.js';
import type { ApiServices } from './context.js';

export const STREAM_SUBRESOURCES = new Set(['exec', 'attach', 'portforward']);

/** port-forward's tunnel of SPDY frames in WebSocket messages (kubectl 1.31+), not spoken here. */
const TUNNEL_PROTOCOL = 'SPDY/3.1+portforward.k8s.io';

export interface StreamRequest {
  readonly req: IncomingMessage;
  readonly socket: Duplex;
  readonly head: Buffer;
  readonly url: RequestUrl;
  readonly info: RequestInfo;
}

/** Serves one upgrade request for a pod stream; throws a StatusError before upgrading. */
export async function servePodStream(
  api: ApiServices,
  kubelet: KubeletEndpoints | undefined,
  s: StreamRequest,
): Promise<void> {
  const { def, info, pod } = streamTarget(api, s.info);
  if (kubelet === undefined) {
    throw new StatusError(503, 'ServiceUnavailable', 'this server has no kubelets to stream from');
  }
  const websocket = isWebSocketRequest(s.req);
  if (info.subresource === 'portforward') {
    checkRunning(pod, 'portforward');
    const protocols = offeredProtocols(s.req);
    if (!websocket || protocols.includes(TUNNEL_PROTOCOL) || protocols.length === 0) {
      throw badRequest(noPortForwardMessage(pod));
    }
    return portForward(kubelet, s, pod, protocols);
  }
  const { container, command, io } = sessionOptions(s.url.searchParams, pod, info.subresource);
  if (!websocket) throw badRequest(spdyMessage(info.subresource));
  const session = accept(s, offeredProtocols(s.req));
  const abort = new AbortController();
  const stdin = io.stdin ? new ByteQueue() : undefined;
  session.onData = (channel, data) => {
    if (channel === CHANNEL.stdin) stdin?.push(data);
  };
  session.onStreamClose = (channel) => {
    if (channel === CHANNEL.stdin) stdin?.end();
  };
  session.onClose = () => {
    abort.abort();
    stdin?.end();
  };
  api.shutdownSignal.addEventListener('abort', () => session.close(), { once: true });
  // The kubelet's first message: an empty one on the lowest writable channel, "connected".
  const first = io.stdout ? CHANNEL.stdout : io.stderr ? CHANNEL.stderr : CHANNEL.error;
  session.write(first, new Uint8Array());
  const sinks = {
    ...(io.stdout ? { stdout: (d: Uint8Array) => session.write(CHANNEL.stdout, d) } : {}),
    ...(io.stderr ? { stderr: (d: Uint8Array) => session.write(CHANNEL.stderr, d) } : {}),
  };
  if (info.subresource === 'attach') {
    const { tty } = io;
    attach(api, def, kubelet, { session, pod, container, tty, signal: abort.signal, ...sinks });
    return;
  }
  try {
    const result = await kubelet.streams.exec(pod, container, command, {
      ...(stdin !== undefined ? { stdin } : {}),
      ...sinks,
      tty: io.tty,
      signal: abort.signal,
    });
    session.finish({ exitCode: result.exitCode, command });
  } catch (e) {
    session.finish({ failure: e instanceof Error ? e.message : String(e) });
  }
}

/** The pod a stream request addresses (404 for anything else). */
function streamTarget(
  api: ApiServices,
  info: RequestInfo,
): { def: ResourceDefinition; info: ResourceRequest; pod: Pod } {
  const isPodStream =
    info.kind === 'resource' &&
    info.group === '' &&
    info.resource === 'pods' &&
    info.namespace !== '' &&
    info.name !== '' &&
    STREAM_SUBRESOURCES.has(info.subresource);
  if (!isPodStream) throw pathNotFound();
  if (info.verb !== 'get' && info.verb !== 'create') {
    throw methodNotSupported({ group: '', resource: `pods/${info.subresource}` }, info.verb);
  }
  checkPathSegments(info.namespace, info.name);
  const def = api.registry.get('', 'v1', 'pods');
  if (def === undefined) throw pathNotFound();
  return { def, info, pod: asKind(api.store.get(def, info.namespace, info.name), 'Pod') };
}

/** exec's and attach's query, checked as upstream checks it before upgrading. */
function sessionOptions(query: URLSearchParams, pod: Pod, subresource: string) {
  const container = selectContainer(pod, query.get('container') ?? '');
  const command = query.getAll('command');
  if (subresource === 'exec' && command.length === 0) {
    throw badRequest('you must specify at least 1 command');
  }
  const io = {
    stdin: queryFlag(query, 'stdin'),
    stdout: queryFlag(query, 'stdout'),
    stderr: queryFlag(query, 'stderr'),
    tty: queryFlag(query, 'tty'),
  };
  if (!io.stdin && !io.stdout && !io.stderr) {
    throw badRequest('you must specify at least 1 of stdin, stdout, stderr');
  }
  checkRunning(pod, subresource);
  if (containerStatus(pod, container)?.state?.running === undefined) {
    throw badRequest(`container not found (${JSON.stringify(container)})`);
  }
  return { container, command, io };
}

/** upstream's `streamLocation` checks: a node assigned, the pod not completed. */
function checkRunning(pod: Pod, verb: string): void {
  const name = pod.metadata?.name ?? '';
  if (!pod.spec?.nodeName) throw badRequest(`pod ${name} does not have a host assigned`);
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') {
    const what = verb === 'portforward' ? 'port-forward to' : `${verb} into`;
    throw badRequest(`cannot ${what} a container in a completed pod; current phase is ${phase}`);
  }
}

function spdyMessage(subresource: string): string {
  return (
    `fleetyard serves pods/${subresource} over WebSocket only (v5.channel.k8s.io), not SPDY: ` +
    'use kubectl 1.31 or later, or a client that speaks the Kubernetes WebSocket stream protocols'
  );
}

function noPortForwardMessage(pod: Pod): string {
  const m = pod.metadata;
  return (
    `pod ${m?.namespace}/${m?.name} runs on a simulated node and has no network: nothing listens on any of ` +
    'its ports, so there is nothing to forward to (fleetyard docs/kubelet-endpoints.md)'
  );
}

/** The 101 answer and the session on it; 400 when no offered protocol is spoken here. */
function accept(s: StreamRequest, offered: readonly string[]): ChannelSession {
  const protocol = chooseStreamProtocol(offered);
  if (protocol === undefined) {
    throw badRequest(
      `requested protocol(s) are not supported: [${offered.join(' ')}]; supports [v5.channel.k8s.io v4.channel.k8s.io channel.k8s.io base64.channel.k8s.io]`,
    );
  }
  s.socket.write(handshakeResponse(s.req, protocol));
  const ws = new WebSocketConnection(s.socket, s.head);
  return new ChannelSession(ws, protocol);
}

interface AttachSession {
  readonly session: ChannelSession;
  readonly pod: Pod;
  readonly container: string;
  readonly tty: boolean;
  readonly signal: AbortSignal;
  readonly stdout?: (d: Uint8Array) => void;
}

function attach(
  api: ApiServices,
  def: ResourceDefinition,
  kubelet: KubeletEndpoints,
  a: AttachSession,
): void {
  const log = kubelet.logs.containerLog(a.pod, a.container, false);
  if (log === undefined) {
    a.session.finish({ exitCode: 0, command: [] });
    return;
  }
  const newline = a.tty ? '\r\n' : '\n';
  const stop = followLog({
    backend: api.backend,
    clock: api.clock,
    def,
    namespace: a.pod.metadata?.namespace ?? '',
    name: a.pod.metadata?.name ?? '',
    container: a.container,
    source: kubelet.logs,
    log,
    // What was written before the client attached is not shown again.
    tailLines: 0,
    write: (line) => {
      a.stdout?.(Buffer.from(line.text + newline));
      return true;
    },
    ended: () => a.session.finish({ exitCode: 0, command: [] }),
  });
  a.signal.addEventListener('abort', stop, { once: true });
}

/** The `portforward.k8s.io` WebSocket protocol: per port a data and an error channel. */
function portForward(
  kubelet: KubeletEndpoints,
  s: StreamRequest,
  pod: Pod,
  offered: readonly string[],
): void {
  const ports = s.url.searchParams
    .getAll('ports')
    .flatMap((p) => p.split(','))
    .map((p) => Number(p.trim()));
  if (ports.length === 0 || ports.some((p) => !Number.isInteger(p) || p < 1 || p > 65_535)) {
    throw badRequest('query parameter "ports" is required: one or more port numbers (1-65535)');
  }
  const protocol = offered.find((p) => p === 'portforward.k8s.io' || p === 'v4.channel.k8s.io');
  if (protocol === undefined)
    throw badRequest(`requested protocol(s) are not supported: [${offered.join(' ')}]`);
  s.socket.write(handshakeResponse(s.req, protocol));
  const ws = new WebSocketConnection(s.socket, s.head);
  const session = new ChannelSession(ws, 'channel.k8s.io');
  ports.forEach((port, i) => {
    // Each channel opens with its port, little-endian (upstream's websocket port-forward).
    const prefix = Buffer.alloc(2);
    prefix.writeUInt16LE(port, 0);
    session.write(2 * i, prefix);
    session.write(2 * i + 1, prefix);
    const refusal = kubelet.streams.portForwardRefusal(pod, port);
    if (refusal !== undefined) session.write(2 * i + 1, Buffer.from(refusal));
  });
  ws.close(1000);
}
