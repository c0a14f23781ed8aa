import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/object.js';
import { createMemoryBackend } from '../../../storage/index.js';
import type { UserInfo } from '../../authentication/user.js';
import type { Attributes } from '../types.js';
import { rbacFromBackend } from './index.js';
import { clusterRole, clusterRoleBinding, user } from './test-fixtures.js';

const jane: UserInfo = { username: 'jane', groups: ['system:authenticated'] };
const listNodes = (u: UserInfo): Attributes => ({
  user: u,
  verb: 'list',
  resourceRequest: true,
  apiGroup: '',
  resource: 'nodes',
});

describe('rbacFromBackend', () => {
  it('answers from what is stored, and from what is written after', async () => {
    const backend = createMemoryBackend();
    const put = (key: string, o: KubeObject) => backend.create(key, () => JSON.stringify(o));
    await put(
      '/rbac.authorization.k8s.io/clusterroles/node-reader',
      clusterRole('node-reader', [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }]),
    );
    const rbac = rbacFromBackend(backend);
    try {
      assert.equal(rbac.authorizer.authorize(listNodes(jane)).decision, 'NoOpinion');
      await put(
        '/rbac.authorization.k8s.io/clusterrolebindings/jane',
        clusterRoleBinding('jane', 'node-reader', [user('jane')]),
      );
      assert.deepEqual(rbac.authorizer.authorize(listNodes(jane)), {
        decision: 'Allow',
        reason:
          'RBAC: allowed by ClusterRoleBinding "jane" of ClusterRole "node-reader" to User "jane"',
      });
      const admin: UserInfo = { username: 'root', groups: ['system:masters'] };
      assert.deepEqual(rbac.authorizer.authorize(listNodes(admin)), {
        decision: 'Allow',
        reason: '',
      });
      assert.equal(rbac.ruleResolver.rulesFor(jane, 'default').resourceRules.length, 1);
    } finally {
      rbac.stop();
    }
  });
});
