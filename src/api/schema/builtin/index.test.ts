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
    assert.equal(
      builtin.nameOf({ group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' }),
      'io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler',
    );
    assert.equal(builtin.nameOf({ group: 'apps', version: 'v1', kind: 'Frobnicator' }), undefined);
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

/** Every `x-kubernetes-*` key on a schema, without resolving `$ref`. */
function extensions(s: Schema | undefined): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(s ?? {}).filter(
      ([k]) => k.startsWith('x-kubernetes-') && k !== 'x-kubernetes-group-version-kind',
    ),
  );
}

const C = 'io.k8s.api.core.v1.';
const M = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const A = 'io.k8s.api.apps.v1.';
const X = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.';
const ATOMIC = { 'x-kubernetes-list-type': 'atomic' };
const MERGE_MAP = (key: string, keys = [key], strategy = 'merge') => ({
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': keys,
  'x-kubernetes-patch-merge-key': key,
  'x-kubernetes-patch-strategy': strategy,
});
const CONDITIONS = MERGE_MAP('type');

describe('list semantics match upstream v1.33 markers exactly', () => {
  // [definition, property, every x-kubernetes-* extension upstream's OpenAPI carries]
  const cases: [string, string, Record<string, unknown>][] = [
    [`${C}PodSpec`, 'containers', MERGE_MAP('name')],
    [`${C}PodSpec`, 'initContainers', MERGE_MAP('name')],
    [`${C}PodSpec`, 'volumes', MERGE_MAP('name', ['name'], 'merge,retainKeys')],
    [`${C}PodSpec`, 'tolerations', ATOMIC],
    [`${C}PodSpec`, 'imagePullSecrets', MERGE_MAP('name')],
    [`${C}PodSpec`, 'hostAliases', MERGE_MAP('ip')],
    [
      `${C}PodSpec`,
      'topologySpreadConstraints',
      MERGE_MAP('topologyKey', ['topologyKey', 'whenUnsatisfiable']),
    ],
    [`${C}PodSpec`, 'nodeSelector', { 'x-kubernetes-map-type': 'atomic' }],
    [`${C}Container`, 'ports', MERGE_MAP('containerPort', ['containerPort', 'protocol'])],
    [`${C}Container`, 'env', MERGE_MAP('name')],
    [`${C}Container`, 'envFrom', ATOMIC],
    [`${C}Container`, 'volumeMounts', MERGE_MAP('mountPath')],
    [`${C}Container`, 'volumeDevices', MERGE_MAP('devicePath')],
    [`${C}ServiceSpec`, 'ports', MERGE_MAP('port', ['port', 'protocol'])],
    [`${C}ServiceSpec`, 'selector', { 'x-kubernetes-map-type': 'atomic' }],
    [
      `${M}ObjectMeta`,
      'finalizers',
      { 'x-kubernetes-list-type': 'set', 'x-kubernetes-patch-strategy': 'merge' },
    ],
    [`${M}ObjectMeta`, 'ownerReferences', MERGE_MAP('uid')],
    [`${M}ObjectMeta`, 'managedFields', ATOMIC],
    [`${M}ObjectMeta`, 'labels', {}],
    [`${C}PodStatus`, 'conditions', CONDITIONS],
    [`${C}PodStatus`, 'podIPs', MERGE_MAP('ip')],
    [
      `${C}PodStatus`,
      'hostIPs',
      { ...ATOMIC, 'x-kubernetes-patch-merge-key': 'ip', 'x-kubernetes-patch-strategy': 'merge' },
    ],
    [`${C}PodStatus`, 'containerStatuses', ATOMIC],
    [`${A}DeploymentStatus`, 'conditions', CONDITIONS],
    [`${A}ReplicaSetStatus`, 'conditions', CONDITIONS],
    [`${A}StatefulSetStatus`, 'conditions', CONDITIONS],
    [`${C}PersistentVolumeClaimStatus`, 'conditions', CONDITIONS],
    [`${C}NodeStatus`, 'conditions', CONDITIONS],
    [`${C}NodeStatus`, 'addresses', MERGE_MAP('type')],
    ['io.k8s.api.policy.v1.PodDisruptionBudgetStatus', 'conditions', CONDITIONS],
    // CRD conditions are a map without a strategic-merge-patch strategy.
    [
      `${X}CustomResourceDefinitionStatus`,
      'conditions',
      { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] },
    ],
    [`${A}DeploymentSpec`, 'strategy', { 'x-kubernetes-patch-strategy': 'retainKeys' }],
    [`${A}StatefulSetSpec`, 'volumeClaimTemplates', ATOMIC],
    [`${M}LabelSelector`, 'matchExpressions', ATOMIC],
    [`${M}LabelSelector`, 'matchLabels', {}],
    [`${C}NodeSelector`, 'nodeSelectorTerms', ATOMIC],
    [`${C}PersistentVolumeClaimSpec`, 'accessModes', ATOMIC],
    [`${C}Endpoints`, 'subsets', ATOMIC],
    [`${C}EndpointSubset`, 'addresses', ATOMIC],
    ['io.k8s.api.networking.v1.NetworkPolicySpec', 'ingress', ATOMIC],
    ['io.k8s.api.networking.v1.NetworkPolicySpec', 'egress', ATOMIC],
  ];
  for (const [def, prop, expected] of cases) {
    it(`${def.split('.').pop()}.${prop}`, () => {
      const schema = builtin.components[def];
      assert.ok(schema?.properties?.[prop], `${def}.${prop} exists`);
      assert.deepEqual(extensions(schema.properties[prop]), expected);
    });
  }

  // +structType=atomic on the definition itself; granular structs carry nothing.
  const structs: [string, boolean][] = [
    [`${M}LabelSelector`, true],
    [`${C}NodeSelector`, true],
    [`${C}NodeSelectorTerm`, true],
    [`${C}LocalObjectReference`, true],
    [`${C}ObjectReference`, true],
    [`${M}OwnerReference`, true],
    [`${C}EndpointAddress`, true],
    [`${C}PodSpec`, false],
    [`${C}Toleration`, false],
    [`${A}DeploymentStrategy`, false],
  ];
  for (const [def, atomic] of structs) {
    it(`${def.split('.').pop()} is ${atomic ? 'atomic' : 'granular'}`, () => {
      const schema = builtin.components[def];
      assert.ok(schema, def);
      assert.equal(schema['x-kubernetes-map-type'], atomic ? 'atomic' : undefined);
    });
  }
});
