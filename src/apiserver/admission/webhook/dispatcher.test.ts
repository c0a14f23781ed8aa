/**
 * Validating webhooks against a real HTTPS webhook server on 127.0.0.1 (certificate from
 * fleetyard's PKI): allow, deny, failure policies, a timeout, TLS, dry run and a Service-backed
 * webhook.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { MutatingWebhook, ValidatingWebhook } from '../../../api/model/index.js';
import { ADMIN } from '../../authentication/user.js';
import { WebhookDispatcher } from './dispatcher.js';
import {
  podAttributes as createPod,
  FakeLookup,
  mutatingConfig as mutating,
  POD_RULE,
  testPod as pod,
  podHook,
  startWebhookServer,
  statusOf,
  type TestWebhookServer,
  validatingConfig as validating,
} from './testing.js';
import { AdmissionRecord } from './types.js';

let server: TestWebhookServer;
let lookup: FakeLookup;
let dispatcher: WebhookDispatcher;

function hook(name: string, path: string, extra: Partial<MutatingWebhook> = {}): MutatingWebhook {
  return podHook(server, name, path, extra);
}

before(async () => {
  server = await startWebhookServer(() => ({ allowed: true }), ['hook.webhooks.svc']);
});
after(async () => {
  await server.close();
});
beforeEach(() => {
  lookup = new FakeLookup();
  lookup.namespaces = [{ metadata: { name: 'default', labels: { env: 'dev' } } }];
  dispatcher = new WebhookDispatcher({ lookup });
  server.received.length = 0;
  server.handler = () => ({ allowed: true });
});

describe('validating webhooks', () => {
  it('sends an AdmissionReview v1 and lets an allowed request through', async () => {
    lookup.validating = [validating('v', [hook('allow.example.com', '/validate')])];
    await dispatcher.validate(createPod(), pod(), undefined);
    assert.equal(server.received.length, 1);
    const { path, request } = server.received[0]!;
    assert.equal(path, '/validate?timeout=5s');
    assert.equal(typeof request.uid, 'string');
    assert.deepEqual(request.kind, { group: '', version: 'v1', kind: 'Pod' });
    assert.deepEqual(request.resource, { group: '', version: 'v1', resource: 'pods' });
    assert.equal(request.operation, 'CREATE');
    assert.equal(request.namespace, 'default');
    assert.deepEqual(request.userInfo, { username: ADMIN.username, groups: [...ADMIN.groups] });
    assert.equal(request.oldObject, null);
    assert.equal(request.dryRun, false);
    assert.deepEqual(request.options, { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' });
  });

  it('refuses with the webhook message, code and warnings', async () => {
    lookup.validating = [validating('v', [hook('deny.example.com', '/deny')])];
    server.handler = () => ({
      allowed: false,
      status: { code: 403, reason: 'Forbidden', message: 'no latest tags' },
      warnings: ['image tag is latest'],
      auditAnnotations: { why: 'tag' },
    });
    const record = new AdmissionRecord();
    const err = await statusOf(() => dispatcher.validate(createPod(), pod(), undefined, record));
    assert.equal(err.code, 403);
    assert.equal(err.reason, 'Forbidden');
    assert.equal(
      err.message,
      'admission webhook "deny.example.com" denied the request: no latest tags',
    );
    assert.deepEqual(record.warnings, ['image tag is latest']);
    assert.deepEqual(record.annotations, [
      { key: 'deny.example.com/why', value: 'tag', level: 'Metadata' },
    ]);
  });

  it('reports the first refusal in webhook order', async () => {
    lookup.validating = [
      validating('b', [hook('second.example.com', '/second')]),
      validating('a', [hook('first.example.com', '/first')]),
    ];
    server.handler = () => ({ allowed: false });
    const err = await statusOf(() => dispatcher.validate(createPod(), pod(), undefined));
    assert.equal(err.code, 400);
    assert.equal(
      err.message,
      'admission webhook "first.example.com" denied the request without explanation',
    );
  });

  it('never sends webhook configurations to webhooks', async () => {
    lookup.validating = [
      validating('v', [
        hook('all.example.com', '/all', {
          rules: [{ ...POD_RULE, apiGroups: ['*'], resources: ['*'] }],
        }),
      ]),
    ];
    server.handler = () => ({ allowed: false });
    const attrs = createPod({
      resource: {
        group: 'admissionregistration.k8s.io',
        version: 'v1',
        resource: 'validatingwebhookconfigurations',
      },
      kind: {
        group: 'admissionregistration.k8s.io',
        version: 'v1',
        kind: 'ValidatingWebhookConfiguration',
      },
      namespace: '',
    });
    await dispatcher.validate(attrs, { metadata: { name: 'v' } }, undefined);
    assert.equal(server.received.length, 0);
  });
});

describe('failure policy', () => {
  const down = (policy: string): ValidatingWebhook => ({
    ...hook('down.example.com', '/'),
    failurePolicy: policy,
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    clientConfig: { url: 'https://127.0.0.1:1/hook', caBundle: server.caBundle },
  });

  it('Fail: an unreachable webhook refuses the request with a 500', async () => {
    lookup.validating = [validating('v', [down('Fail')])];
    const err = await statusOf(() => dispatcher.validate(createPod(), pod(), undefined));
    assert.equal(err.code, 500);
    assert.equal(err.reason, 'InternalError');
    assert.equal(
      err.message,
      'Internal error occurred: failed calling webhook "down.example.com": failed to call webhook: Post "https://127.0.0.1:1/hook?timeout=5s": dial tcp 127.0.0.1:1: connect: connection refused',
    );
  });

  it('Ignore: an unreachable webhook is skipped and marked failed-open', async () => {
    lookup.validating = [validating('v', [down('Ignore')])];
    lookup.mutating = [mutating('m', [down('Ignore')])];
    const record = new AdmissionRecord();
    const out = await dispatcher.admit(createPod(), pod(), undefined, record);
    await dispatcher.validate(createPod(), pod(), undefined, record);
    assert.deepEqual(out, pod());
    const keys = record.annotations.map((a) => a.key);
    assert.ok(keys.includes('failed-open.mutation.webhook.admission.k8s.io/round_0_index_0'));
    assert.ok(keys.includes('failed-open.validating.webhook.admission.k8s.io/round_0_index_0'));
  });

  it('a webhook that never answers times out after timeoutSeconds', async () => {
    lookup.validating = [
      validating('v', [hook('slow.example.com', '/slow', { timeoutSeconds: 1 })]),
    ];
    server.handler = () => 'hang';
    const err = await statusOf(() => dispatcher.validate(createPod(), pod(), undefined));
    assert.equal(
      err.message,
      `Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "https://127.0.0.1:${server.port}/slow?timeout=1s": context deadline exceeded`,
    );
    lookup.validating = [
      validating('v', [
        hook('slow.example.com', '/slow', { timeoutSeconds: 1, failurePolicy: 'Ignore' }),
      ]),
    ];
    await dispatcher.validate(createPod(), pod(), undefined);
  });

  it('a response with the wrong uid is a failed call', async () => {
    lookup.validating = [validating('v', [hook('liar.example.com', '/liar')])];
    server.handler = () => ({ uid: 'not-the-request', allowed: true });
    const err = await statusOf(() => dispatcher.validate(createPod(), pod(), undefined));
    assert.match(
      err.message,
      /received invalid webhook response: expected response\.uid="[^"]+", got "not-the-request"$/,
    );
  });

  it('a CA that did not sign the server certificate fails TLS', async () => {
    const other = await startWebhookServer(() => ({ allowed: true }));
    try {
      lookup.validating = [
        validating('v', [
          {
            ...hook('tls.example.com', '/'),
            clientConfig: { url: `https://127.0.0.1:${server.port}/`, caBundle: other.caBundle },
          },
        ]),
      ];
      const err = await statusOf(() => dispatcher.validate(createPod(), pod(), undefined));
      assert.match(err.message, /x509: certificate signed by unknown authority$/);
    } finally {
      await other.close();
    }
  });
});

describe('dry run', () => {
  it('refuses a dry run a webhook with side effects matches, and calls one without', async () => {
    lookup.validating = [
      validating('v', [hook('effects.example.com', '/e', { sideEffects: 'Some' })]),
    ];
    const err = await statusOf(() =>
      dispatcher.validate(createPod({ dryRun: true }), pod(), undefined),
    );
    assert.equal(err.code, 400);
    assert.equal(err.message, 'admission webhook "effects.example.com" does not support dry run');
    lookup.validating = [
      validating('v', [hook('clean.example.com', '/c', { sideEffects: 'NoneOnDryRun' })]),
    ];
    await dispatcher.validate(createPod({ dryRun: true }), pod(), undefined);
    assert.equal(server.received[0]?.request.dryRun, true);
  });
});

describe('Service-backed webhooks', () => {
  it('reaches the local server through a selectorless Service and its EndpointSlice', async () => {
    lookup.services = [
      {
        metadata: { name: 'hook', namespace: 'webhooks' },
        spec: { ports: [{ name: 'https', port: 443 }] },
      },
    ];
    lookup.slices = [
      {
        metadata: {
          name: 'hook-1',
          namespace: 'webhooks',
          labels: { 'kubernetes.io/service-name': 'hook' },
        },
        addressType: 'IPv4',
        endpoints: [{ addresses: ['127.0.0.1'] }],
        ports: [{ name: 'https', port: server.port }],
      },
    ];
    const viaService: ValidatingWebhook = {
      ...hook('svc.example.com', '/'),
      clientConfig: {
        service: { namespace: 'webhooks', name: 'hook', path: '/validate' },
        caBundle: server.caBundle,
      },
    };
    lookup.validating = [validating('v', [viaService])];
    await dispatcher.validate(createPod(), pod(), undefined);
    assert.equal(server.received[0]?.path, '/validate?timeout=5s');

    lookup.slices = [];
    const err = await statusOf(() => dispatcher.validate(createPod(), pod(), undefined));
    assert.equal(
      err.message,
      'Internal error occurred: failed calling webhook "svc.example.com": failed to call webhook: Post "https://hook.webhooks.svc:443/validate?timeout=5s": no endpoints available for service "hook"',
    );
  });
});
