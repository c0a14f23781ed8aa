import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { namespaceResource } from './core-namespace.js';
import { nodeResource } from './core-node.js';
import { simulateCreate, simulateUpdate } from './harness.js';

describe('Namespace', () => {
  it('labels itself, starts Active and holds the kubernetes finalizer', () => {
    const { object, errors } = simulateCreate(namespaceResource, {
      metadata: { name: 'team-a' },
      status: { phase: 'Terminating' },
    });
    assert.deepEqual(errors, []);
    assert.deepEqual(object.metadata?.labels, { 'kubernetes.io/metadata.name': 'team-a' });
    assert.deepEqual(object.spec, { finalizers: ['kubernetes'] });
    assert.deepEqual(object.status, { phase: 'Active' });
    assert.deepEqual(namespaceResource.strategy.selectableFields?.(object), {
      'status.phase': 'Active',
    });
  });

  it('keeps extra finalizers and adds kubernetes once', () => {
    const { object } = simulateCreate(namespaceResource, {
      metadata: { name: 'a' },
      spec: { finalizers: ['example.com/x', 'kubernetes'] },
    });
    assert.deepEqual(object.spec, { finalizers: ['example.com/x', 'kubernetes'] });
  });

  const cases: [string, Record<string, unknown>, string[]][] = [
    [
      'DNS label names',
      { metadata: { name: 'team.a' } },
      ['metadata.name: Invalid value: "team.a": must not contain dots'],
    ],
    [
      'spec finalizers',
      { metadata: { name: 'a' }, spec: { finalizers: ['custom'] } },
      [
        'spec.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
      ],
    ],
    [
      'metadata finalizers of built-in kinds',
      { metadata: { name: 'a', finalizers: ['custom'] } },
      [
        'metadata.finalizers[0]: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
      ],
    ],
  ];
  for (const [name, input, want] of cases) {
    it(name, () => assert.deepEqual(simulateCreate(namespaceResource, input).messages, want));
  }
});

describe('Node', () => {
  const node = {
    metadata: { name: 'node-1' },
    spec: { podCIDR: '10.244.1.0/24' },
    status: { capacity: { cpu: 4, memory: '8Gi', pods: '110' } },
  };
  it('keeps its status on create and defaults allocatable to capacity', () => {
    const { object, errors } = simulateCreate(nodeResource, node);
    assert.deepEqual(errors, []);
    assert.deepEqual(object.status, {
      capacity: { cpu: '4', memory: '8Gi', pods: '110' },
      allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
    });
    assert.deepEqual(object.spec, { podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'] });
    assert.deepEqual(nodeResource.strategy.selectableFields?.(object), {
      'spec.unschedulable': 'false',
    });
    assert.deepEqual(nodeResource.strategy.selectableFields?.({ spec: { unschedulable: true } }), {
      'spec.unschedulable': 'true',
    });
  });

  it('validates taints', () => {
    const taints = [
      { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
      { key: 'dedicated', value: 'other', effect: 'NoSchedule' },
      { key: 'x', effect: 'Sometimes' },
    ];
    assert.deepEqual(
      simulateCreate(nodeResource, { metadata: { name: 'n' }, spec: { taints } }).messages,
      [
        'spec.taints[1]: Duplicate value: {"key":"dedicated","value":"other","effect":"NoSchedule"}: taints must be unique by key and effect pair',
        'spec.taints[2].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      ],
    );
  });

  it('sets pod CIDRs and provider IDs only once', () => {
    const stored = simulateCreate(nodeResource, {
      ...node,
      spec: { ...node.spec, providerID: 'sim://1' },
    }).object;
    const next = structuredClone(stored);
    next.spec = { podCIDRs: ['10.244.2.0/24'], providerID: 'sim://2' };
    assert.deepEqual(simulateUpdate(nodeResource, next, stored).messages, [
      'spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid',
      'spec.providerID: Forbidden: node updates may not change providerID except from "" to valid',
    ]);
  });
});
