/**
 * One storage served in several versions, on a running `fleetyard up` with kubectl 1.33:
 * `kubectl autoscale` (a protobuf body) creates an HPA that reads the same through
 * autoscaling/v1 and v2; core and events.k8s.io events list the same events; a
 * ReplicationController scaled with `kubectl scale rc` gets its pods from the
 * replicationcontroller-controller.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import {
  clusterForFile,
  createFromManifest,
  deployment,
  describeKubectl,
  inNamespace,
  type KubeObject,
  namespaceObject,
  pollUntil,
} from './testing/kubectl-fixtures.js';

const current = clusterForFile();

interface Hpa extends KubeObject {
  apiVersion: string;
  spec: Record<string, unknown> & { metrics?: unknown[] };
}

function replicationController(name: string, replicas: number): KubeObject {
  const labels = { app: name };
  return {
    apiVersion: 'v1',
    kind: 'ReplicationController',
    metadata: { name },
    spec: {
      replicas,
      template: {
        metadata: { labels },
        spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
      },
    },
  };
}

describeKubectl('1.33', current, (s) => {
  const ns = 'multi-version';
  const { kc, read, create } = inNamespace(s, ns);

  before(async () => {
    await createFromManifest(s.k(), undefined, namespaceObject(ns));
  });

  it('kubectl autoscale creates one HPA served as autoscaling/v1 and v2', async () => {
    await create(deployment('web', { replicas: 1 }));
    await kc('autoscale', 'deployment', 'web', '--min', '1', '--max', '5', '--cpu-percent', '50');
    // Full names: kubectl's short-name expansion drops the version (`hpa.v1.autoscaling`
    // reads the preferred v2), as it does against any cluster.
    const v1 = (await read('horizontalpodautoscalers.v1.autoscaling', 'web')) as Hpa;
    const v2 = (await read('horizontalpodautoscalers.v2.autoscaling', 'web')) as Hpa;
    assert.equal(v1.apiVersion, 'autoscaling/v1');
    assert.equal(v2.apiVersion, 'autoscaling/v2');
    assert.equal(v1.metadata.uid, v2.metadata.uid);
    assert.equal(v1.spec.targetCPUUtilizationPercentage, 50);
    assert.equal(v1.spec.maxReplicas, 5);
    assert.deepEqual(v2.spec.metrics, [
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } },
      },
    ]);
    const table = await kc('get', 'hpa', 'web');
    assert.match(table, /^NAME\s+REFERENCE\s+TARGETS\s+MINPODS\s+MAXPODS\s+REPLICAS\s+AGE/);
    assert.match(table, /web\s+Deployment\/web\s+cpu: <unknown>\/50%\s+1\s+5\s+\d+/);
  });

  it('kubectl get events and events.v1.events.k8s.io list the same events', async () => {
    const event: KubeObject & Record<string, unknown> = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'web.manual' },
      involvedObject: { kind: 'Deployment', namespace: ns, name: 'web' },
      reason: 'Manual',
      message: 'written through core/v1',
      type: 'Normal',
    };
    await create(event);
    const names = async (resource: string) =>
      (JSON.parse(await kc('get', resource, '-o', 'json')) as { items: KubeObject[] }).items
        .map((e) => e.metadata.name)
        .sort();
    const core = await names('events');
    const modern = await names('events.v1.events.k8s.io');
    assert.ok(core.includes('web.manual'));
    assert.deepEqual(modern, core);
    const ev = await read('events.v1.events.k8s.io', 'web.manual');
    assert.equal((ev as KubeObject & { note?: string }).note, 'written through core/v1');
  });

  it('kubectl scale rc sets the replicas through /scale', async () => {
    await create(replicationController('legacy', 1));
    await kc('scale', 'rc', 'legacy', '--replicas', '3');
    // The replicationcontroller-controller follows: three pods, counted in the status.
    const rc = await pollUntil('rc with 3 pods', async () => {
      const o = (await read('rc', 'legacy')) as KubeObject & {
        spec: { replicas: number; selector: unknown };
        status?: { replicas?: number };
      };
      return o.spec.replicas === 3 && o.status?.replicas === 3 ? o : undefined;
    });
    assert.deepEqual(rc.spec.selector, { app: 'legacy' });
    assert.match(await kc('get', 'rc', 'legacy'), /^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE/);
  });
});
