/**
 * Pod spec updates on scheduling-gated pods: the nodeSelector may gain entries while a gate is
 * present (upstream's mutable scheduling directives), so a controller can pin a pod's zone
 * before it removes the gate; a changed or removed entry, or any change once ungated, is refused.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validatePodSpecUpdate } from './pod-update.js';

const container = { name: 'c', image: 'nginx', terminationMessagePolicy: 'File' };
const gated = { schedulingGates: [{ name: 'example.com/zone' }] };

describe('validatePodSpecUpdate: nodeSelector of gated pods', () => {
  const cases: {
    name: string;
    old: Record<string, unknown>;
    next: Record<string, unknown>;
    ok: boolean;
  }[] = [
    {
      name: 'gated: add a selector and remove the gate',
      old: { containers: [container], ...gated },
      next: { containers: [container], nodeSelector: { zone: 'a' } },
      ok: true,
    },
    {
      name: 'gated: add a key, keep the gate',
      old: { containers: [container], ...gated, nodeSelector: { os: 'linux' } },
      next: { containers: [container], ...gated, nodeSelector: { os: 'linux', zone: 'a' } },
      ok: true,
    },
    {
      name: 'gated: change an existing key',
      old: { containers: [container], ...gated, nodeSelector: { zone: 'a' } },
      next: { containers: [container], ...gated, nodeSelector: { zone: 'b' } },
      ok: false,
    },
    {
      name: 'not gated: add a selector',
      old: { containers: [container] },
      next: { containers: [container], nodeSelector: { zone: 'a' } },
      ok: false,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const errors = validatePodSpecUpdate(c.next, c.old);
      assert.equal(errors.length === 0, c.ok, JSON.stringify(errors));
    });
  }
});

describe('validatePodSpecUpdate: node affinity of gated pods (KEP-3838)', () => {
  const notIn = (node: string) => ({
    key: 'metadata.name',
    operator: 'NotIn',
    values: [node],
  });
  const required = (...terms: object[]) => ({
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms },
      },
    },
  });
  const antiAffinity = { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [] } };
  const cases: { name: string; old: object; next: object; errors: string[] }[] = [
    {
      name: 'set where there was none, gate removed in the same write',
      old: { containers: [container], ...gated },
      next: { containers: [container], ...required({ matchFields: [notIn('n1')] }) },
      errors: [],
    },
    {
      name: 'a requirement added to a term, next to pod anti-affinity',
      old: {
        containers: [container],
        ...gated,
        affinity: { ...antiAffinity, ...required({ matchFields: [notIn('n1')] }).affinity },
      },
      next: {
        containers: [container],
        ...gated,
        affinity: {
          ...antiAffinity,
          ...required({ matchFields: [notIn('n1'), notIn('n2')] }).affinity,
        },
      },
      errors: [],
    },
    {
      name: 'a requirement changed',
      old: { containers: [container], ...gated, ...required({ matchFields: [notIn('n1')] }) },
      next: { containers: [container], ...gated, ...required({ matchFields: [notIn('n2')] }) },
      errors: [
        'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]',
      ],
    },
    {
      name: 'a term added',
      old: { containers: [container], ...gated, ...required({ matchFields: [notIn('n1')] }) },
      next: {
        containers: [container],
        ...gated,
        ...required({ matchFields: [notIn('n1')] }, { matchFields: [notIn('n2')] }),
      },
      errors: [
        'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms',
      ],
    },
    {
      name: 'not gated: any change is refused',
      old: { containers: [container] },
      next: { containers: [container], ...required({ matchFields: [notIn('n1')] }) },
      errors: ['spec'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const errs = validatePodSpecUpdate(c.next as never, c.old as never);
      assert.deepEqual(
        errs.map((e) => e.field),
        c.errors,
      );
    });
  }
});
