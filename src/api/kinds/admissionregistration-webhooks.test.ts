import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import {
  mutatingWebhookConfigurationResource,
  validatingWebhookConfigurationResource,
} from './admissionregistration-webhooks.js';
import { simulateCreate } from './harness.js';

/** ingress-nginx's webhook, as its deploy.yaml declares it. */
function hook(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'validate.nginx.ingress.kubernetes.io',
    admissionReviewVersions: ['v1'],
    sideEffects: 'None',
    clientConfig: { service: { name: 'admission', namespace: 'ingress-nginx', path: '/x' } },
    rules: [
      {
        apiGroups: ['networking.k8s.io'],
        apiVersions: ['v1'],
        operations: ['CREATE', 'UPDATE'],
        resources: ['ingresses'],
      },
    ],
    ...over,
  };
}

function config(...webhooks: Record<string, unknown>[]): KubeObject {
  return { metadata: { name: 'ingress-nginx-admission' }, webhooks };
}

describe('ValidatingWebhookConfiguration', () => {
  it('defaults what upstream defaults', () => {
    const { object } = simulateCreate(validatingWebhookConfigurationResource, config(hook()));
    const [h] = object.webhooks as Record<string, unknown>[];
    assert.ok(h);
    assert.equal(h.failurePolicy, 'Fail');
    assert.equal(h.matchPolicy, 'Equivalent');
    assert.equal(h.timeoutSeconds, 10);
    assert.deepEqual(h.namespaceSelector, {});
    assert.deepEqual((h.clientConfig as { service: { port: number } }).service.port, 443);
    assert.equal((h.rules as { scope: string }[])[0]?.scope, '*');
    assert.equal(h.reinvocationPolicy, undefined);
  });

  const cases: { name: string; webhooks: Record<string, unknown>[]; want: string[] }[] = [
    { name: 'ingress-nginx webhook', webhooks: [hook()], want: [] },
    {
      name: 'two-segment name',
      webhooks: [hook({ name: 'validate.nginx' })],
      want: [
        'webhooks[0].name: Invalid value: "validate.nginx": should be a domain with at least three segments separated by dots',
      ],
    },
    {
      name: 'no sideEffects',
      webhooks: [hook({ sideEffects: undefined })],
      want: ['webhooks[0].sideEffects: Required value'],
    },
    {
      name: 'url and service',
      webhooks: [
        hook({ clientConfig: { url: 'https://x', service: { name: 'a', namespace: 'b' } } }),
      ],
      want: ['webhooks[0].clientConfig: Required value: exactly one of url or service is required'],
    },
    {
      name: 'timeout out of range',
      webhooks: [hook({ timeoutSeconds: 31 })],
      want: [
        'webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
      ],
    },
    {
      name: 'duplicate names',
      webhooks: [hook(), hook()],
      want: ['webhooks[1].name: Duplicate value: "validate.nginx.ingress.kubernetes.io"'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = simulateCreate(validatingWebhookConfigurationResource, config(...c.webhooks));
      assert.deepEqual(got.messages, c.want);
    });
  }
});

describe('MutatingWebhookConfiguration', () => {
  it('defaults reinvocationPolicy to Never', () => {
    const { object } = simulateCreate(mutatingWebhookConfigurationResource, config(hook()));
    assert.equal(
      (object.webhooks as { reinvocationPolicy: string }[])[0]?.reinvocationPolicy,
      'Never',
    );
  });
});
