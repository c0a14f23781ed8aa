/**
 * Manifests and plumbing for the admission webhook e2e suite: webhooks on pod creates scoped to
 * one namespace, their configurations, a Service without selector and its EndpointSlice, this
 * machine's host address, and a TCP forwarder from that address to a server on 127.0.0.1 (an
 * EndpointSlice may not name a loopback address, as upstream; docs/webhooks.md); and one raw
 * HTTPS request as the cluster's admin, for the status code of a refusal (422, 403, 500) that
 * kubectl only shows as a reason in parentheses (the admission policy suite uses it too).
 *
 * @module
 */
import { request } from 'node:https';
import { connect, createServer, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { Cluster } from './cluster.js';

export type Json = Record<string, unknown>;

/** A JSON patch operation adding a label (the object must have labels). */
export function addLabel(key: string, value: string): Json {
  return { op: 'add', path: `/metadata/labels/${key}`, value };
}

/** A webhook on pod creates in the namespace `ns` alone. */
export function hook(name: string, ns: string, clientConfig: Json, extra: Json = {}): Json {
  return {
    name,
    admissionReviewVersions: ['v1'],
    sideEffects: 'None',
    failurePolicy: 'Fail',
    timeoutSeconds: 5,
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
    namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns } },
    clientConfig,
    ...extra,
  };
}

export function config(kind: 'Validating' | 'Mutating', name: string, webhooks: Json[]): Json {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: `${kind}WebhookConfiguration`,
    metadata: { name },
    webhooks,
  };
}

/** A Service without selector, port 443 named `https`. */
export function service(namespace: string, name: string, targetPort: number): Json {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace },
    spec: { ports: [{ name: 'https', port: 443, targetPort }] },
  };
}

/** The EndpointSlice of `service`: one endpoint at `address:port`. */
export function slice(namespace: string, service: string, address: string, port: number): Json {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: `${service}-local`,
      namespace,
      labels: { 'kubernetes.io/service-name': service },
    },
    addressType: 'IPv4',
    endpoints: [{ addresses: [address] }],
    ports: [{ name: 'https', port, protocol: 'TCP' }],
  };
}

/** The first non-internal IPv4 address of this machine. */
export function hostAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return undefined;
}

export interface Forwarder {
  readonly port: number;
  close(): Promise<void>;
}

/** Listens on `host` (port 0) and pipes every connection to 127.0.0.1:`targetPort`. */
export async function startForwarder(host: string, targetPort: number): Promise<Forwarder> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const s of [socket, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : 0,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface RawAnswer {
  readonly code: number;
  readonly body: Record<string, unknown>;
  readonly warnings: readonly string[];
}

export function rawRequest(
  cluster: Cluster,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<RawAnswer> {
  const url = new URL(path, cluster.url);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        ca: cluster.ca,
        headers: {
          Authorization: `Bearer ${cluster.token}`,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': contentType }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const warning = res.headers.warning;
          resolve({
            code: res.statusCode ?? 0,
            body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
            warnings: warning === undefined ? [] : String(warning).split(/,(?=\s*299 )/),
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
