/**
 * `managedFields` as the API records them, compared with what kube-apiserver records for the
 * same requests (`kubectl create deployment nginx --image=nginx` on a 1.33 cluster).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './testing/test-server.js';

const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';
const labels = { '.': {}, 'f:app': {} };

describe('managedFields recorded by writes', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t.close();
  });

  it('a create records every set field, structs that always exist without "."', async () => {
    const r = await t.request('POST', `${DEPLOY}?fieldManager=kubectl-create`, {
      body: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'nginx', labels: { app: 'nginx' } },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'nginx' } },
          template: {
            metadata: { labels: { app: 'nginx' } },
            spec: { containers: [{ name: 'nginx', image: 'nginx', resources: {} }] },
          },
          strategy: {},
        },
      },
    });
    assert.equal(r.status, 201, r.text);
    const [entry, ...rest] = (r.body.metadata as { managedFields: Record<string, unknown>[] })
      .managedFields;
    assert.equal(rest.length, 0);
    assert.equal(entry?.manager, 'kubectl-create');
    assert.equal(entry?.operation, 'Update');
    assert.deepEqual(entry?.fieldsV1, {
      'f:metadata': { 'f:labels': labels },
      'f:spec': {
        'f:progressDeadlineSeconds': {},
        'f:replicas': {},
        'f:revisionHistoryLimit': {},
        'f:selector': {},
        'f:strategy': {
          'f:rollingUpdate': { '.': {}, 'f:maxSurge': {}, 'f:maxUnavailable': {} },
          'f:type': {},
        },
        'f:template': {
          'f:metadata': { 'f:labels': labels },
          'f:spec': {
            'f:containers': {
              'k:{"name":"nginx"}': {
                '.': {},
                'f:image': {},
                'f:imagePullPolicy': {},
                'f:name': {},
                'f:resources': {},
                'f:terminationMessagePath': {},
                'f:terminationMessagePolicy': {},
              },
            },
            'f:dnsPolicy': {},
            'f:restartPolicy': {},
            'f:schedulerName': {},
            'f:securityContext': {},
            'f:terminationGracePeriodSeconds': {},
          },
        },
      },
    });
  });

  it('a write that changes nothing leaves managedFields and resourceVersion alone', async () => {
    const before = await t.request('GET', `${DEPLOY}/nginx`);
    const r = await t.request('PATCH', `${DEPLOY}/nginx?fieldManager=other`, {
      body: { spec: { replicas: 1 } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.metadata, before.body.metadata);
  });

  it('another manager that changes a field takes it over', async () => {
    const r = await t.request('PATCH', `${DEPLOY}/nginx?fieldManager=scaler`, {
      body: { spec: { replicas: 3 } },
      contentType: 'application/merge-patch+json',
    });
    const entries = (r.body.metadata as { managedFields: Record<string, unknown>[] }).managedFields;
    const byManager = new Map(entries.map((e) => [e.manager, e.fieldsV1 as Record<string, never>]));
    assert.deepEqual(byManager.get('scaler'), { 'f:spec': { 'f:replicas': {} } });
    assert.equal(
      (byManager.get('kubectl-create')?.['f:spec'] as Record<string, unknown> | undefined)?.[
        'f:replicas'
      ],
      undefined,
    );
  });
});
