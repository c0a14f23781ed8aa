import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldErrorText } from '../../api/field-error.js';
import type { KubeObject } from '../../api/object.js';
import { EPHEMERAL, validateEphemeralUpdate } from './pod-ephemeral-containers.js';
import { RESIZE, validateResize } from './pod-resize.js';

const base = {
  containers: [
    { name: 'app', image: 'nginx', resources: { requests: { cpu: '100m', memory: '64Mi' } } },
  ],
};

describe('ephemeralcontainers', () => {
  const cases: { name: string; ephemeral: unknown[]; old?: unknown[]; want: string[] }[] = [
    {
      name: 'adding a debugger',
      ephemeral: [{ name: 'debugger', image: 'busybox', targetContainerName: 'app' }],
      want: [],
    },
    {
      name: 'name and image are required',
      ephemeral: [{}],
      want: [
        'spec.ephemeralContainers[0].name: Required value',
        'spec.ephemeralContainers[0].image: Required value',
      ],
    },
    {
      name: 'a name already taken',
      ephemeral: [{ name: 'app', image: 'busybox' }],
      want: ['spec.ephemeralContainers[0].name: Duplicate value: "app"'],
    },
    {
      name: 'ports and resources are forbidden',
      ephemeral: [
        {
          name: 'd',
          image: 'b',
          ports: [{ containerPort: 80 }],
          resources: { limits: { cpu: '1' } },
        },
      ],
      want: [
        'spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container',
        'spec.ephemeralContainers[0].resources: Forbidden: cannot be set for an Ephemeral Container',
      ],
    },
    {
      name: 'an unknown target',
      ephemeral: [{ name: 'd', image: 'b', targetContainerName: 'nope' }],
      want: ['spec.ephemeralContainers[0].targetContainerName: Not found: "nope"'],
    },
    {
      name: 'removing one',
      ephemeral: [],
      old: [{ name: 'd', image: 'b' }],
      want: [
        'spec.ephemeralContainers: Forbidden: existing ephemeral containers "d" may not be removed\n',
      ],
    },
    {
      name: 'changing one',
      ephemeral: [{ name: 'd', image: 'c' }],
      old: [{ name: 'd', image: 'b' }],
      want: [
        'spec.ephemeralContainers.d: Forbidden: existing ephemeral containers "d" may not be changed\n',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const errors = validateEphemeralUpdate(
        { ...base, ephemeralContainers: c.ephemeral },
        { ...base, ephemeralContainers: c.old ?? [] },
      );
      assert.deepEqual(errors.map(fieldErrorText), c.want);
    });
  }

  it('keeps only spec.ephemeralContainers from the proposed pod', () => {
    const current: KubeObject = {
      metadata: { name: 'p', labels: { a: 'b' } },
      spec: base,
      status: { phase: 'Running' },
    };
    const proposed: KubeObject = {
      metadata: { name: 'p', labels: { changed: 'yes' } },
      spec: { ...base, nodeName: 'elsewhere', ephemeralContainers: [{ name: 'd', image: 'b' }] },
      status: { phase: 'Failed' },
    };
    assert.deepEqual(EPHEMERAL.restrict(proposed, current), {
      ...current,
      spec: { ...base, ephemeralContainers: [{ name: 'd', image: 'b' }] },
    });
  });
});

describe('resize', () => {
  const pod = (resources: unknown, extra: Record<string, unknown> = {}): KubeObject => ({
    metadata: { name: 'p' },
    spec: { containers: [{ name: 'app', image: 'nginx', resources, ...extra }] },
    status: { qosClass: 'Burstable' },
  });
  const old = pod({ requests: { cpu: '100m', memory: '64Mi' } });
  const cases: { name: string; next: KubeObject; want: string[] }[] = [
    { name: 'more cpu', next: pod({ requests: { cpu: '200m', memory: '64Mi' } }), want: [] },
    {
      name: 'removing a request',
      next: pod({ requests: { cpu: '200m' } }),
      want: [
        'spec.containers[0].resources.requests[memory]: Forbidden: resource removal is not allowed',
      ],
    },
    {
      name: 'turning Guaranteed',
      next: pod({
        requests: { cpu: '100m', memory: '64Mi' },
        limits: { cpu: '100m', memory: '64Mi' },
      }),
      want: [
        'spec: Invalid value: "Burstable": Pod QOS Class may not change as a result of resizing',
      ],
    },
    {
      name: 'another resource',
      next: pod({ requests: { cpu: '100m', memory: '64Mi', 'ephemeral-storage': '1Gi' } }),
      want: ['spec: Forbidden: only cpu and memory resources are mutable'],
    },
    {
      name: 'a bad resize policy',
      next: pod(
        { requests: { cpu: '100m', memory: '64Mi' } },
        { resizePolicy: [{ resourceName: 'gpu', restartPolicy: 'Sometimes' }] },
      ),
      want: [
        'spec.containers[0].resizePolicy[0].resourceName: Unsupported value: "gpu": supported values: "cpu", "memory"',
        'spec.containers[0].resizePolicy[0].restartPolicy: Unsupported value: "Sometimes": supported values: "NotRequired", "RestartContainer"',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(validateResize(c.next, old).map(fieldErrorText), c.want));
  }

  it('takes only resources and resizePolicy from the proposed pod', () => {
    const proposed = pod(
      { requests: { cpu: '1' } },
      { image: 'other', resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }] },
    );
    const next = RESIZE.restrict(proposed, old);
    assert.deepEqual(next.spec, {
      containers: [
        {
          name: 'app',
          image: 'nginx',
          resources: { requests: { cpu: '1' } },
          resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }],
        },
      ],
    });
  });
});
