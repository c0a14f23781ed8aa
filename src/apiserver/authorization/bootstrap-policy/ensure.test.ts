import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../testing/test-server.js';
import { bootstrapPolicyObjects, ensureBootstrapPolicy } from './reconcile.js';

describe('ensureBootstrapPolicy on the object store', () => {
  let api: TestServer;
  before(async () => {
    api = await startTestServer();
  });
  after(async () => {
    await api.close();
  });

  it('creates the policy through the store, then a second run writes nothing', async () => {
    const { store, registry } = api.server;
    const first = await ensureBootstrapPolicy(store, registry);
    assert.equal(first?.failures.size, 0, [...(first?.failures.values() ?? [])].join('\n'));
    const revision = store.backend.list('/').revision;
    const second = await ensureBootstrapPolicy(store, registry);
    assert.equal(second?.failures.size, 0);
    assert.equal(store.backend.list('/').revision, revision, 'no write on the second run');
    assert.equal(second?.outcomes.size, bootstrapPolicyObjects().length);
    const admin = store.get(
      registry.get('rbac.authorization.k8s.io', 'v1', 'clusterroles')!,
      '',
      'admin',
    );
    assert.equal(admin.metadata?.labels?.['kubernetes.io/bootstrapping'], 'rbac-defaults');
  });
});
