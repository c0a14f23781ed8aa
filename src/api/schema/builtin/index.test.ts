import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Schema } from '../types.js';
import { type BuiltinSchemas, loadBuiltinSchemas } from './index.js';

let builtin: BuiltinSchemas;
before(async () => {
  builtin = await loadBuiltinSchemas();
});

const SERVED: readonly [group: string, version: string, kind: string][] = [
  ['', 'v1', 'Namespace'],
  ['', 'v1', 'Pod'],
  ['', 'v1', 'Service'],
  ['', 'v1', 'Endpoints'],
  ['', 'v1', 'ConfigMap'],
  ['', 'v1', 'Secret'],
  ['', 'v1', 'ServiceAccount'],
  ['', 'v1', 'Event'],
  ['', 'v1', 'Node'],
  ['', 'v1', 'PersistentVolumeClaim'],
  ['', 'v1', 'PersistentVolume'],
  ['events.k8s.io', 'v1', 'Event'],
  ['apps', 'v1', 'Deployment'],
  ['apps', 'v1', 'ReplicaSet'],
  ['apps', 'v1', 'StatefulSet'],
  ['apps', 'v1', 'ControllerRevision'],
  ['storage.k8s.io', 'v1', 'StorageClass'],
  ['coordination.k8s.io', 'v1', 'Lease'],
  ['policy', 'v1', 'PodDisruptionBudget'],
  ['networking.k8s.io', 'v1', 'NetworkPolicy'],
  ['apiextensions.k8s.io', 'v1', 'CustomResourceDefinition'],
];

describe('loadBuiltinSchemas', () => {
  it('loads once', async () => {
    assert.equal(await loadBuiltinSchemas(), builtin);
  });

  for (const [group, version, kind] of SERVED) {
    it(`resolves ${group || 'core'}/${version} ${kind} and its List`, () => {
      for (const k of [kind, `${kind}List`]) {
        const schema = builtin.schemaFor({ group, version, kind: k });
        assert.ok(schema?.properties, k);
        assert.ok(builtin.navigator.property(schema, 'metadata'), `${k}.metadata`);
        assert.deepEqual(schema['x-kubernetes-group-version-kind'], [{ group, kind: k, version }]);
      }
    });
  }

  it('names upstream definitions', () => {
    assert.equal(
      builtin.nameOf({ group: 'apps', version: 'v1', kind: 'Deployment' }),
      'io.k8s.api.apps.v1.Deployment',
    );
    assert.equal(
      builtin.nameOf({ group: 'events.k8s.io', version: 'v1', kind: 'Event' }),
      'io.k8s.api.events.v1.Event',
    );
    assert.equal(
      builtin.nameOf({ group: 'autoscaling', version: 'v1', kind: 'Scale' }),
      'io.k8s.api.autoscaling.v1.Scale',
    );
    assert.equal(builtin.nameOf({ group: 'apps', version: 'v1', kind: 'DaemonSet' }), undefined);
  });

  it('resolves every $ref in the file', () => {
    const missing: string[] = [];
    const visit = (s: Schema | boolean | undefined, at: string): void => {
      if (s === undefined || typeof s === 'boolean') return;
      if (s.$ref !== undefined && !builtin.navigator.component(s.$ref)) missing.push(`${at}`);
      for (const [k, p] of Object.entries(s.properties ?? {})) visit(p, `${at}.${k}`);
      visit(s.items, `${at}[]`);
      visit(s.additionalProperties, `${at}{}`);
      for (const sub of s.allOf ?? []) visit(sub, at);
    };
    for (const [name, schema] of Object.entries(builtin.components)) visit(schema, name);
    assert.deepEqual(missing, []);
  });
});

/** Walks `path` (dot-separated; `[]` steps into items) from a kind's root. */
function at(kind: [string, string, string], path: string): Schema | undefined {
  const [group, version, k] = kind;
  let s: Schema | undefined = builtin.schemaFor({ group, version, kind: k });
  for (const step of path.split('.')) {
    if (step === '[]') s = builtin.navigator.items(s);
    else s = builtin.navigator.property(s, step);
  }
  return s;
}

const POD: [string, string, string] = ['', 'v1', 'Pod'];
const DEPLOY: [string, string, string] = ['apps', 'v1', 'Deployment'];
const SVC: [string, string, string] = ['', 'v1', 'Service'];

describe('list semantics (upstream openapi-spec v3)', () => {
  const cases: [string, [string, string, string], string, string | undefined, string, string[]][] =
    [
      // [name, kind, path, mergeKey, strategy, listMapKeys]
      ['containers', POD, 'spec.containers', 'name', 'merge', ['name']],
      ['initContainers', POD, 'spec.initContainers', 'name', 'merge', ['name']],
      ['ephemeralContainers', POD, 'spec.ephemeralContainers', 'name', 'merge', ['name']],
      [
        'container ports',
        POD,
        'spec.containers.[].ports',
        'containerPort',
        'merge',
        ['containerPort', 'protocol'],
      ],
      ['env', POD, 'spec.containers.[].env', 'name', 'merge', ['name']],
      ['volumeMounts', POD, 'spec.containers.[].volumeMounts', 'mountPath', 'merge', ['mountPath']],
      ['volumes', POD, 'spec.volumes', 'name', 'merge,retainKeys', ['name']],
      ['pod conditions', POD, 'status.conditions', 'type', 'merge', ['type']],
      ['podIPs', POD, 'status.podIPs', 'ip', 'merge', ['ip']],
      ['ownerReferences', POD, 'metadata.ownerReferences', 'uid', 'merge', ['uid']],
      ['template containers', DEPLOY, 'spec.template.spec.containers', 'name', 'merge', ['name']],
      ['deployment conditions', DEPLOY, 'status.conditions', 'type', 'merge', ['type']],
      ['service ports', SVC, 'spec.ports', 'port', 'merge', ['port', 'protocol']],
    ];
  for (const [name, kind, path, mergeKey, strategy, keys] of cases) {
    it(name, () => {
      const ls = builtin.navigator.listSemantics(at(kind, path));
      assert.equal(ls.listType, 'map');
      assert.deepEqual(ls.mapKeys, keys);
      assert.equal(ls.patchMergeKey, mergeKey);
      assert.equal(ls.patchMerge, strategy.includes('merge'));
      assert.equal(ls.patchRetainKeys, strategy.includes('retainKeys'));
    });
  }

  const other: [string, [string, string, string], string, Schema][] = [
    [
      'finalizers',
      POD,
      'metadata.finalizers',
      { 'x-kubernetes-list-type': 'set', 'x-kubernetes-patch-strategy': 'merge' },
    ],
    ['tolerations', POD, 'spec.tolerations', { 'x-kubernetes-list-type': 'atomic' }],
    ['args', POD, 'spec.containers.[].args', { 'x-kubernetes-list-type': 'atomic' }],
    [
      'deployment strategy',
      DEPLOY,
      'spec.strategy',
      { 'x-kubernetes-patch-strategy': 'retainKeys' },
    ],
    ['nodeSelector', POD, 'spec.nodeSelector', { 'x-kubernetes-map-type': 'atomic' }],
    ['selector', DEPLOY, 'spec.selector', { 'x-kubernetes-map-type': 'atomic' }],
    ['service selector', SVC, 'spec.selector', { 'x-kubernetes-map-type': 'atomic' }],
  ];
  for (const [name, kind, path, expected] of other) {
    it(name, () => {
      const own = at(kind, path);
      const merged = { ...builtin.navigator.resolve(own), ...own } as Record<string, unknown>;
      for (const [k, v] of Object.entries(expected)) assert.deepEqual(merged[k], v, k);
    });
  }

  it('int-or-string and quantity', () => {
    const port = builtin.navigator.resolve(at(SVC, 'spec.ports.[].targetPort'));
    assert.equal(port?.['x-kubernetes-int-or-string'], true);
    assert.equal(port?.format, 'int-or-string');
    const cpu = builtin.navigator.resolve(at(POD, 'spec.containers.[].resources.limits.cpu'));
    assert.deepEqual(cpu?.oneOf, [{ type: 'string' }, { type: 'number' }]);
  });
});
