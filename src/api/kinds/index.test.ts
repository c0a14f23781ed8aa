import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '../../util/clock.js';
import { apiVersionOf } from '../resource.js';
import { simulateCreate } from './harness.js';
import { builtinResources, createBuiltinResources } from './index.js';

/** group/plural → [kind, shortNames, namespaced, nameValidation, generation, status, all] */
const EXPECTED: Record<string, [string, string[], boolean, string, string, boolean, boolean]> = {
  '/namespaces': ['Namespace', ['ns'], false, 'dns-label', 'none', true, false],
  '/pods': ['Pod', ['po'], true, 'dns-subdomain', 'spec', true, true],
  '/services': ['Service', ['svc'], true, 'dns-label', 'none', true, true],
  '/endpoints': ['Endpoints', ['ep'], true, 'dns-subdomain', 'none', false, false],
  '/configmaps': ['ConfigMap', ['cm'], true, 'dns-subdomain', 'none', false, false],
  '/secrets': ['Secret', [], true, 'dns-subdomain', 'none', false, false],
  '/serviceaccounts': ['ServiceAccount', ['sa'], true, 'dns-subdomain', 'none', false, false],
  '/events': ['Event', ['ev'], true, 'path-segment', 'none', false, false],
  '/nodes': ['Node', ['no'], false, 'dns-subdomain', 'none', true, false],
  '/persistentvolumeclaims': [
    'PersistentVolumeClaim',
    ['pvc'],
    true,
    'dns-subdomain',
    'none',
    true,
    false,
  ],
  '/persistentvolumes': ['PersistentVolume', ['pv'], false, 'dns-subdomain', 'none', true, false],
  '/resourcequotas': ['ResourceQuota', ['quota'], true, 'dns-subdomain', 'none', true, false],
  '/limitranges': ['LimitRange', ['limits'], true, 'dns-subdomain', 'none', false, false],
  'discovery.k8s.io/endpointslices': [
    'EndpointSlice',
    [],
    true,
    'dns-subdomain',
    'spec',
    false,
    false,
  ],
  'events.k8s.io/events': ['Event', ['ev'], true, 'dns-subdomain', 'none', false, false],
  'apps/deployments': [
    'Deployment',
    ['deploy'],
    true,
    'dns-subdomain',
    'spec-and-annotations',
    true,
    true,
  ],
  'apps/replicasets': ['ReplicaSet', ['rs'], true, 'dns-subdomain', 'spec', true, true],
  'apps/statefulsets': ['StatefulSet', ['sts'], true, 'dns-label', 'spec', true, true],
  'apps/controllerrevisions': [
    'ControllerRevision',
    [],
    true,
    'dns-subdomain',
    'none',
    false,
    false,
  ],
  'storage.k8s.io/storageclasses': [
    'StorageClass',
    ['sc'],
    false,
    'dns-subdomain',
    'none',
    false,
    false,
  ],
  'coordination.k8s.io/leases': ['Lease', [], true, 'dns-subdomain', 'none', false, false],
  'policy/poddisruptionbudgets': [
    'PodDisruptionBudget',
    ['pdb'],
    true,
    'dns-subdomain',
    'spec',
    true,
    false,
  ],
  'networking.k8s.io/networkpolicies': [
    'NetworkPolicy',
    ['netpol'],
    true,
    'dns-subdomain',
    'spec',
    false,
    false,
  ],
  'rbac.authorization.k8s.io/roles': ['Role', [], true, 'path-segment', 'none', false, false],
  'rbac.authorization.k8s.io/clusterroles': [
    'ClusterRole',
    [],
    false,
    'path-segment',
    'none',
    false,
    false,
  ],
  'rbac.authorization.k8s.io/rolebindings': [
    'RoleBinding',
    [],
    true,
    'path-segment',
    'none',
    false,
    false,
  ],
  'rbac.authorization.k8s.io/clusterrolebindings': [
    'ClusterRoleBinding',
    [],
    false,
    'path-segment',
    'none',
    false,
    false,
  ],
};

describe('builtinResources', () => {
  it('serves exactly the expected resources with upstream names and settings', () => {
    const seen = builtinResources.map((d) => `${d.group}/${d.plural}`).sort();
    assert.deepEqual(seen, Object.keys(EXPECTED).sort());
    for (const d of builtinResources) {
      const [kind, shortNames, namespaced, nameValidation, generation, status, all] =
        EXPECTED[`${d.group}/${d.plural}`] ?? [];
      assert.equal(d.kind, kind, d.plural);
      assert.deepEqual([...(d.shortNames ?? [])], shortNames, d.plural);
      assert.equal(d.namespaced, namespaced, d.plural);
      assert.equal(d.nameValidation, nameValidation, d.plural);
      assert.equal(d.generation, generation, d.plural);
      assert.equal(d.statusSubresource, status, d.plural);
      assert.deepEqual([...(d.categories ?? [])], all ? ['all'] : [], d.plural);
    }
  });

  it('has consistent names', () => {
    for (const d of builtinResources) {
      assert.equal(d.version, 'v1');
      assert.equal(d.listKind, `${d.kind}List`);
      assert.equal(d.singular, d.kind.toLowerCase());
      assert.match(d.plural, /^[a-z]+$/);
      assert.ok(d.plural.startsWith(d.singular.replace(/y$/, '')), d.plural);
      for (const s of d.shortNames ?? []) assert.match(s, /^[a-z]+$/);
    }
    const paths = builtinResources.map((d) => `${apiVersionOf(d)}/${d.plural}`);
    assert.equal(new Set(paths).size, paths.length);
    // Short names are unique, except that both Event APIs answer to `ev`, as upstream.
    const owners = new Map<string, Set<string>>();
    for (const d of builtinResources)
      for (const s of d.shortNames ?? []) owners.set(s, (owners.get(s) ?? new Set()).add(d.plural));
    for (const [s, plurals] of owners) assert.equal(plurals.size, 1, s);
  });

  it('gives the apps workloads a scale subresource and nothing else', () => {
    for (const d of builtinResources) {
      const workload = d.group === 'apps' && d.kind !== 'ControllerRevision';
      assert.equal(d.scale !== undefined, workload, d.plural);
      if (workload)
        assert.deepEqual(d.scale, {
          specReplicasPath: 'spec.replicas',
          statusReplicasPath: 'status.replicas',
          labelSelectorPath: 'spec.selector',
        });
    }
  });

  it('names every selectable field even for an empty object', () => {
    const fields = (kind: string, group = '') =>
      Object.keys(
        builtinResources
          .find((d) => d.kind === kind && d.group === group)
          ?.strategy.selectableFields?.({}) ?? {},
      );
    assert.deepEqual(fields('Pod'), [
      'spec.nodeName',
      'spec.restartPolicy',
      'spec.schedulerName',
      'spec.serviceAccountName',
      'spec.hostNetwork',
      'status.phase',
      'status.podIP',
      'status.podIPs',
      'status.nominatedNodeName',
    ]);
    assert.deepEqual(fields('Secret'), ['type']);
    assert.deepEqual(fields('Namespace'), ['status.phase']);
    assert.deepEqual(fields('ReplicaSet', 'apps'), ['status.replicas']);
    assert.deepEqual(fields('Node'), ['spec.unschedulable']);
    assert.deepEqual(fields('Event').sort(), [
      'involvedObject.apiVersion',
      'involvedObject.fieldPath',
      'involvedObject.kind',
      'involvedObject.name',
      'involvedObject.namespace',
      'involvedObject.resourceVersion',
      'involvedObject.uid',
      'reason',
      'reportingComponent',
      'source',
      'type',
    ]);
    assert.deepEqual(fields('Event', 'events.k8s.io').sort(), [
      'reason',
      'regarding.apiVersion',
      'regarding.fieldPath',
      'regarding.kind',
      'regarding.name',
      'regarding.namespace',
      'regarding.resourceVersion',
      'regarding.uid',
      'reportingController',
      'source',
      'type',
    ]);
  });

  it('survives empty and odd objects in every hook', () => {
    for (const d of builtinResources) {
      for (const input of [
        {},
        { spec: 'x', status: 1, metadata: { name: 'a', namespace: 'b' } },
        { spec: { template: 3 } },
      ]) {
        const out = simulateCreate(d, input as never);
        assert.ok(Array.isArray(out.errors), d.plural);
        d.strategy.validateUpdate?.(out.object, out.object);
        d.strategy.selectableFields?.(out.object);
      }
    }
  });

  it('stamps PersistentVolume phase transitions with the injected clock', () => {
    const clock = new FakeClock(Date.UTC(2026, 2, 4, 5, 6, 7, 800));
    const pv = createBuiltinResources({ clock }).find((d) => d.kind === 'PersistentVolume');
    assert.ok(pv);
    const obj = { metadata: { name: 'pv1' } };
    pv.strategy.prepareForCreate?.(obj);
    assert.deepEqual((obj as { status?: unknown }).status, {
      phase: 'Pending',
      lastPhaseTransitionTime: '2026-03-04T05:06:07Z',
    });
  });
});
