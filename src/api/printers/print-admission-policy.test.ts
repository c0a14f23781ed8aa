import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import {
  printValidatingAdmissionPolicy,
  printValidatingAdmissionPolicyBinding,
} from './print-admission-policy.js';

const NOW = new Date('2026-01-01T00:10:00Z');
const meta = { name: 'p', creationTimestamp: '2026-01-01T00:00:00Z' };

describe('print-admission-policy', () => {
  const policies: { name: string; spec: Record<string, unknown>; cells: unknown[] }[] = [
    { name: 'no paramKind', spec: { validations: [{}, {}] }, cells: ['p', 2, '<unset>', '10m'] },
    {
      name: 'a paramKind',
      spec: { paramKind: { apiVersion: 'rules.example.com/v1', kind: 'ReplicaLimit' } },
      cells: ['p', 0, 'rules.example.com/v1/ReplicaLimit', '10m'],
    },
  ];
  for (const c of policies) {
    it(`policy: ${c.name}`, () => {
      const o: KubeObject = { metadata: meta, spec: c.spec };
      assert.deepEqual(printValidatingAdmissionPolicy(o, NOW).cells, c.cells);
    });
  }

  const bindings: { name: string; paramRef?: Record<string, unknown>; want: string }[] = [
    { name: 'no paramRef', want: '<unset>' },
    {
      name: 'by name and namespace',
      paramRef: { name: 'limits', namespace: 'ops' },
      want: 'ops/limits',
    },
    { name: 'by name, no namespace', paramRef: { name: 'limits' }, want: '*/limits' },
    {
      name: 'by selector',
      paramRef: {
        selector: {
          matchLabels: { tier: 'b', env: 'prod' },
          matchExpressions: [{ key: 'x', operator: 'In', values: ['1', '2'] }],
        },
      },
      want: '&LabelSelector{MatchLabels:map[string]string{env: prod,tier: b,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:x,Operator:In,Values:[1 2],},},}',
    },
  ];
  for (const c of bindings) {
    it(`binding: ${c.name}`, () => {
      const o: KubeObject = { metadata: meta, spec: { policyName: 'pol', paramRef: c.paramRef } };
      assert.deepEqual(printValidatingAdmissionPolicyBinding(o, NOW).cells, [
        'p',
        'pol',
        c.want,
        '10m',
      ]);
    });
  }
});
