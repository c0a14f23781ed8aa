import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { leaseResource, storageClassResource } from './cluster-kinds.js';
import { simulateCreate, simulateUpdate } from './harness.js';
import { networkPolicyResource, podDisruptionBudgetResource } from './policy-networking.js';

type Spec = Record<string, unknown>;
const meta = { name: 'x', namespace: 'default' };

describe('PodDisruptionBudget', () => {
  const pdb = (spec: Spec): KubeObject => ({
    metadata: meta,
    spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
  });
  it('starts with the non-omitempty status counters', () => {
    const { object, errors } = simulateCreate(
      podDisruptionBudgetResource,
      pdb({ minAvailable: 1 }),
    );
    assert.deepEqual(errors, []);
    assert.deepEqual(object.status, {
      disruptionsAllowed: 0,
      currentHealthy: 0,
      desiredHealthy: 0,
      expectedPods: 0,
    });
  });
  const cases: [string, Spec, string[]][] = [
    [
      'not both bounds',
      { minAvailable: 1, maxUnavailable: 1 },
      [
        'spec: Invalid value: {"selector":{"matchLabels":{"app":"web"}},"minAvailable":1,"maxUnavailable":1}: minAvailable and maxUnavailable cannot be both set',
      ],
    ],
    [
      'percent above 100',
      { maxUnavailable: '150%' },
      ['spec.maxUnavailable: Invalid value: "150%": must not be greater than 100%'],
    ],
    [
      'negative',
      { minAvailable: -1 },
      ['spec.minAvailable: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'eviction policy',
      { minAvailable: 1, unhealthyPodEvictionPolicy: 'Never' },
      [
        'spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"',
      ],
    ],
  ];
  for (const [name, spec, want] of cases)
    it(name, () =>
      assert.deepEqual(simulateCreate(podDisruptionBudgetResource, pdb(spec)).messages, want),
    );
});

describe('NetworkPolicy', () => {
  it('defaults policyTypes and port protocols', () => {
    const ingressOnly = simulateCreate(networkPolicyResource, {
      metadata: meta,
      spec: { ingress: [{ ports: [{ port: 80 }] }] },
    });
    assert.deepEqual(ingressOnly.errors, []);
    assert.deepEqual(ingressOnly.object.spec, {
      ingress: [{ ports: [{ port: 80, protocol: 'TCP' }] }],
      podSelector: {},
      policyTypes: ['Ingress'],
    });
    const both = simulateCreate(networkPolicyResource, { metadata: meta, spec: { egress: [{}] } });
    assert.deepEqual((both.object.spec as Spec).policyTypes, ['Ingress', 'Egress']);
  });
  it('validates peers, ports and policy types', () => {
    const spec = {
      podSelector: {},
      ingress: [
        {
          from: [{}, { ipBlock: { cidr: '10.0.0.0/8', except: ['11.0.0.0/16'] }, podSelector: {} }],
          ports: [{ port: 'http', endPort: 90 }],
        },
      ],
      policyTypes: ['Ingress', 'Sideways'],
    };
    assert.deepEqual(simulateCreate(networkPolicyResource, { metadata: meta, spec }).messages, [
      'spec.ingress[0].ports[0].endPort: Invalid value: 90: may not be specified when `port` is non-numeric',
      'spec.ingress[0].from[0]: Required value: must specify a peer',
      'spec.ingress[0].from[1].ipBlock.except[0]: Invalid value: "11.0.0.0/16": must be a strict subset of `cidr`',
      'spec.ingress[0].from[1]: Forbidden: may not specify both ipBlock and another peer',
      'spec.policyTypes[1]: Unsupported value: "Sideways": supported values: "Ingress", "Egress"',
    ]);
  });
});

describe('StorageClass', () => {
  const sc = (extra: Spec = {}): KubeObject => ({
    metadata: { name: 'fast' },
    provisioner: 'csi.example.com',
    ...extra,
  });
  it('defaults reclaim policy and binding mode', () => {
    const { object, errors } = simulateCreate(storageClassResource, sc());
    assert.deepEqual(errors, []);
    assert.equal(object.reclaimPolicy, 'Delete');
    assert.equal(object.volumeBindingMode, 'Immediate');
  });
  it('validates the provisioner and modes', () => {
    assert.deepEqual(
      simulateCreate(storageClassResource, sc({ provisioner: '', volumeBindingMode: 'Later' }))
        .messages,
      [
        'provisioner: Required value',
        'volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"',
      ],
    );
  });
  it('forbids changing what provisioning depends on', () => {
    const stored = simulateCreate(storageClassResource, sc({ parameters: { type: 'ssd' } })).object;
    const next = {
      ...stored,
      parameters: { type: 'hdd' },
      provisioner: 'other.example.com',
      volumeBindingMode: 'WaitForFirstConsumer',
    };
    assert.deepEqual(simulateUpdate(storageClassResource, next, stored).messages, [
      'parameters: Forbidden: updates to parameters are forbidden.',
      'provisioner: Forbidden: updates to provisioner are forbidden.',
      'volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable',
    ]);
    assert.deepEqual(
      simulateUpdate(storageClassResource, { ...stored, allowVolumeExpansion: true }, stored)
        .messages,
      [],
    );
  });
});

describe('Lease', () => {
  it('checks durations and transitions', () => {
    const lease = {
      metadata: { name: 'node-1', namespace: 'kube-node-lease' },
      spec: { holderIdentity: 'node-1', leaseDurationSeconds: 40 },
    };
    assert.deepEqual(simulateCreate(leaseResource, lease).messages, []);
    assert.deepEqual(
      simulateCreate(leaseResource, {
        ...lease,
        spec: { leaseDurationSeconds: 0, leaseTransitions: -1 },
      }).messages,
      [
        'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
        'spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0',
      ],
    );
  });
});
