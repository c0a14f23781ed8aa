import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PodTemplateSpec } from '../api/model/index.js';
import type { KubeObject } from '../api/object.js';
import { newControllerRef } from './controller-ref.js';
import {
  checkPodCreatable,
  NO_LABELS_MESSAGE,
  podFromTemplate,
  podNamePrefix,
} from './pod-template.js';

const RS: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name: 'web-7d4b9c', namespace: 'prod', uid: 'rs-uid' },
};
const REF = newControllerRef(RS, { group: 'apps', version: 'v1', kind: 'ReplicaSet' });

function template(): PodTemplateSpec {
  return {
    metadata: {
      name: 'ignored',
      labels: { app: 'web', 'pod-template-hash': '7d4b9c' },
      annotations: { note: 'x' },
      finalizers: ['example.com/f'],
    },
    spec: { containers: [{ name: 'c', image: 'nginx', env: [{ name: 'A', value: '1' }] }] },
  };
}

describe('podNamePrefix', () => {
  const long = 'a'.repeat(253);
  const cases = [
    { owner: 'web', want: 'web-' },
    { owner: 'Web', want: 'Web' }, // not a DNS subdomain, dash dropped
    // maskTrailingDash drops two characters before appending `a`, so 253+"-" still passes.
    { owner: long, want: `${long}-` },
    { owner: `${long}a`, want: `${long}a` },
  ];
  for (const c of cases) {
    it(`prefix for ${c.owner.slice(0, 12)}… (${c.owner.length})`, () => {
      assert.equal(podNamePrefix(c.owner), c.want);
    });
  }
});

describe('podFromTemplate', () => {
  it('copies labels, annotations, finalizers and spec, with the controller reference', () => {
    const pod = podFromTemplate(template(), RS, REF);
    assert.deepEqual(pod, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName: 'web-7d4b9c-',
        namespace: 'prod',
        labels: { app: 'web', 'pod-template-hash': '7d4b9c' },
        annotations: { note: 'x' },
        finalizers: ['example.com/f'],
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            name: 'web-7d4b9c',
            uid: 'rs-uid',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: template().spec,
    });
  });

  it('shares no structure with the template', () => {
    const t = template();
    const pod = podFromTemplate(t, RS, REF);
    const meta = pod.metadata;
    assert.ok(meta?.labels && meta.annotations && meta.finalizers && meta.ownerReferences);
    meta.labels.app = 'changed';
    meta.annotations.note = 'changed';
    meta.finalizers.push('more');
    (pod.spec as { containers: { image: string }[] }).containers[0] = { image: 'changed' };
    assert.ok(meta.ownerReferences[0]);
    meta.ownerReferences[0].name = 'changed';
    assert.deepEqual(t, template());
    assert.equal(REF.name, 'web-7d4b9c');
  });

  it('omits empty metadata sets and the ownerReference when no controllerRef is given', () => {
    const pod = podFromTemplate(
      { metadata: { labels: {}, finalizers: [] } },
      { metadata: { name: 'x' } },
    );
    assert.deepEqual(pod, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { generateName: 'x-' },
      spec: {},
    });
  });
});

describe('checkPodCreatable', () => {
  const cases = [
    { name: 'labelled pod', pod: podFromTemplate(template(), RS, REF), want: undefined },
    { name: 'no labels', pod: podFromTemplate({}, RS, REF), want: NO_LABELS_MESSAGE },
    { name: 'empty labels', pod: { metadata: { labels: {} } }, want: NO_LABELS_MESSAGE },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(checkPodCreatable(c.pod)?.message, c.want);
    });
  }
});
