/**
 * `GET /api/v1/namespaces/{ns}/pods/{name}/log`: what kube-apiserver proxies to the node's
 * kubelet (`/containerLogs`), served here from a {@link PodLogSource}. The container is chosen
 * and checked as upstream does (`../kubelet/pod-containers.ts`), the lines rendered as the
 * kubelet renders them (`../kubelet/log-render.ts`). A pod not yet bound to a node has no log
 * yet: an empty 200, as upstream's empty location gives. Time is the server's clock.
 *
 * `follow=true` keeps the response open: lines are written as the clock reaches them and the
 * pod object changes (a watch on its key), and the response ends when that run of the
 * container ends (it terminated, restarted, or the pod is gone), as the kubelet's follow ends
 * when the container exits. A follow is long-running: it does not hold the cluster clock.
 *
 * @module
 */
import { badRequest, methodNotSupported } from '../../api/errors.js';
import { asKind } from '../../api/model/index.js';
import { groupResource } from '../../api/resource.js';
import { followLog } from '../kubelet/log-follow.js';
import {
  ByteBudget,
  formatLine,
  type LogQuery,
  parseLogQuery,
  renderLog,
  sinceOf,
} from '../kubelet/log-render.js';
import { logRefusal, selectContainer } from '../kubelet/pod-containers.js';
import type { ContainerLog, PodLogSource } from '../kubelet/types.js';
import type { ApiServices, ResourceCall } from './context.js';

const TEXT_HEADERS = { 'Content-Type': 'text/plain', 'Cache-Control': 'no-cache, private' };

export async function handlePodLog(
  api: ApiServices,
  call: ResourceCall,
  source: PodLogSource,
): Promise<void> {
  const { def, info } = call;
  if (info.verb !== 'get') throw methodNotSupported(groupResource(def), info.verb);
  const q = parseLogQuery(call.query, info.name);
  const pod = asKind(api.store.get(def, info.namespace, info.name), 'Pod');
  const container = selectContainer(pod, q.container);
  if (!pod.spec?.nodeName) {
    call.res.writeHead(200, { ...TEXT_HEADERS, 'Content-Length': 0 });
    call.res.end();
    return;
  }
  const refusal = logRefusal(pod, container, q.previous);
  if (refusal !== undefined) throw badRequest(refusal);
  const log = source.containerLog(pod, container, q.previous);
  const now = api.clock.now();
  if (!q.follow || q.previous || log === undefined || !log.running) {
    const body = log === undefined ? Buffer.alloc(0) : renderLog(log.lines, q, now);
    call.res.writeHead(200, { ...TEXT_HEADERS, 'Content-Length': body.length });
    call.res.end(body);
    return;
  }
  follow(api, call, source, { container, q, log });
}

/** Streams one run's lines until it ends, the client leaves, or the server stops. */
function follow(
  api: ApiServices,
  call: ResourceCall,
  source: PodLogSource,
  start: { readonly container: string; readonly q: LogQuery; readonly log: ContainerLog },
): void {
  const { res, req, def, info } = call;
  const { q } = start;
  const budget = new ByteBudget(q.limitBytes);
  res.writeHead(200, TEXT_HEADERS);
  res.flushHeaders();
  let stop: (() => void) | undefined;
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    stop?.();
    api.shutdownSignal.removeEventListener('abort', end);
    if (!res.writableEnded) res.end();
  };
  stop = followLog({
    backend: api.backend,
    clock: api.clock,
    def,
    namespace: info.namespace,
    name: info.name,
    container: start.container,
    source,
    log: start.log,
    since: sinceOf(q, api.clock.now()),
    tailLines: q.tailLines,
    write: (line) => {
      const bytes = budget.take(formatLine(line, q.timestamps));
      if (bytes.length > 0) res.write(bytes);
      return !budget.exhausted;
    },
    ended: end,
  });
  if (ended) stop();
  req.once('close', end);
  res.once('close', end);
  api.shutdownSignal.addEventListener('abort', end, { once: true });
}
