/**
 * One storage served in several versions, through the real request path: HPAs written as
 * autoscaling/v1 or v2 are one object, core and events.k8s.io events are one store; gets,
 * lists, watches, field selectors, patches and managedFields all go through the conversion.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../testing/test-server.js';

const V1 = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
const V2 = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';
const CORE_EVENTS = '/api/v1/namespaces/default/events';
const EVENTS = '/apis/events.k8s.io/v1/namespaces/default/events';

// biome-ignore lint/suspicious/noExplicitAny: a test reads nested fields of JSON bodies directly.
type Obj = Record<string, any>;

const target = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

describe('autoscaling/v1 and v2 share one storage', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t.close();
  });

  it('a v1 HPA reads back through v2 with its CPU target as a metric', async () => {
    const created = await t.request('POST', V1, {
      body: {
        apiVersion: 'autoscaling/v1',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name: 'web' },
        spec: { scaleTargetRef: target, maxReplicas: 5, targetCPUUtilizationPercentage: 50 },
      },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.apiVersion, 'autoscaling/v1');
    const v1 = created.body as Obj;
    assert.deepEqual(v1.spec, {
      scaleTargetRef: target,
      minReplicas: 1,
      maxReplicas: 5,
      targetCPUUtilizationPercentage: 50,
    });
    assert.deepEqual(v1.status, { currentReplicas: 0, desiredReplicas: 0 });
    const v2 = (await t.request('GET', `${V2}/web`)).body as Obj;
    assert.equal(v2.apiVersion, 'autoscaling/v2');
    assert.deepEqual(v2.spec.metrics, [
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } },
      },
    ]);
    assert.equal(v2.metadata.uid, v1.metadata.uid);
    assert.equal(v2.metadata.resourceVersion, v1.metadata.resourceVersion);
    // managedFields record the version of the request that wrote them.
    assert.equal(v2.metadata.managedFields[0].apiVersion, 'autoscaling/v1');
  });

  it('v2-only fields survive a v1 read-modify-write through the annotations', async () => {
    await t.request('POST', V2, {
      body: {
        metadata: { name: 'mem' },
        spec: {
          scaleTargetRef: target,
          maxReplicas: 4,
          metrics: [
            {
              type: 'Resource',
              resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1Gi' } },
            },
          ],
          behavior: { scaleDown: { stabilizationWindowSeconds: 60 } },
        },
      },
    });
    const v1 = (await t.request('GET', `${V1}/mem`)).body as Obj;
    assert.equal(v1.spec.targetCPUUtilizationPercentage, undefined);
    assert.ok(v1.metadata.annotations['autoscaling.alpha.kubernetes.io/metrics']);
    assert.ok(v1.metadata.annotations['autoscaling.alpha.kubernetes.io/behavior']);
    v1.spec.maxReplicas = 6;
    const put = await t.request('PUT', `${V1}/mem`, { body: v1 });
    assert.equal(put.status, 200, put.text);
    const v2 = (await t.request('GET', `${V2}/mem`)).body as Obj;
    assert.equal(v2.spec.maxReplicas, 6);
    assert.equal(v2.spec.metrics[0].resource.name, 'memory');
    assert.equal(v2.spec.behavior.scaleDown.stabilizationWindowSeconds, 60);
    assert.equal(v2.metadata.annotations, undefined, 'round-trip annotations never reach v2');
  });

  it('lists and watches see writes through either version', async () => {
    const w = await t.watch(`${V1}?watch=true&resourceVersion=${t.backend.currentRevision()}`);
    await t.request('PATCH', `${V2}/web`, {
      body: { spec: { maxReplicas: 7 } },
      contentType: 'application/merge-patch+json',
    });
    const [ev] = await w.waitFor(1);
    w.close();
    assert.equal(ev?.type, 'MODIFIED');
    assert.equal(ev?.object.apiVersion, 'autoscaling/v1');
    assert.equal((ev?.object.spec as Obj | undefined)?.maxReplicas, 7);
    const list = (await t.request('GET', V2)).body as Obj;
    assert.deepEqual(
      list.items.map((i: Obj) => [i.apiVersion, i.metadata.name]),
      [
        ['autoscaling/v2', 'mem'],
        ['autoscaling/v2', 'web'],
      ],
    );
  });

  it('validates v1 writes on the v2 form', async () => {
    const r = await t.request('POST', V1, {
      body: {
        metadata: { name: 'bad' },
        spec: { scaleTargetRef: { kind: 'Deployment' }, minReplicas: 3, maxReplicas: 2 },
      },
    });
    assert.equal(r.status, 422);
    assert.match(
      r.text,
      /spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`/,
    );
    assert.match(r.text, /spec.scaleTargetRef.name: Required value/);
  });
});

describe('core and events.k8s.io events share one storage', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t.close();
  });

  it('an event written through either API is listed by both', async () => {
    const core = await t.request('POST', CORE_EVENTS, {
      body: {
        metadata: { name: 'web.1' },
        involvedObject: { kind: 'Pod', namespace: 'default', name: 'web' },
        reason: 'Started',
        message: 'Started container',
        source: { component: 'kubelet', host: 'n1' },
        count: 2,
        type: 'Normal',
      },
    });
    assert.equal(core.status, 201, core.text);
    const modern = await t.request('POST', EVENTS, {
      body: {
        metadata: { name: 'web.2' },
        eventTime: '2026-01-01T00:00:00.000000Z',
        reportingController: 'example.com/ctl',
        reportingInstance: 'ctl-1',
        action: 'Scale',
        reason: 'Scaled',
        regarding: { kind: 'Deployment', namespace: 'default', name: 'web' },
        note: 'scaled up',
        type: 'Normal',
      },
    });
    assert.equal(modern.status, 201, modern.text);
    const viaEvents = ((await t.request('GET', EVENTS)).body as Obj).items;
    const viaCore = ((await t.request('GET', CORE_EVENTS)).body as Obj).items;
    assert.deepEqual(
      viaEvents.map((e: Obj) => e.metadata.name),
      ['web.1', 'web.2'],
    );
    assert.deepEqual(
      viaCore.map((e: Obj) => e.metadata.name),
      ['web.1', 'web.2'],
    );
    assert.deepEqual(viaEvents[0].regarding, { kind: 'Pod', namespace: 'default', name: 'web' });
    assert.equal(viaEvents[0].note, 'Started container');
    assert.equal(viaEvents[0].deprecatedCount, 2);
    assert.deepEqual(viaEvents[0].deprecatedSource, { component: 'kubelet', host: 'n1' });
    assert.equal(viaCore[1].message, 'scaled up');
    assert.equal(viaCore[1].reportingComponent, 'example.com/ctl');
    assert.deepEqual(viaCore[1].involvedObject, {
      kind: 'Deployment',
      namespace: 'default',
      name: 'web',
    });
  });

  it('field selectors use each API’s own field names', async () => {
    const a = (await t.request('GET', `${EVENTS}?fieldSelector=regarding.kind%3DPod`)).body as Obj;
    assert.deepEqual(
      a.items.map((e: Obj) => e.metadata.name),
      ['web.1'],
    );
    const b = (
      await t.request('GET', `${CORE_EVENTS}?fieldSelector=involvedObject.kind%3DDeployment`)
    ).body as Obj;
    assert.deepEqual(
      b.items.map((e: Obj) => e.metadata.name),
      ['web.2'],
    );
  });

  it('a watch on events.k8s.io sees a core write', async () => {
    const w = await t.watch(`${EVENTS}?watch=true&resourceVersion=${t.backend.currentRevision()}`);
    await t.request('DELETE', `${CORE_EVENTS}/web.1`);
    const [ev] = await w.waitFor(1);
    w.close();
    assert.equal(ev?.type, 'DELETED');
    assert.equal(ev?.object.apiVersion, 'events.k8s.io/v1');
    assert.equal(ev?.object.note, 'Started container');
  });
});
