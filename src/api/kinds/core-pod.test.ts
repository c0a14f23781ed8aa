import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { podResource } from './core-pod.js';
import { simulateCreate, simulateUpdate } from './harness.js';

type Spec = Record<string, unknown>;
const container = (extra: Spec = {}): Spec => ({ name: 'web', image: 'nginx:1.25', ...extra });
const pod = (spec: Spec = {}, meta: Spec = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'default', ...meta },
  spec: { containers: [container()], ...spec },
});
const create = (obj: KubeObject) => simulateCreate(podResource, obj);

describe('Pod defaults and creation', () => {
  it('fills what kubectl get -o yaml shows', () => {
    const { object, errors } = create(pod());
    assert.deepEqual(errors, []);
    assert.deepEqual(object.spec, {
      containers: [
        {
          name: 'web',
          image: 'nginx:1.25',
          imagePullPolicy: 'IfNotPresent',
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          resources: {},
        },
      ],
      dnsPolicy: 'ClusterFirst',
      restartPolicy: 'Always',
      securityContext: {},
      terminationGracePeriodSeconds: 30,
      schedulerName: 'default-scheduler',
      enableServiceLinks: true,
      priority: 0,
      preemptionPolicy: 'PreemptLowerPriority',
      serviceAccountName: 'default',
      serviceAccount: 'default',
    });
    assert.deepEqual(object.status, { phase: 'Pending', qosClass: 'BestEffort' });
  });

  const pullPolicies: [string, string][] = [
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['registry.example.com:5000/team/app:v1', 'IfNotPresent'],
    [
      'nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
      'IfNotPresent',
    ],
    ['Nginx', 'IfNotPresent'],
  ];
  for (const [image, want] of pullPolicies) {
    it(`pull policy for ${image.slice(0, 30)} is ${want}`, () => {
      const { object } = create(pod({ containers: [container({ image })] }));
      assert.equal((object.spec as { containers: Spec[] }).containers[0]?.imagePullPolicy, want);
    });
  }

  it('defaults probes, ports, volumes and env field refs', () => {
    const { object, errors } = create(
      pod({
        containers: [
          container({
            ports: [{ containerPort: 80 }],
            readinessProbe: { httpGet: { port: 80 } },
            livenessProbe: { grpc: { port: 9000 } },
            env: [{ name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
            volumeMounts: [
              { name: 'cfg', mountPath: '/etc/cfg' },
              { name: 'scratch', mountPath: '/tmp' },
            ],
          }),
        ],
        volumes: [{ name: 'cfg', configMap: { name: 'cfg' } }, { name: 'scratch' }],
      }),
    );
    assert.deepEqual(errors, []);
    const c = (object.spec as { containers: Spec[] }).containers[0] as Spec;
    assert.deepEqual(c.ports, [{ containerPort: 80, protocol: 'TCP' }]);
    assert.deepEqual(c.readinessProbe, {
      httpGet: { port: 80, path: '/', scheme: 'HTTP' },
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    });
    assert.deepEqual((c.livenessProbe as Spec).grpc, { port: 9000, service: '' });
    assert.deepEqual(c.env, [
      { name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName', apiVersion: 'v1' } } },
    ]);
    assert.deepEqual((object.spec as Spec).volumes, [
      { name: 'cfg', configMap: { name: 'cfg', defaultMode: 420 } },
      { name: 'scratch', emptyDir: {} },
    ]);
  });

  const qos: [Spec, string][] = [
    [{}, 'BestEffort'],
    [{ limits: { cpu: '1', memory: '1Gi' } }, 'Guaranteed'],
    [
      { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } },
      'Burstable',
    ],
    [{ requests: { cpu: '100m' } }, 'Burstable'],
  ];
  for (const [resources, want] of qos) {
    it(`qosClass ${want} for ${JSON.stringify(resources)}`, () => {
      const { object } = create(pod({ containers: [container({ resources })] }));
      assert.equal((object.status as Spec).qosClass, want);
    });
  }

  it('keeps tolerations that already cover the node taints, and adds the gated condition', () => {
    const { object } = create(
      pod({
        tolerations: [{ operator: 'Exists' }],
        schedulingGates: [{ name: 'example.com/wait' }],
      }),
    );
    assert.deepEqual((object.spec as Spec).tolerations, [{ operator: 'Exists' }]);
    assert.deepEqual(
      (object.status as { conditions: Spec[] }).conditions[0]?.reason,
      'SchedulingGated',
    );
  });

  it('copies limits to missing requests and canonicalises quantities', () => {
    const { object } = create(
      pod({
        containers: [
          container({
            resources: { limits: { cpu: 1, memory: '1024Mi' }, requests: { cpu: '100u' } },
          }),
        ],
      }),
    );
    assert.deepEqual((object.spec as { containers: Spec[] }).containers[0]?.resources, {
      limits: { cpu: '1', memory: '1Gi' },
      requests: { cpu: '1m', memory: '1Gi' },
    });
  });
});

describe('Pod validation', () => {
  const cases: { name: string; spec: Spec; want: string[] }[] = [
    { name: 'no containers', spec: { containers: [] }, want: ['spec.containers: Required value'] },
    {
      name: 'container name and image',
      spec: { containers: [{ name: '' }] },
      want: ['spec.containers[0].name: Required value', 'spec.containers[0].image: Required value'],
    },
    {
      name: 'container name format',
      spec: { containers: [container({ name: 'Web_1' })] },
      want: [
        `spec.containers[0].name: Invalid value: "Web_1": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      ],
    },
    {
      name: 'duplicate container names',
      spec: { containers: [container(), container()] },
      want: ['spec.containers[1].name: Duplicate value: "web"'],
    },
    {
      name: 'ports out of range',
      spec: {
        containers: [
          container({ ports: [{ containerPort: 70000 }, { containerPort: 80, hostPort: -1 }] }),
        ],
      },
      want: [
        'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'spec.containers[0].ports[1].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive',
      ],
    },
    {
      name: 'restart policy',
      spec: { restartPolicy: 'Sometimes' },
      want: [
        'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      ],
    },
    {
      name: 'requests above limits',
      spec: {
        containers: [container({ resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } })],
      },
      want: [
        'spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
      ],
    },
    {
      name: 'bad quantity',
      spec: { containers: [container({ resources: { limits: { memory: '1 GB' } } })] },
      // Requests default to limits, so the bad value is reported twice.
      want: ['limits', 'requests'].map(
        (list) =>
          `spec.containers[0].resources.${list}[memory]: Invalid value: "1 GB": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
      ),
    },
    {
      name: 'mount of an unknown volume',
      spec: { containers: [container({ volumeMounts: [{ name: 'data', mountPath: '/data' }] })] },
      want: ['spec.containers[0].volumeMounts[0].name: Not found: "data"'],
    },
    {
      name: 'probe without handler',
      spec: { containers: [container({ livenessProbe: { periodSeconds: 5 } })] },
      want: ['spec.containers[0].livenessProbe: Required value: must specify a handler type'],
    },
    {
      name: 'liveness success threshold',
      spec: {
        containers: [
          container({ livenessProbe: { exec: { command: ['true'] }, successThreshold: 2 } }),
        ],
      },
      want: ['spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1'],
    },
    {
      name: 'env from nothing',
      spec: { containers: [container({ env: [{ name: 'A', valueFrom: {} }] })] },
      want: [
        'spec.containers[0].env[0].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
      ],
    },
    {
      name: 'tolerations',
      spec: {
        tolerations: [
          { key: 'k', operator: 'Exists', value: 'v' },
          { operator: 'Equal', effect: 'NoSchedule', tolerationSeconds: 5 },
        ],
      },
      want: [
        `spec.tolerations[0].operator: Invalid value: "v": value must be empty when \`operator\` is 'Exists'`,
        'spec.tolerations[1].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
        `spec.tolerations[1].effect: Invalid value: "NoSchedule": effect must be 'NoExecute' when \`tolerationSeconds\` is set`,
      ],
    },
    {
      name: 'active deadline',
      spec: { activeDeadlineSeconds: 0 },
      want: [
        'spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive',
      ],
    },
    {
      name: 'two volume sources',
      spec: { volumes: [{ name: 'v', emptyDir: {}, secret: { secretName: 's' } }] },
      want: ['spec.volumes[0].secret: Forbidden: may not specify more than 1 volume type'],
    },
    {
      name: 'host network ports',
      spec: {
        hostNetwork: true,
        containers: [container({ ports: [{ containerPort: 80, hostPort: 81 }] })],
      },
      want: [
        'spec.containers[0].ports[0].hostPort: Invalid value: 81: must match `containerPort` when `hostNetwork` is true',
      ],
    },
    {
      name: 'init container probes need restartPolicy Always',
      spec: {
        initContainers: [container({ name: 'init', readinessProbe: { exec: { command: ['x'] } } })],
      },
      want: [
        'spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
      ],
    },
    {
      name: 'image whitespace (pods only)',
      spec: { containers: [container({ image: ' nginx ' })] },
      want: [
        'spec.containers[0].image: Invalid value: " nginx ": must not have leading or trailing whitespace',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(create(pod(c.spec)).messages, c.want));
  }

  it('checks pod-specific annotations', () => {
    assert.deepEqual(
      create(pod({}, { annotations: { 'controller.kubernetes.io/pod-deletion-cost': 'x' } }))
        .messages,
      [
        'metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "x": must be a 32bit integer',
      ],
    );
  });
});

describe('Pod updates', () => {
  // Tolerations as the DefaultTolerationSeconds admission leaves them.
  const stored = create(
    pod({
      activeDeadlineSeconds: 100,
      tolerations: [
        {
          key: 'node.kubernetes.io/not-ready',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
      ],
    }),
  ).object;
  const edit = (f: (spec: Spec) => void): KubeObject => {
    const next = structuredClone(stored);
    f(next.spec as Spec);
    return next;
  };
  it('allows image changes, added tolerations and a lower deadline', () => {
    const next = edit((s) => {
      (s.containers as Spec[])[0] = { ...(s.containers as Spec[])[0], image: 'nginx:1.26' };
      (s.tolerations as Spec[]).push({ key: 'k', operator: 'Exists' });
      s.activeDeadlineSeconds = 50;
    });
    assert.deepEqual(simulateUpdate(podResource, next, stored).messages, []);
  });
  it('forbids other spec changes with upstream text', () => {
    const next = edit((s) => {
      s.nodeName = 'n1';
    });
    const [msg, ...rest] = simulateUpdate(podResource, next, stored).messages;
    assert.deepEqual(rest, []);
    assert.ok(
      msg?.startsWith(
        'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n',
      ),
      msg,
    );
    assert.ok(msg?.includes('+ spec.nodeName: "n1"'));
  });
  it('rejects a higher deadline, removed tolerations and new containers', () => {
    assert.deepEqual(
      simulateUpdate(
        podResource,
        edit((s) => {
          s.activeDeadlineSeconds = 200;
        }),
        stored,
      ).messages,
      [
        'spec.activeDeadlineSeconds: Invalid value: 200: must be less than or equal to previous value',
      ],
    );
    assert.deepEqual(
      simulateUpdate(
        podResource,
        edit((s) => {
          s.tolerations = [];
        }),
        stored,
      ).messages,
      [
        'spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds',
      ],
    );
    const added = edit(
      (s) => void (s.containers as Spec[]).push({ ...(s.containers as Spec[])[0], name: 'b' }),
    );
    assert.deepEqual(simulateUpdate(podResource, added, stored).messages, [
      'spec.containers: Forbidden: pod updates may not add or remove containers',
    ]);
  });
});

describe('Pod field selectors', () => {
  it('renders values as upstream', () => {
    const fields = podResource.strategy.selectableFields?.({
      spec: { nodeName: 'n1', hostNetwork: true, restartPolicy: 'Never' },
      status: { phase: 'Running', podIPs: [{ ip: '10.0.0.5' }], podIP: '10.0.0.5' },
    });
    assert.equal(fields?.['spec.nodeName'], 'n1');
    assert.equal(fields?.['spec.hostNetwork'], 'true');
    assert.equal(fields?.['status.podIP'], '10.0.0.5');
    assert.equal(fields?.['status.phase'], 'Running');
    assert.equal(podResource.strategy.selectableFields?.({})?.['spec.hostNetwork'], 'false');
  });
});
