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
