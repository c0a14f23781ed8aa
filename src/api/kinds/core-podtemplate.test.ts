import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { componentStatuses, componentStatusResource } from './core-componentstatus.js';
import { podTemplateResource } from './core-podtemplate.js';
import { simulateCreate } from './harness.js';

const template = (spec: Record<string, unknown>): KubeObject => ({
  metadata: { name: 'pt', namespace: 'default' },
  template: { metadata: { labels: { app: 'x' } }, spec },
});

describe('PodTemplate', () => {
  it("defaults the template's pod spec as a workload's", () => {
    const { object, errors } = simulateCreate(
      podTemplateResource,
      template({ containers: [{ name: 'c', image: 'nginx' }] }),
    );
    assert.deepEqual(errors, []);
    const spec = (object.template as { spec: Record<string, unknown> }).spec;
    assert.equal(spec.restartPolicy, 'Always');
    assert.equal(spec.dnsPolicy, 'ClusterFirst');
  });

  it('validates the template as a pod template', () => {
    const { messages } = simulateCreate(podTemplateResource, template({ containers: [] }));
    assert.ok(
      messages.some((m) => m.startsWith('template.spec.containers: Required value')),
      messages.join('\n'),
    );
    assert.deepEqual(
      simulateCreate(podTemplateResource, { metadata: { name: 'p', namespace: 'd' } }).messages,
      ['template: Required value'],
    );
  });
});

describe('ComponentStatus', () => {
  it('computes three healthy components and refuses to store any', () => {
    assert.deepEqual(
      componentStatuses().map((c) => c.metadata?.name),
      ['controller-manager', 'etcd-0', 'scheduler'],
    );
    assert.equal(simulateCreate(componentStatusResource, componentStatuses()[0]!).errors.length, 1);
  });
});
