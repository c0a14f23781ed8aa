/**
 * managedFields bookkeeping cost per write, in process: `recordUpdate` as the API server's
 * `trackUpdates` hook calls it, with the built-in schemas and realistic objects.
 *
 * - ConfigMap create (1 KiB of data) — target ≤ 10 µs;
 * - Deployment create (two containers, probes, env, volumes) — target ≤ 30 µs;
 * - Deployment update: a second manager changes `spec.replicas`, the request body carries the
 *   stored managedFields (a PUT of a fetched object) — target ≤ 40 µs;
 * - Pod status update by a kubelet-like manager through `status` (a condition and container
 *   statuses flip to ready) — target ≤ 40 µs.
 *
 * Inputs are built once and cloned as the server would see them (store and request body are
 * parsed separately, so old and new share no references). Median of 7 runs after a warm-up.
 * Run: `node --import tsx bench/managed-fields.ts [case-name-part]`.
 *
 * @module
 */
import {
  type FieldManagerOptions,
  fieldSetFromPaths,
  recordUpdate,
} from '../src/api/managed-fields/index.js';
import type { KubeObject } from '../src/api/object.js';
import { loadBuiltinSchemas } from '../src/api/schema/builtin/index.js';
import { median } from './lib/report.js';

const NOW = '2024-05-01T12:00:00Z';
const LATER = '2024-05-01T12:05:00Z';
const RUNS = 7;
const STATUS_ONLY = fieldSetFromPaths([['status']]);

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

function configMap(): KubeObject {
  const data: Record<string, string> = {};
  for (let i = 0; i < 16; i++) data[`key-${i}`] = 'x'.repeat(56);
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'settings', namespace: 'default', labels: { app: 'web' } },
    data,
  };
}

function container(name: string, image: string, port: number): Record<string, unknown> {
  return {
    name,
    image,
    imagePullPolicy: 'IfNotPresent',
    ports: [{ containerPort: port, name: 'http', protocol: 'TCP' }],
    env: [
      { name: 'MODE', value: 'production' },
      {
        name: 'POD_NAME',
        valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } },
      },
    ],
    resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
    readinessProbe: {
      httpGet: { path: '/healthz', port, scheme: 'HTTP' },
      periodSeconds: 10,
      timeoutSeconds: 1,
      successThreshold: 1,
      failureThreshold: 3,
    },
    volumeMounts: [{ name: 'config', mountPath: '/etc/app' }],
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
  };
}

function podSpec(): Record<string, unknown> {
  return {
    containers: [container('web', 'nginx:1.25', 8080), container('sidecar', 'envoy:1.29', 9901)],
    volumes: [{ name: 'config', configMap: { name: 'settings', defaultMode: 420 } }],
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    schedulerName: 'default-scheduler',
    securityContext: {},
  };
}

function deployment(): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      namespace: 'default',
      labels: { app: 'web', tier: 'frontend' },
      annotations: { 'deployment.kubernetes.io/revision': '1' },
    },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      strategy: {
        type: 'RollingUpdate',
        rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' },
      },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      template: { metadata: { labels: { app: 'web', tier: 'frontend' } }, spec: podSpec() },
    },
    status: {},
  };
}

function containerStatus(name: string, image: string, ready: boolean): Record<string, unknown> {
  return {
    name,
    image,
    imageID: `docker-pullable://${image}@sha256:${'a'.repeat(64)}`,
    containerID: `containerd://${'b'.repeat(64)}`,
    ready,
    started: true,
    restartCount: 0,
    state: { running: { startedAt: NOW } },
    lastState: {},
  };
}

function pod(ready: boolean): KubeObject {
  const flag = ready ? 'True' : 'False';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web-7d9c6b5f4-x2k8p',
      generateName: 'web-7d9c6b5f4-',
      namespace: 'default',
      labels: { app: 'web', 'pod-template-hash': '7d9c6b5f4' },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: 'web-7d9c6b5f4',
          uid: '0b6e0a8e-7f2c-4c1e-9d1a-3f4e5d6c7b8a',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: { ...podSpec(), nodeName: 'node-1', serviceAccountName: 'default' },
    status: {
      phase: 'Running',
      conditions: ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({
        type,
        status: type === 'Ready' || type === 'ContainersReady' ? flag : 'True',
        lastProbeTime: null,
        lastTransitionTime: NOW,
      })),
      hostIP: '10.0.0.11',
      podIP: '10.244.1.23',
      podIPs: [{ ip: '10.244.1.23' }],
      startTime: NOW,
      qosClass: 'Burstable',
      containerStatuses: [
        containerStatus('web', 'nginx:1.25', ready),
        containerStatus('sidecar', 'envoy:1.29', ready),
      ],
    },
  };
}

/** What the store keeps after a create: managedFields plus the server-set metadata. */
function stored(obj: KubeObject): KubeObject {
  return clone({
    ...obj,
    metadata: {
      ...obj.metadata,
      uid: '5f2b7c1e-8a3d-4e6f-9b0c-1d2e3f4a5b6c',
      resourceVersion: '1001',
      creationTimestamp: NOW,
      generation: 1,
    },
  });
}

interface Case {
  readonly name: string;
  readonly target: number;
  readonly run: () => KubeObject;
}

function timeRun(fn: () => unknown, iterations: number): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) fn();
  return Number(process.hrtime.bigint() - start) / 1000 / iterations;
}

async function cases(): Promise<Case[]> {
  const builtin = await loadBuiltinSchemas();
  const nav = builtin.navigator;
  const opts = (group: string, kind: string, extra: Partial<FieldManagerOptions>) => ({
    manager: 'kubectl-create',
    apiVersion: group === '' ? 'v1' : `${group}/v1`,
    now: NOW,
    schema: builtin.schemaFor({ group, version: 'v1', kind }),
    nav,
    ...extra,
  });
  const cmOpts = opts('', 'ConfigMap', {});
  const deployOpts = opts('apps', 'Deployment', { resetFields: STATUS_ONLY });
  const podOpts = opts('', 'Pod', { resetFields: STATUS_ONLY });

  const cm = configMap();
  const deploy = deployment();
  const liveDeploy = stored(recordUpdate(undefined, clone(deploy), deployOpts));
  const scaled = clone(liveDeploy);
  (scaled.spec as Record<string, unknown>).replicas = 5;
  const scaleOpts = { ...deployOpts, manager: 'hpa-controller', now: LATER };

  const livePod = stored(recordUpdate(undefined, pod(false), podOpts));
  const readyPod = clone({ ...livePod, status: pod(true).status });
  const statusOpts = { ...podOpts, manager: 'kubelet', subresource: 'status', now: LATER };
  delete (statusOpts as { resetFields?: unknown }).resetFields;

  return [
    {
      name: 'ConfigMap create (1 KiB)',
      target: 10,
      run: () => recordUpdate(undefined, cm, cmOpts),
    },
    {
      name: 'Deployment create',
      target: 30,
      run: () => recordUpdate(undefined, deploy, deployOpts),
    },
    {
      name: 'Deployment update (replicas, other manager)',
      target: 40,
      run: () => recordUpdate(liveDeploy, scaled, scaleOpts),
    },
    {
      name: 'Pod status update (kubelet, status)',
      target: 40,
      run: () => recordUpdate(livePod, readyPod, statusOpts),
    },
  ];
}

async function main(): Promise<void> {
  // An optional argument picks the cases whose name contains it (for profiling one case).
  const filter = process.argv[2]?.toLowerCase();
  const all = (await cases()).filter((c) => !filter || c.name.toLowerCase().includes(filter));
  for (const c of all) {
    // Size a run to about 100 ms from a warm-up of the same length.
    const probe = timeRun(c.run, 2000);
    const iterations = Math.max(200, Math.round(100_000 / Math.max(probe, 0.1)));
    timeRun(c.run, iterations);
    const runs: number[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(timeRun(c.run, iterations));
    const us = median(runs);
    const verdict = us <= c.target ? 'ok' : 'MISSED';
    console.log(
      `${c.name.padEnd(46)} ${us.toFixed(1).padStart(7)} µs/op  (target ≤ ${c.target} µs, ${verdict})`,
    );
  }
}

await main();
