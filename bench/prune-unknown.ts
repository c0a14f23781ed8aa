/**
 * Cost of pruning unknown fields (`src/api/schema/prune-unknown.ts`), which runs on every
 * write: a realistic Pod (two containers, probes, volumes, status) and Deployment, each pruned
 * 100,000 times in process, median ns/object of 5 runs after a warm-up. The common case is an
 * object with nothing to prune, which is pruned in place repeatedly; the "one unknown field"
 * rows copy the object each time (JSON round trip, the copy's cost measured alone and
 * subtracted) so that there is always something to remove. `findUnknownFields` on the same
 * objects is printed as context.
 *
 * Run alone: `node --import tsx bench/prune-unknown.ts`.
 *
 * @module
 */
import { fileURLToPath } from 'node:url';
import { loadBuiltinSchemas } from '../src/api/schema/builtin/index.js';
import type { SchemaNavigator } from '../src/api/schema/navigator.js';
import { pruneUnknownFields } from '../src/api/schema/prune-unknown.js';
import type { Schema } from '../src/api/schema/types.js';
import { findUnknownFields } from '../src/api/schema/unknown-fields.js';
import { type BenchRow, median } from './lib/report.js';

const ITERATIONS = 100_000;
const RUNS = 5;

type Obj = Record<string, unknown>;

function container(name: string, image: string): Obj {
  return {
    name,
    image,
    command: ['/bin/server', '--port=8080'],
    env: [
      { name: 'MODE', value: 'production' },
      { name: 'POD_IP', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIP' } } },
    ],
    ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
    resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
    livenessProbe: {
      httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' },
      periodSeconds: 10,
      timeoutSeconds: 1,
      successThreshold: 1,
      failureThreshold: 3,
    },
    volumeMounts: [{ name: 'config', mountPath: '/etc/config', readOnly: true }],
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    imagePullPolicy: 'IfNotPresent',
  };
}

function podSpec(): Obj {
  return {
    containers: [container('web', 'nginx:1.27'), container('sidecar', 'envoy:1.30')],
    volumes: [{ name: 'config', configMap: { name: 'web-config', defaultMode: 420 } }],
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    serviceAccountName: 'default',
    securityContext: {},
    schedulerName: 'default-scheduler',
    tolerations: [
      {
        key: 'node.kubernetes.io/not-ready',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
    ],
  };
}

export function pod(): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web-7d4b9c8f6d-x2x9z',
      generateName: 'web-7d4b9c8f6d-',
      namespace: 'default',
      labels: { app: 'web', 'pod-template-hash': '7d4b9c8f6d' },
      annotations: { 'kubectl.kubernetes.io/restartedAt': '2024-05-01T12:00:00Z' },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: 'web-7d4b9c8f6d',
          uid: '6f1c7a7e-5b0e-4c3e-9a57-2a3c0e1b9d11',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: { ...podSpec(), nodeName: 'node-1' },
    status: {
      phase: 'Running',
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          lastProbeTime: null,
          lastTransitionTime: '2024-05-01T12:00:05Z',
        },
      ],
      podIP: '10.0.0.12',
      startTime: '2024-05-01T12:00:00Z',
      containerStatuses: [
        {
          name: 'web',
          ready: true,
          restartCount: 0,
          image: 'nginx:1.27',
          imageID: 'docker.io/library/nginx@sha256:abc',
          state: { running: { startedAt: '2024-05-01T12:00:02Z' } },
        },
      ],
    },
  };
}

export function deployment(): Obj {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      strategy: {
        type: 'RollingUpdate',
        rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' },
      },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      template: { metadata: { labels: { app: 'web' } }, spec: podSpec() },
    },
  };
}

/** Nanoseconds per call of `fn(i)`, median of RUNS runs after one warm-up. */
function nsPerCall(fn: (i: number) => void): number {
  const runs: number[] = [];
  for (let r = 0; r <= RUNS; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < ITERATIONS; i++) fn(i);
    const ns = Number(process.hrtime.bigint() - start) / ITERATIONS;
    if (r > 0) runs.push(ns);
  }
  return median(runs);
}

let sink = 0;

function rowsFor(
  name: string,
  make: () => Obj,
  schema: Schema | undefined,
  nav: SchemaNavigator,
): BenchRow[] {
  const valid = make();
  if (pruneUnknownFields(valid, schema, nav))
    throw new Error(`${name}: the fixture has unknown fields`);
  const text = JSON.stringify({ ...valid, spec: { ...(valid.spec as Obj), foo: 1 } });
  const copy = nsPerCall(() => {
    sink += (JSON.parse(text) as Obj).kind === 'x' ? 1 : 0;
  });
  const withUnknown = nsPerCall(() => {
    if (pruneUnknownFields(JSON.parse(text), schema, nav)) sink++;
  });
  return [
    {
      name: `prune ${name}, nothing unknown`,
      value: nsPerCall(() => {
        if (pruneUnknownFields(valid, schema, nav)) sink++;
      }),
      unit: 'ns/object',
    },
    {
      name: `prune ${name}, one unknown field (copy subtracted)`,
      value: withUnknown - copy,
      unit: 'ns/object',
    },
    {
      name: `findUnknownFields ${name} (context)`,
      value: nsPerCall(() => {
        sink += findUnknownFields(valid, schema, nav).length;
      }),
      unit: 'ns/object',
    },
  ];
}

export async function benchPruneUnknown(): Promise<BenchRow[]> {
  const builtin = await loadBuiltinSchemas();
  const podSchema = builtin.schemaFor({ group: '', version: 'v1', kind: 'Pod' });
  const deploymentSchema = builtin.schemaFor({ group: 'apps', version: 'v1', kind: 'Deployment' });
  return [
    ...rowsFor('Pod', pod, podSchema, builtin.navigator),
    ...rowsFor('Deployment', deployment, deploymentSchema, builtin.navigator),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await benchPruneUnknown();
  for (const row of rows)
    console.log(`${row.name.padEnd(56)} ${row.value.toFixed(0).padStart(7)} ${row.unit}`);
  if (sink < 0) console.log(sink);
}
