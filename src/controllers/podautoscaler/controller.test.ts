/**
 * The HPA controller against a real in-memory API server: it scales a Deployment up and down
 * through `/scale` from a fake Metrics API, writes upstream's status and events, finds a custom
 * resource's scale through discovery, reports a missing target and a missing Metrics API, and
 * stops writing once nothing changes. The sync period is shortened to 100 ms (real clock).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AutoscalingV2HorizontalPodAutoscaler as Hpa } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { formatTime } from '../../api/time.js';
import { RESOURCES } from '../../controller/context.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { HPA_RESOURCE, horizontalPodAutoscalerController } from './controller.js';
import { FakePodMetrics } from './testing/fake-metrics.js';

const fake = new FakePodMetrics();
let h: Harness;

const FAST = {
  syncPeriodMs: 100,
  cpuInitializationPeriodMs: 0,
  delayOfInitialReadinessStatusMs: 0,
};

before(async () => {
  h = await startHarness();
  h.run(
    horizontalPodAutoscalerController({
      ...FAST,
      downscaleStabilizationMs: 1_000,
      metricsSource: () => fake,
    }),
  );
});

after(async () => {
  await h.close();
});

async function namespace(name: string): Promise<void> {
  await h.client.create(RESOURCES.namespaces, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name },
  });
}

/** A Running, Ready pod requesting 100m CPU, started 10 minutes ago. */
async function readyPod(ns: string, name: string, labels: Record<string, string>): Promise<void> {
  const pod = await h.client.create(
    { ...RESOURCES.pods, namespace: ns },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: ns, labels },
      spec: {
        containers: [{ name: 'main', image: 'x', resources: { requests: { cpu: '100m' } } }],
      },
    },
  );
  const since = formatTime(Date.now() - 600_000);
  const status = {
    phase: 'Running',
    startTime: since,
    conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: since }],
  };
  await h.client.updateStatus({ ...RESOURCES.pods, namespace: ns, name }, { ...pod, status });
}

function hpaManifest(
  ns: string,
  target: { apiVersion: string; kind: string; name: string },
  max = 10,
): Hpa {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'hpa', namespace: ns },
    spec: {
      scaleTargetRef: target,
      minReplicas: 1,
      maxReplicas: max,
      metrics: [
        {
          type: 'Resource',
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } },
        },
      ],
    },
  };
}

async function hpaStatus(ns: string): Promise<Hpa['status']> {
  const obj = (await h.get({ ...HPA_RESOURCE, namespace: ns, name: 'hpa' })) as Hpa | undefined;
  return obj?.status;
}

function reasonsOf(status: Hpa['status']): Record<string, string> {
  return Object.fromEntries(
    (status?.conditions ?? []).map((c) => [c.type, `${c.status} ${c.reason}`]),
  );
}

function eventsOf(ns: string, reason: string): string[] {
  return h.events.events
    .filter((e) => e.object.metadata?.namespace === ns && e.reason === reason)
    .map((e) => e.message);
}

async function replicasOf(
  ref: { group: string; version: string; plural: string },
  ns: string,
  name: string,
): Promise<number | undefined> {
  const obj: KubeObject | undefined = await h.get({ ...ref, namespace: ns, name });
  const spec = obj?.spec as { replicas?: number } | undefined;
  return spec?.replicas;
}

describe('horizontal-pod-autoscaler-controller', () => {
  it('scales a Deployment up (at most doubling), then down after the stabilization window', async () => {
    const ns = 'hpa-deploy';
    await namespace(ns);
    const labels = { app: 'web' };
    await h.client.create(
      { ...RESOURCES.deployments, namespace: ns },
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: ns },
        spec: {
          replicas: 2,
          selector: { matchLabels: labels },
          template: {
            metadata: { labels },
            spec: {
              containers: [{ name: 'main', image: 'x', resources: { requests: { cpu: '100m' } } }],
            },
          },
        },
      },
    );
    for (const name of ['web-1', 'web-2']) {
      await readyPod(ns, name, labels);
      fake.set(ns, name, labels, 'cpu', '200m');
    }
    await h.client.create(
      { ...HPA_RESOURCE, namespace: ns },
      hpaManifest(ns, { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }),
    );
    // 200 % of requests against 50 %: 8 wanted, 4 allowed in one sync without behavior.
    await eventually(async () => (await replicasOf(RESOURCES.deployments, ns, 'web')) === 4);
    const up = await eventually(async () => {
      const s = await hpaStatus(ns);
      return s?.desiredReplicas === 4 && s.currentReplicas === 2 ? s : false;
    });
    assert.deepEqual(reasonsOf(up), {
      AbleToScale: 'True SucceededRescale',
      ScalingActive: 'True ValidMetricFound',
      ScalingLimited: 'True ScaleUpLimit',
    });
    assert.deepEqual(up?.currentMetrics, [
      {
        type: 'Resource',
        resource: { name: 'cpu', current: { averageUtilization: 200, averageValue: '200m' } },
      },
    ]);
    assert.ok(up?.lastScaleTime);
    assert.deepEqual(eventsOf(ns, 'SuccessfulRescale'), [
      'New size: 4; reason: cpu resource utilization (percentage of request) above target',
    ]);

    for (const name of ['web-1', 'web-2']) fake.set(ns, name, labels, 'cpu', '10m');
    await eventually(async () => (await replicasOf(RESOURCES.deployments, ns, 'web')) === 1, {
      timeoutMs: 15_000,
    });
    assert.ok(
      eventsOf(ns, 'SuccessfulRescale').includes('New size: 1; reason: All metrics below target'),
    );
  });

  it('does not write the status again once nothing changes', async () => {
    const ns = 'hpa-deploy';
    const rv = async () =>
      (await h.get({ ...HPA_RESOURCE, namespace: ns, name: 'hpa' }))?.metadata?.resourceVersion;
    // Let the last rescale's status land, then watch several sync periods go by.
    await eventually(async () => (await hpaStatus(ns))?.desiredReplicas === 1);
    await new Promise((r) => setTimeout(r, 300));
    const before = await rv();
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(await rv(), before);
  });

  it('finds a custom resource through discovery and scales it through /scale', async () => {
    const ns = 'hpa-crd';
    await namespace(ns);
    const crdType = {
      group: 'apiextensions.k8s.io',
      version: 'v1',
      plural: 'customresourcedefinitions',
    };
    await h.client.create(crdType, {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            },
            subresources: {
              status: {},
              scale: {
                specReplicasPath: '.spec.replicas',
                statusReplicasPath: '.status.replicas',
                labelSelectorPath: '.status.selector',
              },
            },
          },
        ],
      },
    });
    const widgets = { group: 'example.com', version: 'v1', plural: 'widgets' };
    const widget = await eventually(async () => {
      try {
        return await h.client.create(
          { ...widgets, namespace: ns },
          {
            apiVersion: 'example.com/v1',
            kind: 'Widget',
            metadata: { name: 'w', namespace: ns },
            spec: { replicas: 1 },
          },
        );
      } catch {
        return false;
      }
    });
    await h.client.updateStatus(
      { ...widgets, namespace: ns, name: 'w' },
      { ...widget, status: { replicas: 1, selector: 'app=w' } },
    );
    await readyPod(ns, 'w-1', { app: 'w' });
    fake.set(ns, 'w-1', { app: 'w' }, 'cpu', '100m');
    await h.client.create(
      { ...HPA_RESOURCE, namespace: ns },
      hpaManifest(ns, { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w' }),
    );
    // 100 % against 50 %: 2.
    await eventually(async () => (await replicasOf(widgets, ns, 'w')) === 2);
  });

  it('reports a missing target (FailedGetScale) without writing anything else', async () => {
    const ns = 'hpa-missing';
    await namespace(ns);
    await h.client.create(
      { ...HPA_RESOURCE, namespace: ns },
      hpaManifest(ns, { apiVersion: 'apps/v1', kind: 'Deployment', name: 'nope' }),
    );
    const s = await eventually(async () => {
      const st = await hpaStatus(ns);
      return reasonsOf(st).AbleToScale === 'False FailedGetScale' ? st : false;
    });
    assert.match(
      s?.conditions?.[0]?.message ?? '',
      /^the HPA controller was unable to get the target's current scale: .*not found/,
    );
    assert.equal(eventsOf(ns, 'FailedGetScale').length > 0, true);
  });
});

describe('horizontal-pod-autoscaler-controller on the API server Metrics API', () => {
  it('reads PodMetrics through the client; without samples the HPA reports FailedGetResourceMetric', async () => {
    const own = await startHarness();
    try {
      own.run(horizontalPodAutoscalerController(FAST));
      const ns = 'default';
      const labels = { app: 'api' };
      await own.client.create(
        { ...RESOURCES.deployments, namespace: ns },
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'api', namespace: ns },
          spec: {
            replicas: 1,
            selector: { matchLabels: labels },
            template: {
              metadata: { labels },
              spec: { containers: [{ name: 'main', image: 'x' }] },
            },
          },
        },
      );
      await own.client.create(
        { ...HPA_RESOURCE, namespace: ns },
        hpaManifest(ns, { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api' }),
      );
      const event = await eventually(() =>
        own.events.events.find((e) => e.reason === 'FailedGetResourceMetric'),
      );
      // No pods: upstream's first failure, whichever the server's Metrics API answers first.
      assert.match(event.message, /^failed to get cpu utilization: /);
    } finally {
      await own.close();
    }
  });
});
