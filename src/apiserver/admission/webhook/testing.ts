/**
 * Test support: a real HTTPS admission webhook server on 127.0.0.1 with a certificate from
 * fleetyard's own PKI (`src/security/pki.ts`, SANs `127.0.0.1`, `localhost` and the names a
 * test asks for, such as `hook.webhooks.svc`), and an in-memory {@link WebhookLookup}.
 *
 * @module
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StatusError } from '../../../api/errors.js';
import { builtinResources } from '../../../api/kinds/index.js';
import type {
  EndpointSlice,
  Endpoints,
  MutatingWebhook,
  MutatingWebhookConfiguration,
  Namespace,
  Service,
  ValidatingWebhook,
  ValidatingWebhookConfiguration,
} from '../../../api/model/index.js';
import { isJsonObject, type KubeObject } from '../../../api/object.js';
import { ensureServingCertificates } from '../../../security/pki.js';
import { ADMIN } from '../../authentication/user.js';
import type { AdmissionAttributes, WebhookLookup } from './types.js';

/** What a test's handler answers: the `response` of the AdmissionReview (uid filled in), or `'hang'`. */
export type HookAnswer = Record<string, unknown> | 'hang';
export type HookHandler = (request: Record<string, unknown>, path: string) => HookAnswer;

export interface TestWebhookServer {
  readonly port: number;
  /** `caBundle` for a webhook configuration: base64 of the CA's PEM. */
  readonly caBundle: string;
  /** Every AdmissionReview request received, in order, with the path it was sent to. */
  readonly received: Array<{ path: string; request: Record<string, unknown> }>;
  handler: HookHandler;
  close(): Promise<void>;
}

export async function startWebhookServer(
  handler: HookHandler,
  extraHosts: readonly string[] = [],
): Promise<TestWebhookServer> {
  const dir = await mkdtemp(join(tmpdir(), 'fleetyard-webhook-'));
  const certs = await ensureServingCertificates({ dir, hosts: [...extraHosts] });
  const received: TestWebhookServer['received'] = [];
  const hanging = new Set<() => void>();
  const server: Server = createServer({ cert: certs.certPem, key: certs.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const request = isJsonObject(review) && isJsonObject(review.request) ? review.request : {};
      const path = req.url ?? '';
      received.push({ path, request });
      const answer = state.handler(request, path);
      if (answer === 'hang') {
        hanging.add(() => res.destroy());
        return;
      }
      res.setHeader('Content-Type', 'application/json');
      res.end(
        JSON.stringify({
          apiVersion: 'admission.k8s.io/v1',
          kind: 'AdmissionReview',
          response: { uid: request.uid, ...answer },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const state: TestWebhookServer = {
    port: typeof address === 'object' && address !== null ? address.port : 0,
    caBundle: Buffer.from(certs.caPem).toString('base64'),
    received,
    handler,
    async close() {
      for (const end of hanging) end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
  return state;
}

/** A base64 JSON patch, as a webhook's `response.patch`. */
export function patchOf(ops: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(ops)).toString('base64');
}

/** An in-memory lookup; tests fill its arrays. */
export class FakeLookup implements WebhookLookup {
  mutating: MutatingWebhookConfiguration[] = [];
  validating: ValidatingWebhookConfiguration[] = [];
  namespaces: Namespace[] = [];
  services: Service[] = [];
  slices: EndpointSlice[] = [];
  legacyEndpoints: Endpoints[] = [];

  mutatingWebhookConfigurations(): readonly MutatingWebhookConfiguration[] {
    return this.mutating;
  }
  validatingWebhookConfigurations(): readonly ValidatingWebhookConfiguration[] {
    return this.validating;
  }
  namespace(name: string): Namespace | undefined {
    return this.namespaces.find((n) => n.metadata?.name === name);
  }
  service(namespace: string, name: string): Service | undefined {
    return this.services.find(
      (s) => s.metadata?.namespace === namespace && s.metadata?.name === name,
    );
  }
  endpointSlices(namespace: string, service: string): readonly EndpointSlice[] {
    return this.slices.filter(
      (s) =>
        s.metadata?.namespace === namespace &&
        s.metadata?.labels?.['kubernetes.io/service-name'] === service,
    );
  }
  endpoints(namespace: string, name: string): Endpoints | undefined {
    return this.legacyEndpoints.find(
      (e) => e.metadata?.namespace === namespace && e.metadata?.name === name,
    );
  }
  resources() {
    return builtinResources;
  }
}

export const POD_RULE = {
  operations: ['CREATE', 'UPDATE'],
  apiGroups: [''],
  apiVersions: ['v1'],
  resources: ['pods'],
};

/** A pod create in `default` by the admin, with `over` applied. */
export function podAttributes(over: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return {
    operation: 'CREATE',
    resource: { group: '', version: 'v1', resource: 'pods' },
    subresource: '',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    namespace: 'default',
    name: 'web',
    userInfo: ADMIN,
    dryRun: false,
    ...over,
  };
}

export function testPod(labels: Record<string, string> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default', labels },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  };
}

/** A webhook on pods at `server` + `path`, failing closed, with `extra` applied. */
export function podHook(
  server: TestWebhookServer,
  name: string,
  path: string,
  extra: Partial<MutatingWebhook> = {},
): MutatingWebhook {
  return {
    name,
    admissionReviewVersions: ['v1'],
    sideEffects: 'None',
    failurePolicy: 'Fail',
    timeoutSeconds: 5,
    rules: [POD_RULE],
    clientConfig: { url: `https://127.0.0.1:${server.port}${path}`, caBundle: server.caBundle },
    ...extra,
  };
}

export function mutatingConfig(
  name: string,
  webhooks: MutatingWebhook[],
): MutatingWebhookConfiguration {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name },
    webhooks,
  };
}

export function validatingConfig(
  name: string,
  webhooks: ValidatingWebhook[],
): ValidatingWebhookConfiguration {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name },
    webhooks,
  };
}

/** The StatusError `fn` rejects with (anything else fails the test). */
export async function statusOf(fn: () => Promise<unknown>): Promise<StatusError> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error('expected a StatusError');
}

/** The labels of a request's `object`. */
export function objectLabels(request: Record<string, unknown>): Record<string, string> {
  const o = request.object;
  if (!isJsonObject(o) || !isJsonObject(o.metadata) || !isJsonObject(o.metadata.labels)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(o.metadata.labels)) if (typeof v === 'string') out[k] = v;
  return out;
}
