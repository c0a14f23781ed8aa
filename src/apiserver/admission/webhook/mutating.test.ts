/**
 * Mutating webhooks against a real HTTPS webhook server on 127.0.0.1: JSON patches,
 * reinvocation, patches on delete, and the selectors and match conditions that decide a call.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { MutatingWebhook } from '../../../api/model/index.js';
import { isJsonObject } from '../../../api/object.js';
import { WebhookDispatcher } from './dispatcher.js';
import {
  podAttributes as createPod,
  FakeLookup,
  mutatingConfig as mutating,
  objectLabels,
  POD_RULE,
  patchOf,
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

describe('mutating webhooks', () => {
  it('applies a JSON patch and records it for audit', async () => {
    lookup.mutating = [mutating('m', [hook('label.example.com', '/label')])];
    const ops = [{ op: 'add', path: '/metadata/labels/injected', value: 'yes' }];
    server.handler = () => ({ allowed: true, patchType: 'JSONPatch', patch: patchOf(ops) });
    const record = new AdmissionRecord();
    const out = await dispatcher.admit(createPod(), pod(), undefined, record);
    assert.deepEqual(out?.metadata?.labels, { injected: 'yes' });
    assert.deepEqual(record.annotations, [
      {
        key: 'patch.webhook.admission.k8s.io/round_0_index_0',
        value: JSON.stringify({
          configuration: 'm',
          webhook: 'label.example.com',
          patch: ops,
          patchType: 'JSONPatch',
        }),
        level: 'Request',
      },
      {
        key: 'mutation.webhook.admission.k8s.io/round_0_index_0',
        value: JSON.stringify({ configuration: 'm', webhook: 'label.example.com', mutated: true }),
        level: 'Metadata',
      },
    ]);
  });

  it('through forRequest, mutate returns the patched object to the store', async () => {
    lookup.mutating = [mutating('m', [hook('label.example.com', '/label')])];
    server.handler = () => ({
      allowed: true,
      patchType: 'JSONPatch',
      patch: patchOf([{ op: 'replace', path: '/spec/containers/0/image', value: 'nginx:1.27' }]),
    });
    const admit = dispatcher.forRequest(createPod());
    const out = await admit.mutate?.(pod(), undefined);
    const containers = out?.spec;
    assert.ok(isJsonObject(containers) && Array.isArray(containers.containers));
    assert.equal(containers.containers[0].image, 'nginx:1.27');
    // Upstream defaults the patched object: the Pod's defaults are filled in.
    assert.equal(containers.restartPolicy, 'Always');
  });

  it('reinvokes an IfNeeded webhook once when a later webhook changed the object', async () => {
    lookup.mutating = [
      mutating('a-first', [
        hook('first.example.com', '/first', { reinvocationPolicy: 'IfNeeded' }),
      ]),
      mutating('b-second', [hook('second.example.com', '/second')]),
    ];
    server.handler = (request, path) => {
      const labels = objectLabels(request);
      if (path.startsWith('/second') && labels.second === undefined) {
        return {
          allowed: true,
          patchType: 'JSONPatch',
          patch: patchOf([{ op: 'add', path: '/metadata/labels/second', value: 'x' }]),
        };
      }
      return { allowed: true };
    };
    const out = await dispatcher.admit(createPod(), pod(), undefined);
    assert.deepEqual(out?.metadata?.labels, { second: 'x' });
    assert.deepEqual(
      server.received.map((r) => r.path.split('?')[0]),
      ['/first', '/second', '/first'],
    );
    assert.deepEqual(objectLabels(server.received[2]!.request), { second: 'x' });
  });

  it('does not reinvoke a Never webhook, nor one that ran after the change', async () => {
    lookup.mutating = [
      mutating('a', [hook('first.example.com', '/first')]),
      mutating('b', [hook('second.example.com', '/second', { reinvocationPolicy: 'IfNeeded' })]),
    ];
    server.handler = (_request, path) =>
      path.startsWith('/first')
        ? {
            allowed: true,
            patchType: 'JSONPatch',
            patch: patchOf([{ op: 'add', path: '/metadata/labels/a', value: '1' }]),
          }
        : { allowed: true };
    await dispatcher.admit(createPod(), pod(), undefined);
    assert.deepEqual(
      server.received.map((r) => r.path.split('?')[0]),
      ['/first', '/second'],
    );
  });

  it('a patch on a delete is refused', async () => {
    lookup.mutating = [
      mutating('m', [
        hook('del.example.com', '/del', { rules: [{ ...POD_RULE, operations: ['DELETE'] }] }),
      ]),
    ];
    server.handler = () => ({
      allowed: true,
      patchType: 'JSONPatch',
      patch: patchOf([{ op: 'add', path: '/x', value: 1 }]),
    });
    const err = await statusOf(() =>
      dispatcher.admit(createPod({ operation: 'DELETE' }), undefined, undefined),
    );
    assert.equal(
      err.message,
      'Internal error occurred: admission webhook "del.example.com" attempted to modify the object, which is not supported for this operation',
    );
  });
});

describe('matchPolicy Equivalent', () => {
  it('sends an autoscaling/v1 HPA to a v2 rule as v2 and converts its patch back', async () => {
    const v2Rule = {
      operations: ['CREATE'],
      apiGroups: ['autoscaling'],
      apiVersions: ['v2'],
      resources: ['horizontalpodautoscalers'],
    };
    lookup.mutating = [mutating('m', [hook('hpa.example.com', '/hpa', { rules: [v2Rule] })])];
    server.handler = () => ({
      allowed: true,
      patchType: 'JSONPatch',
      patch: patchOf([{ op: 'replace', path: '/spec/maxReplicas', value: 10 }]),
    });
    const hpa = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        minReplicas: 1,
        maxReplicas: 3,
        targetCPUUtilizationPercentage: 80,
      },
    };
    const attrs = createPod({
      resource: { group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers' },
      kind: { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' },
    });
    const out = await dispatcher.admit(attrs, hpa, undefined);
    const { request } = server.received[0]!;
    assert.deepEqual(request.kind, {
      group: 'autoscaling',
      version: 'v2',
      kind: 'HorizontalPodAutoscaler',
    });
    assert.deepEqual(request.requestKind, {
      group: 'autoscaling',
      version: 'v1',
      kind: 'HorizontalPodAutoscaler',
    });
    assert.ok(isJsonObject(request.object));
    assert.equal(request.object.apiVersion, 'autoscaling/v2');
    assert.equal(out?.apiVersion, 'autoscaling/v1');
    assert.ok(isJsonObject(out?.spec));
    assert.equal(out.spec.maxReplicas, 10);
    assert.equal(out.spec.targetCPUUtilizationPercentage, 80);
  });
});

describe('selectors and match conditions', () => {
  const cases: Array<{
    name: string;
    extra: Partial<MutatingWebhook>;
    labels: Record<string, string>;
    called: boolean;
  }> = [
    {
      name: 'namespace selector matches',
      extra: { namespaceSelector: { matchLabels: { env: 'dev' } } },
      labels: {},
      called: true,
    },
    {
      name: 'namespace selector does not match',
      extra: { namespaceSelector: { matchLabels: { env: 'prod' } } },
      labels: {},
      called: false,
    },
    {
      name: 'object selector matches',
      extra: { objectSelector: { matchLabels: { app: 'web' } } },
      labels: { app: 'web' },
      called: true,
    },
    {
      name: 'object selector does not match',
      extra: { objectSelector: { matchLabels: { app: 'web' } } },
      labels: { app: 'db' },
      called: false,
    },
    {
      name: 'match condition true',
      extra: {
        matchConditions: [{ name: 'web', expression: "object.metadata.labels.app == 'web'" }],
      },
      labels: { app: 'web' },
      called: true,
    },
    {
      name: 'match condition false',
      extra: {
        matchConditions: [
          { name: 'not-admin', expression: "request.userInfo.username != 'kubernetes-admin'" },
        ],
      },
      labels: {},
      called: false,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      lookup.validating = [validating('v', [hook('sel.example.com', '/sel', c.extra)])];
      await dispatcher.validate(createPod(), pod(c.labels), undefined);
      assert.equal(server.received.length, c.called ? 1 : 0);
    });
  }

  it('a match condition error fails the request under Fail and skips the webhook under Ignore', async () => {
    const conditions = [{ name: 'app', expression: 'object.metadata.labels.app == "web"' }];
    lookup.validating = [
      validating('v', [hook('cond.example.com', '/c', { matchConditions: conditions })]),
    ];
    const err = await statusOf(() => dispatcher.validate(createPod(), pod(), undefined));
    assert.equal(err.code, 403);
    assert.equal(
      err.message,
      `pods "web" is forbidden: expression 'object.metadata.labels.app == "web"' resulted in error: no such key: app`,
    );
    lookup.validating = [
      validating('v', [
        hook('cond.example.com', '/c', { matchConditions: conditions, failurePolicy: 'Ignore' }),
      ]),
    ];
    await dispatcher.validate(createPod(), pod(), undefined);
    assert.equal(server.received.length, 0);
  });
});
