/**
 * CustomResourceDefinitions through the HTTP API, as a user meets them: registration and
 * conditions, custom resources validated by schema and CEL (exact 422 texts), defaults,
 * pruning, subresources, several versions, deletion with cleanup, and serving after a
 * restart of the server on the same storage.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestServer, type TestServer } from '../apiserver/testing/test-server.js';
import { createMemoryBackend } from '../storage/memory/backend.js';
import { apiExtensions } from './index.js';
import { WIDGET_CRD_NAME, widgetCrd } from './testing/widget-crd.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const W1 = '/apis/example.com/v1/namespaces/default/widgets';
const W1B = '/apis/example.com/v1beta1/namespaces/default/widgets';

function widget(name: string, spec: Record<string, unknown>) {
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await probe();
    if (v !== undefined) return v;
    await sleep(10);
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function established(t: TestServer): Promise<Record<string, unknown>> {
  return until('Established', async () => {
    const r = await t.request('GET', `${CRDS}/${WIDGET_CRD_NAME}`);
    const conditions =
      (r.body.status as { conditions?: { type: string; status: string }[] })?.conditions ?? [];
    return conditions.some((c) => c.type === 'Established' && c.status === 'True')
      ? r.body
      : undefined;
  });
}

describe('CustomResourceDefinition lifecycle', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ extensions: apiExtensions() });
    const r = await t.request('POST', CRDS, { body: widgetCrd() });
    assert.equal(r.status, 201, r.text);
  });
  after(async () => {
    await t.close();
  });

  it('is established with its accepted names and stored version, and served in discovery', async () => {
    const crd = await established(t);
    const status = crd.status as Record<string, unknown>;
    assert.deepEqual(status.storedVersions, ['v1']);
    assert.deepEqual(status.acceptedNames, {
      plural: 'widgets',
      singular: 'widget',
      shortNames: ['wd'],
      kind: 'Widget',
      listKind: 'WidgetList',
      categories: ['fleet'],
    });
    const list = await t.request('GET', '/apis/example.com/v1');
    const resources = (list.body.resources as { name: string }[]).map((r) => r.name);
    assert.deepEqual(resources.sort(), ['widgets', 'widgets/scale', 'widgets/status']);
  });

  it('defaults and prunes custom resources, and warns about the pruned field', async () => {
    const r = await t.request('POST', W1, {
      body: widget('w1', { size: 'small', owner: 'ann', extra: true }),
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body.spec, { size: 'small', owner: 'ann', replicas: 1, maxReplicas: 5 });
    assert.equal(r.headers.warning, '299 - "unknown field \\"spec.extra\\""');
  });

  it('answers 422 with upstream texts for schema and CEL violations', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { size: 'huge' },
        // An unsupported value blocks the CEL rules, and upstream says so (hasBlockingErr).
        'Widget.example.com "bad" is invalid: [spec.size: Unsupported value: "huge": supported values: "small", "large", <nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]',
      ],
      [
        { size: 'small', replicas: 9, tags: ['a', 'a'] },
        'Widget.example.com "bad" is invalid: [spec.tags[1]: Duplicate value: "a", spec: Invalid value: "object": replicas must not exceed maxReplicas]',
      ],
      [{}, 'Widget.example.com "bad" is invalid: spec.size: Required value'],
      [
        { size: 'small', replicas: 9 },
        'Widget.example.com "bad" is invalid: spec: Invalid value: "object": replicas must not exceed maxReplicas',
      ],
      [
        { size: 'small', replicas: -1 },
        'Widget.example.com "bad" is invalid: spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0',
      ],
    ];
    for (const [spec, message] of cases) {
      const r = await t.request('POST', W1, { body: widget('bad', spec) });
      assert.equal(r.status, 422, r.text);
      assert.equal(r.body.message, message);
    }
  });

  it('enforces a transition rule with oldSelf on update', async () => {
    const r = await t.request('PATCH', `${W1}/w1`, {
      body: { spec: { owner: 'bob' } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(r.status, 422);
    assert.equal(
      r.body.message,
      'Widget.example.com "w1" is invalid: spec.owner: Invalid value: "string": owner is immutable',
    );
    const ok = await t.request('PATCH', `${W1}/w1`, {
      body: { spec: { replicas: 2 } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(ok.status, 200, ok.text);
    assert.equal((ok.body.metadata as { generation: number }).generation, 2);
  });

  it('answers 415 to a strategic merge patch, as upstream does for custom resources', async () => {
    const r = await t.request('PATCH', `${W1}/w1`, {
      body: { spec: { replicas: 3 } },
      contentType: 'application/strategic-merge-patch+json',
    });
    assert.equal(r.status, 415);
    assert.equal(
      r.body.message,
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );
  });

  it('serves status and scale subresources without touching generation on status writes', async () => {
    const status = await t.request('PATCH', `${W1}/w1/status`, {
      body: { status: { replicas: 2, phase: 'Ready' } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(status.status, 200, status.text);
    assert.equal((status.body.metadata as { generation: number }).generation, 2);
    const scale = await t.request('PATCH', `${W1}/w1/scale`, {
      body: { spec: { replicas: 4 } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(scale.status, 200, scale.text);
    assert.deepEqual(scale.body.spec, { replicas: 4 });
    assert.deepEqual(scale.body.status, { replicas: 2 });
    const read = await t.request('GET', `${W1}/w1`);
    assert.equal((read.body.spec as { replicas: number }).replicas, 4);
  });

  it('serves every version with its own apiVersion (conversion None)', async () => {
    const r = await t.request('GET', `${W1B}/w1`);
    assert.equal(r.status, 200);
    assert.equal(r.body.apiVersion, 'example.com/v1beta1');
    const list = await t.request('GET', W1B);
    const items = list.body.items as { apiVersion: string }[];
    assert.deepEqual(
      items.map((i) => i.apiVersion),
      ['example.com/v1beta1'],
    );
  });

  it('prints Tables with the printer columns, the priority-1 column marked for -o wide', async () => {
    const r = await t.request('GET', W1, {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    const columns = (r.body.columnDefinitions as { name: string; priority: number }[]).map((c) => [
      c.name,
      c.priority,
    ]);
    assert.deepEqual(columns, [
      ['Name', 0],
      ['Size', 0],
      ['Replicas', 0],
      ['Owner', 1],
    ]);
    assert.deepEqual((r.body.rows as { cells: unknown[] }[])[0]?.cells, ['w1', 'small', 4, 'ann']);
  });

  it('deleting the CRD deletes its custom resources, then the CRD and its endpoints', async () => {
    const r = await t.request('DELETE', `${CRDS}/${WIDGET_CRD_NAME}`);
    assert.equal(r.status, 200);
    await until('the CRD is gone', async () => {
      const g = await t.request('GET', `${CRDS}/${WIDGET_CRD_NAME}`);
      return g.status === 404 ? true : undefined;
    });
    assert.equal((await t.request('GET', W1)).status, 404);
    assert.equal(t.backend.count('/example.com/widgets/'), 0);
  });
});

describe('CustomResourceDefinitions after a restart', () => {
  it('serves stored custom resources from the first request', async () => {
    const backend = createMemoryBackend();
    const first = await startTestServer({ backend, extensions: apiExtensions() });
    await first.request('POST', CRDS, { body: widgetCrd() });
    await established(first);
    const created = await first.request('POST', W1, { body: widget('kept', { size: 'large' }) });
    assert.equal(created.status, 201, created.text);
    await first.server.stop();

    const second = await startTestServer({ backend, extensions: apiExtensions() });
    try {
      const r = await second.request('GET', `${W1}/kept`);
      assert.equal(r.status, 200, r.text);
      assert.equal((r.body.spec as { size: string }).size, 'large');
    } finally {
      await second.close();
    }
  });
});

describe('a terminating CustomResourceDefinition', () => {
  it('waits for finalizers of its custom resources and refuses new ones meanwhile', async () => {
    const t = await startTestServer({ extensions: apiExtensions() });
    try {
      await t.request('POST', CRDS, { body: widgetCrd() });
      await established(t);
      const held = widget('held', { size: 'small' });
      (held.metadata as Record<string, unknown>).finalizers = ['example.com/hold'];
      assert.equal((await t.request('POST', W1, { body: held })).status, 201);

      assert.equal((await t.request('DELETE', `${CRDS}/${WIDGET_CRD_NAME}`)).status, 200);
      const refused = await until('creates are refused', async () => {
        const r = await t.request('POST', W1, { body: widget('late', { size: 'small' }) });
        return r.status === 405 ? r : undefined;
      });
      assert.equal(refused.body.reason, 'MethodNotAllowed');
      assert.equal(
        refused.body.message,
        'create not allowed while custom resource definition is terminating',
      );
      const crd = await t.request('GET', `${CRDS}/${WIDGET_CRD_NAME}`);
      const terminating = (
        crd.body.status as { conditions: { type: string; reason: string }[] }
      ).conditions.find((c) => c.type === 'Terminating');
      assert.equal(terminating?.reason, 'InstanceDeletionInProgress');

      await t.request('PATCH', `${W1}/held`, {
        body: { metadata: { finalizers: null } },
        contentType: 'application/merge-patch+json',
      });
      await until('the CRD is gone', async () => {
        const g = await t.request('GET', `${CRDS}/${WIDGET_CRD_NAME}`);
        return g.status === 404 ? true : undefined;
      });
    } finally {
      await t.close();
    }
  });
});
