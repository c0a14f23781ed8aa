/**
 * Where a webhook call goes, after upstream `util/webhook/client.go` `HookClient`: a `url`
 * webhook to its URL; a `service` webhook to `https://<name>.<namespace>.svc:<port><path>` with
 * TLS verifying that name, dialled at an address the Service's endpoints give (upstream's
 * endpoint routing, `proxy.ResolveEndpoint`). fleetyard's pod IPs are not routable, so the
 * endpoints are how a Service reaches a real process on this machine: a Service without a
 * selector plus a hand-written EndpointSlice whose address is `127.0.0.1` and whose port is
 * the local webhook server's (docs/webhooks.md). An `ExternalName` Service is dialled at its
 * external name and the Service port, as upstream's ClusterIP resolver does.
 *
 * Differs from upstream: the first ready address is used (upstream picks one at random), and
 * EndpointSlices are read before the legacy Endpoints.
 *
 * @module
 */
import { isIP } from 'node:net';
import { posix } from 'node:path';
import type {
  AdmissionregistrationV1WebhookClientConfig,
  EndpointSlice,
  Endpoints,
} from '../../../api/model/index.js';
import type { WebhookLookup } from './types.js';

/** A resolved call target. */
export interface WebhookTarget {
  /** The URL upstream's messages show (`Post "<url>": …`), `?timeout=` included. */
  readonly url: string;
  readonly path: string;
  /** The name TLS verifies (and SNI sends, unless it is an IP). */
  readonly serverName: string;
  /** PEM roots from `caBundle`; undefined: the system's. */
  readonly ca?: string;
  /** Where to connect; resolved at call time, as upstream's dialer does. Throws Error with upstream's text. */
  dial(): { host: string; port: number };
}

/** An error whose message is upstream's reason text (the caller wraps it). */
export class TargetError extends Error {}

export function hostPort(host: string, port: number): string {
  return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Go's `path.Join("/", p)`: cleaned, rooted, no trailing slash. */
function rootedPath(p: string | undefined): string {
  const joined = posix.join('/', p ?? '');
  return joined.length > 1 && joined.endsWith('/') ? joined.slice(0, -1) : joined;
}

function caFrom(bundle: string | undefined): string | undefined {
  if (bundle === undefined || bundle === '') return undefined;
  const pem = Buffer.from(bundle, 'base64').toString('utf8');
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    throw new TargetError('unable to load root certificates: unable to parse bytes as PEM block');
  }
  return pem;
}

type Address = { host: string; port: number };

/** The first ready address of the slices' port named `portName` (upstream: a nil `ready` is ready). */
function fromSlices(slices: readonly EndpointSlice[], portName: string): Address | undefined {
  for (const slice of slices) {
    const port = (slice.ports ?? []).find((p) => (p.name ?? '') === portName)?.port;
    if (port === undefined) continue;
    const ready = (slice.endpoints ?? []).find(
      (ep) => ep.conditions?.ready !== false && (ep.addresses ?? []).length > 0,
    );
    if (ready !== undefined) return { host: ready.addresses[0]!, port };
  }
  return undefined;
}

/** The same from a legacy Endpoints object (its `addresses` are the ready ones). */
function fromEndpoints(eps: Endpoints | undefined, portName: string): Address | undefined {
  for (const subset of eps?.subsets ?? []) {
    const port = (subset.ports ?? []).find((x) => (x.name ?? '') === portName)?.port;
    const host = subset.addresses?.[0]?.ip;
    if (port !== undefined && host !== undefined) return { host, port };
  }
  return undefined;
}

/** Upstream `findServicePort` + the endpoint lookup of `ResolveEndpoint`. */
export function resolveService(
  lookup: Pick<WebhookLookup, 'service' | 'endpointSlices' | 'endpoints'>,
  namespace: string,
  name: string,
  port: number,
): { host: string; port: number } {
  const svc = lookup.service(namespace, name);
  if (svc === undefined) throw new TargetError(`service "${name}" not found`);
  const spec = svc.spec ?? {};
  if (spec.type === 'ExternalName') {
    if (spec.externalName === undefined || spec.externalName === '') {
      throw new TargetError(`service "${name}" has no external name`);
    }
    return { host: spec.externalName, port };
  }
  const svcPort = (spec.ports ?? []).find((p) => p.port === port);
  if (svcPort === undefined) {
    throw new TargetError(`no service port ${port} found for service "${name}"`);
  }
  const found =
    fromSlices(lookup.endpointSlices(namespace, name), svcPort.name ?? '') ??
    fromEndpoints(lookup.endpoints(namespace, name), svcPort.name ?? '');
  if (found !== undefined) return found;
  throw new TargetError(`no endpoints available for service "${name}"`);
}

/**
 * The target of `config`; throws {@link TargetError} for a config that cannot be called
 * (upstream: `could not get REST client: …`).
 */
export function webhookTarget(
  config: AdmissionregistrationV1WebhookClientConfig,
  timeoutSeconds: number,
  lookup: Pick<WebhookLookup, 'service' | 'endpointSlices' | 'endpoints'>,
): WebhookTarget {
  const ca = caFrom(config.caBundle);
  const query = `?timeout=${timeoutSeconds}s`;
  if (config.service !== undefined) {
    const { namespace, name } = config.service;
    const port = config.service.port ?? 443;
    const serverName = `${name}.${namespace}.svc`;
    const path = rootedPath(config.service.path);
    return {
      url: `https://${serverName}:${port}${path}${query}`,
      path: `${path}${query}`,
      serverName,
      ...(ca !== undefined ? { ca } : {}),
      dial: () => resolveService(lookup, namespace, name, port),
    };
  }
  let u: URL;
  try {
    u = new URL(config.url ?? '');
  } catch {
    throw new TargetError(`parse "${config.url ?? ''}": invalid URL`);
  }
  if (u.protocol !== 'https:') throw new TargetError(`unsupported scheme "${u.protocol}"`);
  const host = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
  const port = u.port === '' ? 443 : Number(u.port);
  const path = rootedPath(u.pathname);
  return {
    url: `https://${u.host}${path}${query}`,
    path: `${path}${query}`,
    serverName: host,
    ...(ca !== undefined ? { ca } : {}),
    dial: () => ({ host, port }),
  };
}
