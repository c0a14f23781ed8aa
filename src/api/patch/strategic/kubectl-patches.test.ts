import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyStrategicMergePatch } from './apply.js';
import { createTwoWayMergePatch } from './diff.js';
import {
  deploymentSchema,
  deploymentNav as nav,
  statefulSetSchema,
} from './testdata/deployment-schema.js';

const live = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', finalizers: ['a/b'] },
  spec: {
    replicas: 2,
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [
          {
            name: 'a',
            image: 'nginx',
            env: [
              { name: 'X', value: '1' },
              { name: 'Y', value: '2' },
            ],
            ports: [
              { containerPort: 80, protocol: 'TCP' },
              { containerPort: 81, protocol: 'TCP' },
            ],
          },
          { name: 'b', image: 'busybox' },
        ],
        volumes: [
          { name: 'v1', emptyDir: {} },
          { name: 'v2', configMap: { name: 'cm2' } },
        ],
        tolerations: [{ key: 'k', operator: 'Exists' }],
      },
    },
  },
};

/** The patch kubectl apply sent in the observed exchange (docs/design/wire-protocol.md §5.3). */
const observedPatch = {
  spec: {
    strategy: { $retainKeys: ['type'], rollingUpdate: null, type: 'Recreate' },
    template: {
      spec: {
        '$setElementOrder/containers': [{ name: 'a' }],
        '$setElementOrder/volumes': [{ name: 'v1' }, { name: 'v2' }],
        containers: [
          {
            '$setElementOrder/env': [{ name: 'Y' }],
            '$setElementOrder/ports': [{ containerPort: 80 }],
            env: [{ $patch: 'delete', name: 'X' }],
            name: 'a',
            ports: [{ $patch: 'delete', containerPort: 81 }],
          },
          { $patch: 'delete', name: 'b' },
        ],
        volumes: [
          {
            $retainKeys: ['configMap', 'name'],
            configMap: { name: 'cm1' },
            emptyDir: null,
            name: 'v1',
          },
        ],
      },
    },
  },
};

const desired = {
  ...live,
  spec: {
    ...live.spec,
    strategy: { type: 'Recreate' },
    template: {
      ...live.spec.template,
      spec: {
        containers: [
          {
            name: 'a',
            image: 'nginx',
            env: [{ name: 'Y', value: '2' }],
            ports: [{ containerPort: 80, protocol: 'TCP' }],
          },
        ],
        volumes: [
          { name: 'v1', configMap: { name: 'cm1' } },
          { name: 'v2', configMap: { name: 'cm2' } },
        ],
        tolerations: [{ key: 'k', operator: 'Exists' }],
      },
    },
  },
};

describe('kubectl apply: the observed Recreate patch (docs/design/wire-protocol.md §5.3)', () => {
  it('yields the expected Deployment', () => {
    assert.deepEqual(applyStrategicMergePatch(live, observedPatch, deploymentSchema, nav), desired);
  });
  it('is the patch createTwoWayMergePatch computes', () => {
    assert.deepEqual(createTwoWayMergePatch(live, desired, deploymentSchema, nav), observedPatch);
  });
});

describe('kubectl rollout', () => {
  it('restart adds the restartedAt annotation to the pod template', () => {
    const at = '2024-05-01T10:00:00Z';
    const patch = {
      spec: {
        template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': at } } },
      },
    };
    const out = applyStrategicMergePatch(live, patch, deploymentSchema, nav);
    const template = {
      ...live.spec.template,
      metadata: {
        labels: { app: 'web' },
        annotations: { 'kubectl.kubernetes.io/restartedAt': at },
      },
    };
    assert.deepEqual(out, { ...live, spec: { ...live.spec, template } });
  });

  it('undo on a statefulset replaces the whole template ($patch: replace)', () => {
    const sts = {
      kind: 'StatefulSet',
      metadata: { name: 'db' },
      spec: {
        replicas: 3,
        template: {
          metadata: { labels: { app: 'db', rev: '2' }, annotations: { note: 'x' } },
          spec: { containers: [{ name: 'db', image: 'pg:16', args: ['-v'] }, { name: 'side' }] },
        },
      },
    };
    const revision = {
      metadata: { labels: { app: 'db', rev: '1' } },
      spec: { containers: [{ name: 'db', image: 'pg:15' }] },
    };
    const body = { spec: { template: { ...revision, $patch: 'replace' } } };
    const out = applyStrategicMergePatch(sts, body, statefulSetSchema, nav);
    assert.deepEqual(out, { ...sts, spec: { replicas: 3, template: revision } });
  });

  it('scale-like replica change touches nothing else', () => {
    const out = applyStrategicMergePatch(live, { spec: { replicas: 5 } }, deploymentSchema, nav);
    assert.deepEqual(out, { ...live, spec: { ...live.spec, replicas: 5 } });
  });
});

describe('merge semantics on the Deployment fixture', () => {
  it('finalizers merge as a set; tolerations are replaced', () => {
    const patch = {
      metadata: { finalizers: ['c/d', 'a/b'] },
      spec: { template: { spec: { tolerations: [{ key: 'z', operator: 'Exists' }] } } },
    };
    const out = applyStrategicMergePatch(live, patch, deploymentSchema, nav) as typeof live;
    assert.deepEqual(out.metadata.finalizers, ['c/d', 'a/b']);
    assert.deepEqual(out.spec.template.spec.tolerations, [{ key: 'z', operator: 'Exists' }]);
  });

  it('a container port merges by containerPort', () => {
    const patch = {
      spec: {
        template: {
          spec: { containers: [{ name: 'a', ports: [{ containerPort: 81, name: 'http' }] }] },
        },
      },
    };
    const out = applyStrategicMergePatch(live, patch, deploymentSchema, nav) as typeof live;
    const ports = out.spec.template.spec.containers[0]?.ports;
    assert.deepEqual(ports, [
      { containerPort: 80, protocol: 'TCP' },
      { containerPort: 81, protocol: 'TCP', name: 'http' },
    ]);
  });

  it('the diff of a reorder is only $setElementOrder', () => {
    const reordered = structuredClone(live);
    reordered.spec.template.spec.containers.reverse();
    assert.deepEqual(createTwoWayMergePatch(live, reordered, deploymentSchema, nav), {
      spec: {
        template: { spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }] } },
      },
    });
  });

  it('the diff of a set sends additions, deletions and the order', () => {
    const changed = structuredClone(live);
    changed.metadata.finalizers = ['x/y'];
    assert.deepEqual(createTwoWayMergePatch(live, changed, deploymentSchema, nav), {
      metadata: {
        finalizers: ['x/y'],
        '$deleteFromPrimitiveList/finalizers': ['a/b'],
        '$setElementOrder/finalizers': ['x/y'],
      },
    });
  });
});
