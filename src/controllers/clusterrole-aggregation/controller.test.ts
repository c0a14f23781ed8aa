import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asKind } from '../../api/model/index.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { clusterRoleAggregationController } from './controller.js';

const CLUSTER_ROLES = { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'clusterroles' };
const ref = (name: string) => ({ ...CLUSTER_ROLES, name });
const LABEL = 'example.com/aggregate-to-team';
const rule = (resource: string) => ({
  apiGroups: ['example.com'],
  resources: [resource],
  verbs: ['get'],
});

describe('clusterrole-aggregation-controller', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    h.run(clusterRoleAggregationController());
  });
  after(async () => {
    await h.close();
  });

  const rulesOf = async (name: string) => {
    const obj = await h.get(ref(name));
    return obj === undefined ? undefined : (asKind(obj, 'ClusterRole').rules ?? []);
  };

  it('fills an aggregated role, follows label changes and deletions, and deletions', async () => {
    await h.client.create(CLUSTER_ROLES, {
      metadata: { name: 'team' },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [LABEL]: 'true' } }] },
    });
    await h.client.create(CLUSTER_ROLES, {
      metadata: { name: 'team-widgets', labels: { [LABEL]: 'true' } },
      rules: [rule('widgets')],
    });
    await h.client.create(CLUSTER_ROLES, {
      metadata: { name: 'team-gadgets', labels: { [LABEL]: 'true' } },
      rules: [rule('gadgets'), rule('widgets')],
    });
    // Sorted by name: team-gadgets first; the duplicate widgets rule once.
    await eventually(async () => {
      const rules = await rulesOf('team');
      return JSON.stringify(rules) === JSON.stringify([rule('gadgets'), rule('widgets')]);
    });

    const settled = await h.get(ref('team'));
    // A change that leaves the union as it is, then one that shrinks it.
    const widgets = await h.client.get(ref('team-widgets'));
    await h.client.update(ref('team-widgets'), {
      ...widgets,
      metadata: { ...widgets.metadata, annotations: { touched: 'yes' } },
    });
    await h.client.delete(ref('team-gadgets'));
    await eventually(async () => {
      const rules = await rulesOf('team');
      return JSON.stringify(rules) === JSON.stringify([rule('widgets')]);
    });
    const after = await h.get(ref('team'));
    assert.notEqual(after?.metadata?.resourceVersion, settled?.metadata?.resourceVersion);
  });
});
