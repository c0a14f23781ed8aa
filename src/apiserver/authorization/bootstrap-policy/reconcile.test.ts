import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { alreadyExists } from '../../../api/errors.js';
import { asKind } from '../../../api/model/index.js';
import { deepCopy, type KubeObject } from '../../../api/object.js';
import { bootstrapPolicy } from './policy.js';
import { type PolicyKind, type PolicyStore, reconcileBootstrapPolicy } from './reconcile.js';
import { AUTOUPDATE_ANNOTATION } from './rule-builder.js';

/** A map-backed store that counts writes. */
class MemoryPolicyStore implements PolicyStore {
  readonly objects = new Map<string, KubeObject>();
  writes = 0;
  static key = (kind: string, ns: string, name: string) => `${kind}/${ns}/${name}`;
  put(obj: KubeObject): void {
    const m = obj.metadata ?? {};
    this.objects.set(MemoryPolicyStore.key(obj.kind ?? '', m.namespace ?? '', m.name ?? ''), obj);
  }
  async get(kind: PolicyKind, ns: string, name: string) {
    const o = this.objects.get(MemoryPolicyStore.key(kind, ns, name));
    return o === undefined ? undefined : deepCopy(o);
  }
  async create(kind: PolicyKind, ns: string, obj: KubeObject) {
    const key = MemoryPolicyStore.key(kind, ns, obj.metadata?.name ?? '');
    if (this.objects.has(key)) {
      throw alreadyExists({ group: 'rbac.authorization.k8s.io', resource: kind }, key);
    }
    this.writes++;
    this.objects.set(key, deepCopy(obj));
  }
  async update(
    kind: PolicyKind,
    ns: string,
    name: string,
    change: (c: KubeObject) => KubeObject | undefined,
  ) {
    const current = await this.get(kind, ns, name);
    if (current === undefined) throw new Error('not found');
    const next = change(current);
    if (next === undefined) return;
    this.writes++;
    this.put(next);
  }
  async delete(kind: PolicyKind, ns: string, name: string) {
    this.writes++;
    this.objects.delete(MemoryPolicyStore.key(kind, ns, name));
  }
}

const policy = bootstrapPolicy();
const total =
  policy.clusterRoles.length +
  policy.clusterRoleBindings.length +
  policy.roles.length +
  policy.roleBindings.length;

describe('reconcileBootstrapPolicy', () => {
  it('creates every missing object, then writes nothing on a second pass', async () => {
    const store = new MemoryPolicyStore();
    const first = await reconcileBootstrapPolicy(store);
    assert.equal(first.failures.size, 0);
    assert.equal(store.objects.size, total);
    assert.equal(store.writes, total);
    const second = await reconcileBootstrapPolicy(store);
    assert.equal(store.writes, total, 'no write when everything is as expected');
    assert.ok([...second.outcomes.values()].every((o) => o === 'unchanged'));
  });

  const viewKey = MemoryPolicyStore.key('ClusterRole', '', 'system:aggregate-to-view');
  const cases: {
    name: string;
    edit: (o: KubeObject) => KubeObject;
    want: (o: KubeObject, original: KubeObject) => void;
    outcome: string;
  }[] = [
    {
      name: 'missing rules are added back (atomic), extra rules kept',
      edit: (o) => ({
        ...o,
        rules: [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get'] }],
      }),
      want: (o) => {
        const rules = asKind(o, 'ClusterRole').rules ?? [];
        assert.deepEqual(rules[0], {
          apiGroups: ['example.com'],
          resources: ['widgets'],
          verbs: ['get'],
        });
        assert.ok(rules.length > 1);
        assert.deepEqual(rules[1], { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] });
      },
      outcome: 'updated',
    },
    {
      name: 'a label, annotation and rule covered by a wildcard: only metadata added back',
      edit: (o) => ({
        ...o,
        metadata: { ...o.metadata, labels: { mine: 'x' }, annotations: {} },
        rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
      }),
      want: (o) => {
        assert.equal(o.metadata?.labels?.mine, 'x');
        assert.equal(o.metadata?.labels?.['kubernetes.io/bootstrapping'], 'rbac-defaults');
        assert.equal(o.metadata?.annotations?.[AUTOUPDATE_ANNOTATION], 'true');
        assert.deepEqual(o.rules, [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]);
      },
      outcome: 'updated',
    },
    {
      name: 'autoupdate "false": left exactly as it is',
      edit: (o) => ({
        ...o,
        metadata: { ...o.metadata, annotations: { [AUTOUPDATE_ANNOTATION]: 'false' } },
        rules: [],
      }),
      want: (o, edited) => assert.deepEqual(o, edited),
      outcome: 'protected',
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const store = new MemoryPolicyStore();
      await reconcileBootstrapPolicy(store);
      const original = store.objects.get(viewKey);
      assert.ok(original);
      const edited = c.edit(deepCopy(original));
      store.objects.set(viewKey, edited);
      const writes = store.writes;
      const result = await reconcileBootstrapPolicy(store);
      assert.equal(result.outcomes.get('ClusterRole system:aggregate-to-view'), c.outcome);
      c.want(store.objects.get(viewKey) as KubeObject, edited);
      assert.equal(store.writes - writes, c.outcome === 'protected' ? 0 : 1);
    });
  }

  it('adds missing subjects and aggregation selectors, keeps extra ones', async () => {
    const store = new MemoryPolicyStore();
    await reconcileBootstrapPolicy(store);
    const bKey = MemoryPolicyStore.key('ClusterRoleBinding', '', 'system:basic-user');
    const extra = { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' };
    store.put({ ...(store.objects.get(bKey) as KubeObject), subjects: [extra] });
    const aKey = MemoryPolicyStore.key('ClusterRole', '', 'admin');
    const mine = { matchLabels: { team: 'a' } };
    store.put({
      ...(store.objects.get(aKey) as KubeObject),
      aggregationRule: { clusterRoleSelectors: [mine] },
    });
    await reconcileBootstrapPolicy(store);
    assert.deepEqual(store.objects.get(bKey)?.subjects, [
      extra,
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:authenticated' },
    ]);
    assert.deepEqual(store.objects.get(aKey)?.aggregationRule, {
      clusterRoleSelectors: [
        mine,
        { matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } },
      ],
    });
  });

  it('recreates a binding whose roleRef differs', async () => {
    const store = new MemoryPolicyStore();
    await reconcileBootstrapPolicy(store);
    const key = MemoryPolicyStore.key('ClusterRoleBinding', '', 'cluster-admin');
    const b = store.objects.get(key) as KubeObject;
    store.put({
      ...b,
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    });
    const result = await reconcileBootstrapPolicy(store);
    assert.equal(result.outcomes.get('ClusterRoleBinding cluster-admin'), 'recreated');
    assert.equal(
      asKind(store.objects.get(key), 'ClusterRoleBinding').roleRef.name,
      'cluster-admin',
    );
  });

  it('reports a failing object and still writes the others', async () => {
    const store = new MemoryPolicyStore();
    const create = store.create.bind(store);
    store.create = async (kind, ns, obj) => {
      if (kind === 'Role') throw new Error('namespace kube-system not found');
      return create(kind, ns, obj);
    };
    const errors: string[] = [];
    const result = await reconcileBootstrapPolicy(store, { onError: (m) => errors.push(m) });
    assert.equal(result.failures.size, policy.roles.length);
    assert.equal(errors.length, policy.roles.length);
    assert.equal(store.objects.size, total - policy.roles.length);
  });
});
