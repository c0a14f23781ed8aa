/**
 * Server-side printing cost: turning 10,000 stored pods into the `meta.k8s.io/v1` Table that
 * `kubectl get pods` asks for, in process (no HTTP):
 *
 * - `tableFor` + `JSON.stringify` of the Table (what a list request pays on top of reading
 *   the objects), median of 7 runs after 2 warm-ups — target ≤ 100 ms;
 * - `tableFor` alone, as context;
 * - the Table's JSON size (rows carry PartialObjectMetadata with managedFields, as upstream).
 *
 * Pods look like a Deployment's after the simulated kubelet ran them: two containers, owner
 * reference, managed fields, Running with both containers ready, one with a restart.
 *
 * @module
 */
import type { KubeObject } from '../src/api/object.js';
import { tableFor } from '../src/api/printers/index.js';
import type { ResourceDefinition } from '../src/api/resource.js';
import type { BenchOptions } from './lib/options.js';
import { round } from './lib/options.js';
import { type BenchRow, median } from './lib/report.js';

const PODS = 10_000;
const TARGET_MS = 100;
const NOW = new Date('2024-05-01T12:00:00Z');

const POD_DEF: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'Pod',
  listKind: 'PodList',
  plural: 'pods',
  singular: 'pod',
  namespaced: true,
  nameValidation: 'dns-subdomain',
  generation: 'none',
  statusSubresource: true,
  strategy: {},
};

function at(secondsAgo: number): string {
  return new Date(NOW.getTime() - secondsAgo * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
}

function container(name: string, image: string): Record<string, unknown> {
  return {
    name,
    image,
    ports: [{ containerPort: 8080, protocol: 'TCP' }],
    resources: { requests: { cpu: '100m', memory: '128Mi' } },
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    imagePullPolicy: 'IfNotPresent',
  };
}

function containerStatus(
  name: string,
  image: string,
  i: number,
  restarts: number,
): Record<string, unknown> {
  return {
    name,
    image,
    imageID: `docker.io/library/${image}@sha256:${'ab'.repeat(32)}`,
    containerID: `containerd://${i.toString(16).padStart(64, '0')}`,
    ready: true,
    started: true,
    restartCount: restarts,
    state: { running: { startedAt: at(3000) } },
    ...(restarts > 0
      ? { lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: at(3001) } } }
      : {}),
  };
}

/** A pod as a Deployment's ReplicaSet creates it and the kubelet reports it. */
export function realisticPod(i: number): KubeObject {
  const name = `web-7d9f8b6c5d-${i.toString(36).padStart(5, '0')}`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      generateName: 'web-7d9f8b6c5d-',
      namespace: `team-${i % 20}`,
      uid: `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
      resourceVersion: String(1000 + i),
      creationTimestamp: at(3600 + (i % 5000)),
      labels: { app: 'web', 'pod-template-hash': '7d9f8b6c5d' },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: 'web-7d9f8b6c5d',
          uid: 'aaaaaaaa-0000-4000-8000-000000000001',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
      managedFields: [
        {
          manager: 'kube-controller-manager',
          operation: 'Update',
          apiVersion: 'v1',
          time: at(3600),
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
        },
      ],
    },
    spec: {
      containers: [
        container('web', 'nginx:1.27'),
        container('metrics', 'prom/statsd-exporter:v0.26'),
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'default',
      nodeName: `node-${i % 50}`,
      schedulerName: 'default-scheduler',
    },
    status: {
      phase: 'Running',
      conditions: [
        { type: 'Initialized', status: 'True', lastTransitionTime: at(3590) },
        { type: 'Ready', status: 'True', lastTransitionTime: at(3000) },
        { type: 'ContainersReady', status: 'True', lastTransitionTime: at(3000) },
        { type: 'PodScheduled', status: 'True', lastTransitionTime: at(3599) },
      ],
      hostIP: `192.168.0.${i % 50}`,
      podIP: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      podIPs: [{ ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` }],
      startTime: at(3590),
      qosClass: 'Burstable',
      containerStatuses: [
        containerStatus('web', 'nginx:1.27', i, i % 7 === 0 ? 2 : 0),
        containerStatus('metrics', 'prom/statsd-exporter:v0.26', i + 1, 0),
      ],
    },
  };
}

interface RunResult {
  readonly renderMs: number;
  readonly totalMs: number;
  readonly bytes: number;
}

function oneRun(pods: readonly KubeObject[]): RunResult {
  const t0 = performance.now();
  const table = tableFor(POD_DEF, pods, { now: NOW, resourceVersion: '20000' });
  const t1 = performance.now();
  const json = JSON.stringify(table);
  const t2 = performance.now();
  if (table.rows.length !== pods.length) throw new Error(`rendered ${table.rows.length} rows`);
  return { renderMs: t1 - t0, totalMs: t2 - t0, bytes: Buffer.byteLength(json) };
}

export async function benchTableRender(options?: BenchOptions): Promise<BenchRow[]> {
  const quick = options?.quick ?? false;
  const runs = quick ? 3 : 7;
  const pods = Array.from({ length: PODS }, (_, i) => realisticPod(i));
  for (let i = 0; i < 2; i++) oneRun(pods);
  const results: RunResult[] = [];
  for (let i = 0; i < runs; i++) {
    results.push(oneRun(pods));
    options?.log(`table-render: run ${i + 1}/${runs}: ${round(results.at(-1)?.totalMs ?? 0)} ms`);
    await new Promise((r) => setImmediate(r));
  }
  const total = median(results.map((r) => r.totalMs));
  const render = median(results.map((r) => r.renderMs));
  return [
    {
      name: `Table of ${PODS.toLocaleString('en')} pods: render + JSON (ms)`,
      value: round(total),
      unit: 'ms',
      runs: results.map((r) => round(r.totalMs)),
      target: `<= ${TARGET_MS}`,
      met: total <= TARGET_MS,
    },
    {
      name: `Table of ${PODS.toLocaleString('en')} pods: render only (ms)`,
      value: round(render),
      unit: 'ms',
      runs: results.map((r) => round(r.renderMs)),
    },
    {
      name: `Table of ${PODS.toLocaleString('en')} pods: JSON size`,
      value: round((results[0]?.bytes ?? 0) / 1024 / 1024),
      unit: 'MiB',
      note: 'includeObject=Metadata (PartialObjectMetadata rows, managedFields included)',
    },
  ];
}
