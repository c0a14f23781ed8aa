import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/object.js';
import { createMemoryBackend } from '../../../storage/index.js';
import type { UserInfo } from '../../authentication/user.js';
import { PolicyIndex, parseKey } from './policy-index.js';
import {
  clusterRole,
  clusterRoleBinding,
  group,
  indexOf,
  role,
  roleBinding,
  serviceAccount,
  user,
} from './test-fixtures.js';

const jane: UserInfo = { username: 'jane', groups: ['devs', 'system:authenticated'] };
const sa: UserInfo = {
  username: 'system:serviceaccount:ns1:robot',
  groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'],
};
const names = (bs: readonly { name: string }[]) => bs.map((b) => b.name);

function keyOf(o: KubeObject): string {
  const plural = `${String(o.kind).toLowerCase()}s`;
  const ns = o.metadata?.namespace;
  return `/rbac.authorization.k8s.io/${plural}/${ns === undefined ? '' : `${ns}/`}${o.metadata?.name}`;
}

describe('PolicyIndex lookups', () => {
  const index = indexOf([
    clusterRoleBinding('by-user', 'view', [user('jane')]),
    clusterRoleBinding('by-group', 'view', [group('devs')]),
    clusterRoleBinding('by-both', 'view', [group('devs'), user('jane')]),
    clusterRoleBinding('other', 'view', [user('bob')]),
    clusterRoleBinding('sa-no-namespace', 'view', [serviceAccount('robot')]),
    clusterRoleBinding('sa', 'view', [serviceAccount('robot', 'ns1')]),
    roleBinding('ns1', 'rb-sa-defaulted', { kind: 'Role', name: 'r' }, [serviceAccount('robot')]),
    roleBinding('ns2', 'rb-sa-elsewhere', { kind: 'Role', name: 'r' }, [serviceAccount('robot')]),
    roleBinding('ns2', 'rb-sa-explicit', { kind: 'Role', name: 'r' }, [
      serviceAccount('robot', 'ns1'),
    ]),
    roleBinding('ns1', 'rb-user', { kind: 'Role', name: 'r' }, [user('jane')]),
  ]);

  it('finds cluster bindings by user and group, each once, by name', () => {
    assert.deepEqual(names(index.clusterRoleBindingsFor(jane)), ['by-both', 'by-group', 'by-user']);
  });
  it('a ServiceAccount subject of a ClusterRoleBinding needs its namespace', () => {
    assert.deepEqual(names(index.clusterRoleBindingsFor(sa)), ['sa']);
  });
  it("a RoleBinding's ServiceAccount subject defaults to the binding's namespace", () => {
    assert.deepEqual(names(index.roleBindingsFor(sa, 'ns1')), ['rb-sa-defaulted']);
    assert.deepEqual(names(index.roleBindingsFor(sa, 'ns2')), ['rb-sa-explicit']);
  });
  it('finds nothing in a namespace without bindings', () => {
    assert.deepEqual(names(index.roleBindingsFor(jane, 'nope')), []);
  });
  it('replaces a binding on upsert and forgets it on remove', () => {
    const i = indexOf([clusterRoleBinding('b', 'view', [user('jane')])]);
    i.upsert('ClusterRoleBinding', clusterRoleBinding('b', 'view', [user('bob')]));
    assert.deepEqual(names(i.clusterRoleBindingsFor(jane)), []);
    assert.deepEqual(names(i.clusterRoleBindingsFor({ username: 'bob', groups: [] })), ['b']);
    i.remove('ClusterRoleBinding', '', 'b');
    assert.deepEqual(names(i.clusterRoleBindingsFor({ username: 'bob', groups: [] })), []);
  });
});

describe('parseKey', () => {
  const cases: [string, ReturnType<typeof parseKey>][] = [
    ['/rbac.authorization.k8s.io/roles/ns/r', { kind: 'Role', namespace: 'ns', name: 'r' }],
    [
      '/rbac.authorization.k8s.io/clusterroles/admin',
      { kind: 'ClusterRole', namespace: '', name: 'admin' },
    ],
    [
      '/rbac.authorization.k8s.io/rolebindings/ns/b',
      { kind: 'RoleBinding', namespace: 'ns', name: 'b' },
    ],
    [
      '/rbac.authorization.k8s.io/clusterrolebindings/b',
      { kind: 'ClusterRoleBinding', namespace: '', name: 'b' },
    ],
    ['/rbac.authorization.k8s.io/roles/r', undefined],
    ['/core/pods/ns/p', undefined],
  ];
  for (const [key, want] of cases) it(key, () => assert.deepEqual(parseKey(key), want));
});

describe('PolicyIndex.fromBackend', () => {
  const write = async (backend: ReturnType<typeof createMemoryBackend>, o: KubeObject) => {
    const key = keyOf(o);
    const cur = backend.getLatest(key);
    if (cur === undefined) await backend.create(key, () => JSON.stringify(o));
    else await backend.update(key, () => JSON.stringify(o), cur.modRevision);
  };

  it('lists what is stored, then follows creates, updates and deletes', async () => {
    const backend = createMemoryBackend();
    await write(
      backend,
      clusterRole('view', [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]),
    );
    await write(backend, clusterRoleBinding('b', 'view', [user('jane')]));
    const index = PolicyIndex.fromBackend(backend);
    try {
      assert.deepEqual(names(index.clusterRoleBindingsFor(jane)), ['b']);
      assert.deepEqual(index.clusterRole('view'), [
        { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
      ]);

      await write(
        backend,
        role('ns1', 'r', [{ apiGroups: [''], resources: ['secrets'], verbs: ['list'] }]),
      );
      await write(backend, roleBinding('ns1', 'rb', { kind: 'Role', name: 'r' }, [group('devs')]));
      assert.deepEqual(index.role('ns1', 'r'), [
        { apiGroups: [''], resources: ['secrets'], verbs: ['list'] },
      ]);
      assert.deepEqual(names(index.roleBindingsFor(jane, 'ns1')), ['rb']);

      await write(backend, clusterRoleBinding('b', 'view', [user('bob')]));
      assert.deepEqual(names(index.clusterRoleBindingsFor(jane)), []);

      const key = keyOf(roleBinding('ns1', 'rb', { kind: 'Role', name: 'r' }, []));
      await backend.delete(key, backend.getLatest(key)?.modRevision ?? 0);
      assert.deepEqual(names(index.roleBindingsFor(jane, 'ns1')), []);

      const roleKey = keyOf(role('ns1', 'r', []));
      await backend.delete(roleKey, backend.getLatest(roleKey)?.modRevision ?? 0);
      assert.equal(index.role('ns1', 'r'), undefined);
    } finally {
      index.stop();
    }
  });

  it('stops following after stop()', async () => {
    const backend = createMemoryBackend();
    const index = PolicyIndex.fromBackend(backend);
    index.stop();
    await write(backend, clusterRole('view', []));
    assert.equal(index.clusterRole('view'), undefined);
  });

  it('skips a value that does not decode', async () => {
    const backend = createMemoryBackend();
    await backend.create('/rbac.authorization.k8s.io/clusterroles/bad', () => 'not json');
    const index = PolicyIndex.fromBackend(backend);
    index.stop();
    assert.equal(index.clusterRole('bad'), undefined);
    assert.equal(index.decodeErrors, 1);
  });
});
