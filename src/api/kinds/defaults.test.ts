/**
 * Property tests: every built-in kind's defaults are idempotent (the server applies them on
 * every write), also after prepareForCreate, and never throw, whatever the input's shape.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { deepCopy, deepEqual, type KubeObject } from '../object.js';
import { builtinResources } from './index.js';

const quantity = fc.oneof(
  fc.constantFrom('100m', '1Gi', '0.5', '1e3', '100u', '1536Mi', '2', '1.5Gi', 'bogus'),
  fc.integer({ min: 0, max: 1_000_000 }),
);
const resourceList = fc.dictionary(
  fc.constantFrom('cpu', 'memory', 'ephemeral-storage', 'example.com/gpu'),
  quantity,
  { maxKeys: 3 },
);
const handler = fc.record(
  {
    httpGet: fc.record(
      {
        port: fc.oneof(fc.integer({ min: 0, max: 70000 }), fc.constantFrom('http', '')),
        path: fc.constantFrom('', '/healthz'),
      },
      { requiredKeys: ['port'] },
    ),
    exec: fc.record({ command: fc.array(fc.string(), { maxLength: 2 }) }),
    grpc: fc.record({ port: fc.integer({ min: 1, max: 65535 }) }),
  },
  { requiredKeys: [] },
);
const probe = fc
  .record(
    {
      handler,
      timeoutSeconds: fc.integer({ min: 0, max: 5 }),
      periodSeconds: fc.integer({ min: 0, max: 5 }),
      successThreshold: fc.integer({ min: 0, max: 2 }),
      failureThreshold: fc.integer({ min: 0, max: 5 }),
    },
    { requiredKeys: ['handler'] },
  )
  .map(({ handler: h, ...rest }) => ({ ...h, ...rest }));
const container = fc.record(
  {
    name: fc.constantFrom('web', 'side', ''),
    image: fc.constantFrom(
      'nginx',
      'nginx:1.25',
      'nginx:latest',
      'Nginx',
      'repo/app@sha256:0123456789abcdef0123456789abcdef',
    ),
    imagePullPolicy: fc.constantFrom('', 'Always', 'Never'),
    ports: fc.array(
      fc.record(
        {
          containerPort: fc.integer({ min: 0, max: 70000 }),
          protocol: fc.constantFrom('', 'UDP'),
          hostPort: fc.integer({ min: 0, max: 9 }),
        },
        { requiredKeys: ['containerPort'] },
      ),
      { maxLength: 2 },
    ),
    resources: fc.record({ limits: resourceList, requests: resourceList }, { requiredKeys: [] }),
    livenessProbe: probe,
    readinessProbe: probe,
    lifecycle: fc.record({ preStop: handler }, { requiredKeys: [] }),
    env: fc.array(
      fc.record({
        name: fc.string(),
        valueFrom: fc.record(
          {
            fieldRef: fc.record(
              { fieldPath: fc.constantFrom('spec.nodeName', 'metadata.name') },
              { requiredKeys: [] },
            ),
          },
          { requiredKeys: [] },
        ),
      }),
      { maxLength: 2 },
    ),
    terminationMessagePath: fc.constantFrom('', '/tmp/x'),
  },
  { requiredKeys: ['name'] },
);
const volume = fc.record(
  {
    name: fc.constantFrom('a', 'b'),
    secret: fc.record(
      { secretName: fc.string(), defaultMode: fc.integer({ min: 0, max: 511 }) },
      { requiredKeys: [] },
    ),
    configMap: fc.record({ name: fc.string() }, { requiredKeys: [] }),
    hostPath: fc.record({ path: fc.constantFrom('/', '/data') }),
    projected: fc.record(
      {
        sources: fc.array(
          fc.record({ serviceAccountToken: fc.record({ path: fc.constant('token') }) }),
          { maxLength: 1 },
        ),
      },
      { requiredKeys: [] },
    ),
    ephemeral: fc.record({
      volumeClaimTemplate: fc.record({
        spec: fc.record({ resources: fc.record({ requests: resourceList }) }),
      }),
    }),
  },
  { requiredKeys: ['name'] },
);
const podSpec = fc.record(
  {
    containers: fc.array(container, { maxLength: 2 }),
    initContainers: fc.array(container, { maxLength: 1 }),
    volumes: fc.array(volume, { maxLength: 2 }),
    restartPolicy: fc.constantFrom('', 'Always', 'Never'),
    hostNetwork: fc.boolean(),
    serviceAccount: fc.constantFrom('', 'builder'),
    serviceAccountName: fc.constantFrom('', 'deployer'),
    tolerations: fc.array(
      fc.record({
        key: fc.constantFrom('', 'node.kubernetes.io/not-ready'),
        operator: fc.constantFrom('Exists', 'Equal'),
        effect: fc.constantFrom('', 'NoExecute'),
      }),
      { maxLength: 2 },
    ),
    priorityClassName: fc.constantFrom('', 'system-node-critical', 'custom'),
    schedulingGates: fc.array(fc.record({ name: fc.constant('example.com/gate') }), {
      maxLength: 1,
    }),
  },
  { requiredKeys: [] },
);
const template = fc.record(
  { metadata: fc.record({ labels: fc.constant({ app: 'web' }) }), spec: podSpec },
  { requiredKeys: [] },
);
const selector = fc.option(fc.constant({ matchLabels: { app: 'web' } }), { nil: undefined });
const intOrString = fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constantFrom('25%', '0%'));
const claimTemplate = fc.record({
  metadata: fc.constant({ name: 'data' }),
  spec: fc.record(
    {
      accessModes: fc.constant(['ReadWriteOnce']),
      resources: fc.record({ requests: resourceList }),
    },
    { requiredKeys: [] },
  ),
});
const workloadSpec = fc.record(
  {
    replicas: fc.integer({ min: -1, max: 5 }),
    selector,
    template,
    strategy: fc.record(
      {
        type: fc.constantFrom('', 'Recreate', 'RollingUpdate'),
        rollingUpdate: fc.record(
          { maxSurge: intOrString, maxUnavailable: intOrString },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    ),
    updateStrategy: fc.record(
      {
        type: fc.constantFrom('', 'OnDelete', 'RollingUpdate'),
        rollingUpdate: fc.record(
          { partition: fc.integer({ min: 0, max: 3 }) },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    ),
    volumeClaimTemplates: fc.array(claimTemplate, { maxLength: 1 }),
    podManagementPolicy: fc.constantFrom('', 'Parallel'),
  },
  { requiredKeys: [] },
);
const serviceSpec = fc.record(
  {
    type: fc.constantFrom('', 'ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'),
    clusterIP: fc.constantFrom('', 'None', '10.96.0.1'),
    selector: fc.option(fc.constant({ app: 'web' }), { nil: undefined }),
    sessionAffinity: fc.constantFrom('', 'None', 'ClientIP'),
    externalIPs: fc.array(fc.constant('1.2.3.4'), { maxLength: 1 }),
    ports: fc.array(
      fc.record(
        {
          port: fc.integer({ min: 0, max: 70000 }),
          targetPort: fc.oneof(fc.integer({ min: 0, max: 9 }), fc.constantFrom('', 'http')),
          protocol: fc.constantFrom('', 'UDP'),
        },
        { requiredKeys: ['port'] },
      ),
      { maxLength: 2 },
    ),
  },
  { requiredKeys: [] },
);
/** A spec that exercises whichever kind it is given to, plus odd shapes. */
const anySpec = fc.oneof(
  { weight: 4, arbitrary: podSpec },
  { weight: 4, arbitrary: workloadSpec },
  { weight: 3, arbitrary: serviceSpec },
  { weight: 1, arbitrary: fc.anything() },
);
const object = fc.record(
  {
    metadata: fc.record(
      {
        name: fc.constantFrom('a', 'web-1', ''),
        namespace: fc.constant('default'),
        labels: fc.option(fc.constant({ x: 'y' }), { nil: undefined }),
      },
      { requiredKeys: [] },
    ),
    spec: anySpec,
    status: fc.oneof(
      fc.constant(undefined),
      fc.record(
        { phase: fc.constantFrom('', 'Bound'), capacity: resourceList },
        { requiredKeys: [] },
      ),
    ),
    data: fc.option(
      fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }),
      { nil: undefined },
    ),
    stringData: fc.option(
      fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }),
      { nil: undefined },
    ),
    subsets: fc.option(
      fc.array(
        fc.record({
          ports: fc.array(fc.record({ port: fc.integer({ min: 1, max: 9 }) }), { maxLength: 2 }),
        }),
        { maxLength: 1 },
      ),
      { nil: undefined },
    ),
  },
  { requiredKeys: [] },
);

function stripUndefined<T>(v: T): T {
  return JSON.parse(JSON.stringify(v ?? null)) as T;
}

describe('defaults are idempotent', () => {
  for (const def of builtinResources) {
    const label = `${def.group || 'core'}/${def.plural}`;
    it(`${label}: defaults(defaults(x)) = defaults(x)`, () => {
      fc.assert(
        fc.property(object, (input) => {
          const once = stripUndefined(input) as KubeObject;
          def.strategy.defaults?.(once);
          const twice = deepCopy(once);
          def.strategy.defaults?.(twice);
          assert.ok(deepEqual(twice, once), JSON.stringify({ once, twice }));
        }),
        { numRuns: 150 },
      );
    });
    it(`${label}: defaults change nothing after a create`, () => {
      fc.assert(
        fc.property(object, (input) => {
          const created = stripUndefined(input) as KubeObject;
          def.strategy.defaults?.(created);
          def.strategy.prepareForCreate?.(created);
          const again = deepCopy(created);
          def.strategy.defaults?.(again);
          assert.ok(deepEqual(again, created), JSON.stringify({ created, again }));
          assert.ok(Array.isArray(def.strategy.validate?.(again) ?? []));
        }),
        { numRuns: 100 },
      );
    });
  }
});
