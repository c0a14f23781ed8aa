/**
 * Routes one request: health, version and metrics; discovery; then resources by verb and
 * subresource. Records request metrics (watches are counted but not timed: they last
 * minutes).
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest, methodNotSupported, pathNotFound, StatusError } from '../api/errors.js';
import { isAccessReview } from '../api/kinds/access-reviews.js';
import { groupResource, type ResourceDefinition } from '../api/resource.js';
import { CLOCK_DISCOVERY } from './clock-resource.js';
import { handleBinding } from './handlers/binding.js';
import { handleClock, isClockRequest } from './handlers/clock.js';
import { handleComponentStatus, isComponentStatusCall } from './handlers/component-status.js';
import type { ApiServices, ResourceCall } from './handlers/context.js';
import { handleDelete, handleDeleteCollection } from './handlers/delete.js';
import {
  coreDiscovery,
  groupDocument,
  groupsDiscovery,
  resourceList,
} from './handlers/discovery.js';
import { handleEviction } from './handlers/eviction.js';
import { handleList } from './handlers/list.js';
import { handleMetrics, isMetricsRequest, METRICS_DISCOVERY } from './handlers/metrics-api.js';
import { handlePatch } from './handlers/patch.js';
import { handleEphemeralContainers } from './handlers/pod-ephemeral-containers.js';
import { handlePodLog } from './handlers/pod-log.js';
import { handleResize } from './handlers/pod-resize.js';
import { handleReview } from './handlers/reviews.js';
import { handleGetScale, handleUpdateScale } from './handlers/scale.js';
import { asServedVersion } from './handlers/served-version.js';
import { sendTable, tableRequest } from './handlers/table.js';
import { handleTokenRequest, serveIssuerDiscovery } from './handlers/token-request.js';
import { versionInfo } from './handlers/version.js';
import { handleWatch } from './handlers/watch.js';
import { handleCreate, handleUpdate } from './handlers/write.js';
import { healthEndpoint, serveHealth } from './health.js';
import { discoveryFormat, parseAccept, requireJson } from './http/media.js';
import { methodNotAllowed } from './http/method-not-allowed.js';
import { checkPathSegments } from './http/path-segment.js';
import type { RequestUrl } from './http/request-url.js';
import { sendJson, sendRawJson, toStatusError } from './http/respond.js';
import type { KubeletEndpoints } from './kubelet/types.js';
import type { RequestInfo, ResourceRequest } from './request-info.js';
import { decodeObjectJson } from './store/object-json.js';

export async function routeRequest(
  api: ApiServices,
  req: IncomingMessage,
  res: ServerResponse,
  url: RequestUrl,
  info: RequestInfo,
  kubelet?: KubeletEndpoints,
): Promise<void> {
  if (info.kind === 'non-resource') {
    await nonResource(api, req, res, url, kubelet);
    return;
  }
  const started = process.hrtime.bigint();
  const resourceLabel =
    info.subresource === '' ? info.resource : `${info.resource}/${info.subresource}`;
  let code = 500;
  try {
    await resource(api, req, res, url, info, kubelet);
    code = res.statusCode;
  } catch (e) {
    code = toStatusError(e).code;
    throw e;
  } finally {
    const seconds =
      info.verb === 'watch' ? undefined : Number(process.hrtime.bigint() - started) / 1e9;
    api.metrics.request(info.verb, resourceLabel, code, seconds);
  }
}

async function nonResource(
  api: ApiServices,
  req: IncomingMessage,
  res: ServerResponse,
  url: RequestUrl,
  kubelet: KubeletEndpoints | undefined,
): Promise<void> {
  const path = url.pathname.replace(/\/+$/, '') || '/';
  if (req.method !== 'GET' && req.method !== 'HEAD') throw pathNotFound();
  if (healthEndpoint(path) !== undefined) {
    serveHealth(api, res, path, url.searchParams);
    return;
  }
  if (path === '/version') {
    sendRawJson(res, 200, versionInfo());
    return;
  }
  if (path === '/metrics') {
    const { text, contentType } = await api.metrics.render();
    res.writeHead(200, { 'Content-Type': contentType });
    res.end(text);
    return;
  }
  if (serveIssuerDiscovery(api.tokens, req, res, path)) return;
  // Before the Accept check: kubectl 1.27/1.28 ask for protobuf only (`/openapi/v2`).
  if (await api.openapi.handleOpenApi(req, res, path, url.searchParams)) return;
  const accept = parseAccept(req.headers.accept);
  requireJson(accept);
  const parts = path.split('/').filter((p) => p !== '');
  const answer = discovery(api, parts, accept, req, kubelet !== undefined);
  if (answer === undefined) throw pathNotFound();
  res.setHeader('Vary', 'Accept');
  sendJson(res, 200, answer.body, answer.contentType);
}

function discovery(
  api: ApiServices,
  parts: string[],
  accept: ReturnType<typeof parseAccept>,
  req: IncomingMessage,
  metrics: boolean,
): { body: object; contentType: string } | undefined {
  const json = (body: object | undefined) =>
    body === undefined ? undefined : { body, contentType: 'application/json' };
  const extra = [
    ...(api.servedClock === undefined ? [] : [CLOCK_DISCOVERY]),
    ...(metrics ? METRICS_DISCOVERY : []),
  ];
  if (parts.length === 1 && parts[0] === 'api') {
    return coreDiscovery(api.registry, discoveryFormat(accept), req.headers.host ?? '');
  }
  if (parts.length === 1 && parts[0] === 'apis')
    return groupsDiscovery(api.registry, discoveryFormat(accept), extra);
  if (parts.length === 2 && parts[0] === 'api')
    return json(resourceList(api.registry, '', parts[1]!));
  if (parts.length === 2 && parts[0] === 'apis')
    return json(groupDocument(api.registry, parts[1]!, extra));
  if (parts.length === 3 && parts[0] === 'apis')
    return json(resourceList(api.registry, parts[1]!, parts[2]!, extra));
  return undefined;
}

async function resource(
  api: ApiServices,
  req: IncomingMessage,
  res: ServerResponse,
  url: RequestUrl,
  info: ResourceRequest,
  kubelet: KubeletEndpoints | undefined,
): Promise<void> {
  // Never stored, so not in the registry: served from the clock itself.
  if (api.servedClock !== undefined && isClockRequest(info)) {
    return handleClock(api.servedClock, req, res, url, info);
  }
  // metrics-server's API, served from the kubelets' numbers (handlers/metrics-api.ts).
  if (kubelet !== undefined && isMetricsRequest(info)) {
    requireJson(parseAccept(req.headers.accept));
    return handleMetrics(api, kubelet.metrics, res, info, url.searchParams);
  }
  const def = api.registry.get(info.group, info.version, info.resource);
  if (def === undefined || (!def.namespaced && info.namespace !== '')) throw pathNotFound();
  if (def.namespaced && info.namespace === '' && info.name !== '') throw pathNotFound();
  checkPathSegments(info.namespace, info.name);
  // Plain text, or an upgrade: before the JSON Accept check.
  if (isPodSubresource(def, info, KUBELET_SUBRESOURCES)) {
    return kubeletSubresource(
      api,
      { req, res, info, def, query: url.searchParams, accept: [] },
      kubelet,
    );
  }
  // CRDs and custom resources run validation tools that load on first use.
  const extensions = api.extensions;
  if (extensions?.needsPreparation(def)) await extensions.prepare();
  const accept = parseAccept(req.headers.accept);
  requireJson(accept);
  const call: ResourceCall = { req, res, info, def, query: url.searchParams, accept };
  if (info.subresource === '') return mainResource(api, call);
  return podWriteSubresource(api, call) ?? subresource(api, call);
}

/** `ephemeralcontainers` and `resize` of a pod; undefined for any other subresource. */
function podWriteSubresource(api: ApiServices, call: ResourceCall): Promise<void> | undefined {
  const handler = POD_WRITE_SUBRESOURCES.get(call.info.subresource);
  if (handler === undefined) return undefined;
  if (!isPodSubresource(call.def, call.info)) throw pathNotFound();
  return handler(api, call);
}

/**
 * The subresources: status and scale where the kind has them, pods' binding, eviction,
 * ephemeralcontainers and resize, namespaces' finalize.
 */
/** Subresources of one resource only: `<subresource>` → its `<group>/<plural>`. */
const OWNED_SUBRESOURCES: Readonly<Record<string, string>> = {
  binding: '/pods',
  eviction: '/pods',
  finalize: '/namespaces',
  approval: 'certificates.k8s.io/certificatesigningrequests',
  token: '/serviceaccounts',
};

/** 405 unless the request's verb is the one `def`'s subresource serves. */
function requireVerb(def: ResourceDefinition, verb: string, wanted: string): void {
  if (verb !== wanted) throw methodNotSupported(groupResource(def), verb);
}

async function subresource(api: ApiServices, call: ResourceCall): Promise<void> {
  const { def, info } = call;
  const owner = OWNED_SUBRESOURCES[info.subresource];
  if (owner !== undefined && owner !== `${def.group}/${def.plural}`) throw pathNotFound();
  switch (info.subresource) {
    case 'status':
      if (!def.statusSubresource) throw pathNotFound();
      return subresourceVerb(api, call, def);
    case 'scale':
      if (def.scale === undefined) throw pathNotFound();
      return scaleVerb(api, call, def);
    case 'binding':
      requireVerb(def, info.verb, 'create');
      return handleBinding(api, call);
    case 'eviction':
      requireVerb(def, info.verb, 'create');
      return handleEviction(api, call);
    case 'approval':
      return subresourceVerb(api, call, def);
    case 'token':
      requireVerb(def, info.verb, 'create');
      return handleTokenRequest(api, call);
    case 'finalize':
      requireVerb(def, info.verb, 'update');
      return handleUpdate(api, call);
    default:
      throw pathNotFound();
  }
}

/** Pod subresources that write part of the pod (`handlers/pod-subresource-write.ts`). */
const POD_WRITE_SUBRESOURCES: ReadonlyMap<
  string,
  (api: ApiServices, call: ResourceCall) => Promise<void>
> = new Map([
  ['ephemeralcontainers', handleEphemeralContainers],
  ['resize', handleResize],
]);

/** The pod subresources the kubelet serves (upstream proxies them to the node). */
const KUBELET_SUBRESOURCES = new Set(['log', 'exec', 'attach', 'portforward']);

function isPodSubresource(
  def: ResourceDefinition,
  info: ResourceRequest,
  among?: ReadonlySet<string>,
): boolean {
  const pod = def.group === '' && def.plural === 'pods' && info.name !== '';
  return pod && (among === undefined || among.has(info.subresource));
}

/**
 * `log` (plain text), and `exec`/`attach`/`portforward` reached without an upgrade (the
 * upgrades go through `handlers/pod-streams.ts` from the server's upgrade event): upstream's
 * 400 `Upgrade request required`.
 */
async function kubeletSubresource(
  api: ApiServices,
  call: ResourceCall,
  kubelet: KubeletEndpoints | undefined,
): Promise<void> {
  if (call.info.subresource !== 'log') throw badRequest('Upgrade request required');
  if (kubelet === undefined) {
    throw new StatusError(
      503,
      'ServiceUnavailable',
      'this server has no kubelets to read logs from',
    );
  }
  return handlePodLog(api, call, kubelet.logs);
}

async function mainResource(api: ApiServices, call: ResourceCall): Promise<void> {
  if (isComponentStatusCall(call)) return handleComponentStatus(api, call);
  if (call.def.group === '' && call.def.plural === 'bindings') return createBinding(api, call);
  if (isAccessReview(call.def)) return handleReview(api, call);
  switch (call.info.verb) {
    case 'get':
      return handleGet(api, call);
    case 'list':
      return handleList(api, call);
    case 'watch':
      return handleWatch(api, call);
    case 'create':
      if (call.info.name !== '') throw methodNotSupported(groupResource(call.def), 'create');
      return handleCreate(api, call);
    case 'update':
      if (call.info.name === '') throw methodNotAllowed();
      return handleUpdate(api, call);
    case 'patch':
      if (call.info.name === '') throw methodNotAllowed();
      return handlePatch(api, call);
    case 'delete':
      return handleDelete(api, call);
    case 'deletecollection':
      return handleDeleteCollection(api, call);
  }
}

async function handleGet(api: ApiServices, call: ResourceCall): Promise<void> {
  const table = await tableRequest(call);
  const kv = api.store.getJson(call.def, call.info.namespace, call.info.name);
  const json = asServedVersion(call.def, kv.value);
  if (table === undefined) {
    sendJson(call.res, 200, json);
    return;
  }
  const obj = decodeObjectJson(call.def, json);
  sendTable(api, call, table, [obj], { resourceVersion: obj.metadata?.resourceVersion ?? '' });
}

async function subresourceVerb(
  api: ApiServices,
  call: ResourceCall,
  def: ResourceDefinition,
): Promise<void> {
  switch (call.info.verb) {
    case 'get':
      sendJson(call.res, 200, api.store.getJson(def, call.info.namespace, call.info.name).value);
      return;
    case 'update':
      return handleUpdate(api, call);
    case 'patch':
      return handlePatch(api, call);
    default:
      throw methodNotSupported(groupResource(def), call.info.verb);
  }
}

async function scaleVerb(
  api: ApiServices,
  call: ResourceCall,
  def: ResourceDefinition,
): Promise<void> {
  switch (call.info.verb) {
    case 'get':
      return handleGetScale(api, call);
    case 'update':
      return handleUpdateScale(api, call);
    case 'patch':
      return handlePatch(api, call);
    default:
      throw methodNotSupported(groupResource(def), call.info.verb);
  }
}

/** `POST /api/v1/namespaces/{ns}/bindings`: binds the pod the body names, as `pods/binding`. */
function createBinding(api: ApiServices, call: ResourceCall): Promise<void> {
  if (call.info.verb !== 'create')
    throw methodNotSupported(groupResource(call.def), call.info.verb);
  const pods = api.registry.get('', 'v1', 'pods');
  if (pods === undefined) throw pathNotFound();
  return handleBinding(api, { ...call, def: pods });
}
