/**
 * PATCH through the HTTP API with each content type, including `/scale` and `/status`, and
 * the PatchOptions checks (force only for apply, fieldManager required for apply).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './testing/test-server.js';

const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';
const SMP = 'application/strategic-merge-patch+json';

function deployment(name: string) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [
            { name: 'web', image: 'nginx' },
            { name: 'log', image: 'busybox' },
          ],
        },
      },
    },
  };
}

describe('PATCH content types', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    assert.equal((await t.request('POST', DEPLOY, { body: deployment('web') })).status, 201);
  });
  after(async () => {
    await t.close();
  });

  it('a strategic merge patch merges containers by name and can delete one', async () => {
    const r = await t.request('PATCH', `${DEPLOY}/web`, {
      contentType: SMP,
      body: {
        spec: {
          template: {
            spec: {
              containers: [
                { name: 'web', image: 'nginx:1.27' },
                { name: 'log', $patch: 'delete' },
              ],
            },
          },
        },
      },
    });
    assert.equal(r.status, 200, r.text);
    const containers = (
      r.body.spec as { template: { spec: { containers: { name: string; image: string }[] } } }
    ).template.spec.containers;
    assert.deepEqual(
      containers.map((c) => [c.name, c.image]),
      [['web', 'nginx:1.27']],
    );
  });

  it('a strategic merge patch of /scale sets the replicas', async () => {
    const r = await t.request('PATCH', `${DEPLOY}/web/scale`, {
      contentType: SMP,
      body: { spec: { replicas: 3 } },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.kind, 'Scale');
    assert.deepEqual(r.body.spec, { replicas: 3 });
  });

  it('force is refused on a non-apply patch, fieldManager is required for apply (422 PatchOptions)', async () => {
    const forced = await t.request('PATCH', `${DEPLOY}/web?force=true`, {
      contentType: 'application/merge-patch+json',
      body: { metadata: { labels: { a: 'b' } } },
    });
    assert.equal(forced.status, 422);
    assert.equal(
      forced.body.message,
      'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
    );
    const noManager = await t.request('PATCH', `${DEPLOY}/web`, {
      contentType: 'application/apply-patch+yaml',
      body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } },
    });
    assert.equal(noManager.status, 422);
    assert.equal(
      noManager.body.message,
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    );
  });

  it('an unknown patch type is 415 listing the accepted ones', async () => {
    const r = await t.request('PATCH', `${DEPLOY}/web`, { contentType: 'text/plain', raw: 'x' });
    assert.equal(r.status, 415);
    assert.equal(
      r.body.message,
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
    );
  });

  it('fieldValidation=Strict on a merge patch that adds an unknown field is 422', async () => {
    const r = await t.request('PATCH', `${DEPLOY}/web?fieldValidation=Strict`, {
      contentType: 'application/merge-patch+json',
      body: { spec: { bogus: 1 } },
    });
    assert.equal(r.status, 422, r.text);
    assert.match(String(r.body.message), /strict decoding error: unknown field "spec.bogus"$/);
  });

  it('a JSON type error in a create body is 400 with Go decoding text', async () => {
    const bad = deployment('typed');
    (bad.spec as Record<string, unknown>).replicas = 'three';
    const r = await t.request('POST', DEPLOY, { body: bad });
    assert.equal(r.status, 400);
    assert.equal(
      r.body.message,
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
  });
});
