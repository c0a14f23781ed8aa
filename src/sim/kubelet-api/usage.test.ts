import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Node, Pod } from '../../api/model/index.js';
import { usageList } from '../../apiserver/handlers/metrics-api.js';
import { CPU_USAGE_ANNOTATION, MEMORY_USAGE_ANNOTATION, nodeUsage, podUsage } from './usage.js';

function pod(annotations: Record<string, string> = {}, phase = 'Running'): Pod {
  const running = { running: { startedAt: '2026-12-01T10:00:00Z' } };
  const status = (name: string) => ({
    name,
    image: 'i',
    imageID: '',
    ready: true,
    restartCount: 0,
    state: running,
  });
  return {
    metadata: { name: 'web', namespace: 'default', annotations },
    spec: {
      nodeName: 'node-1',
      containers: [
        { name: 'app', image: 'i', resources: { requests: { cpu: '250m', memory: '64Mi' } } },
        { name: 'side', image: 'i' },
      ],
    },
    status: { phase, containerStatuses: [status('app'), status('side')] },
  };
}

const MI = 1024n * 1024n;

describe('podUsage', () => {
  const cases: { name: string; pod: Pod; want: [string, bigint, bigint][] | undefined }[] = [
    {
      name: 'requests, or 1m and 4Mi',
      pod: pod(),
      want: [
        ['app', 250_000_000n, 64n * MI],
        ['side', 1_000_000n, 4n * MI],
      ],
    },
    {
      name: 'a pod-wide override is shared evenly',
      pod: pod({ [CPU_USAGE_ANNOTATION]: '1', [MEMORY_USAGE_ANNOTATION]: '100Mi' }),
      want: [
        ['app', 500_000_000n, 50n * MI],
        ['side', 500_000_000n, 50n * MI],
      ],
    },
    {
      name: 'per-container overrides',
      pod: pod({ [CPU_USAGE_ANNOTATION]: 'side=300m' }),
      want: [
        ['app', 250_000_000n, 64n * MI],
        ['side', 300_000_000n, 4n * MI],
      ],
    },
    {
      name: 'a bad value is ignored',
      pod: pod({ [CPU_USAGE_ANNOTATION]: 'lots' }),
      want: [
        ['app', 250_000_000n, 64n * MI],
        ['side', 1_000_000n, 4n * MI],
      ],
    },
    { name: 'a pod not running has no metrics', pod: pod({}, 'Pending'), want: undefined },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = podUsage(c.pod)?.map((u) => [u.name, u.cpuNanoCores, u.memoryBytes]);
      assert.deepEqual(got, c.want);
    });
  }
});

describe('nodeUsage', () => {
  const node = (ready: string, annotations: Record<string, string> = {}): Node => ({
    metadata: { name: 'node-1', annotations },
    status: { conditions: [{ type: 'Ready', status: ready }] },
  });
  it('sums its pods', () => {
    assert.deepEqual(nodeUsage(node('True'), [pod(), pod()]), {
      cpuNanoCores: 502_000_000n,
      memoryBytes: 136n * MI,
    });
  });
  it('is not reported when not Ready or down', () => {
    assert.equal(nodeUsage(node('False'), [pod()]), undefined);
    assert.equal(
      nodeUsage(node('True', { 'sim.fleetyard.dev/state': 'down' }), [pod()]),
      undefined,
    );
  });
});

describe('usageList (metrics-server quantities)', () => {
  const cases: [bigint, bigint, { cpu: string; memory: string }][] = [
    [250_000_000n, 64n * MI, { cpu: '250m', memory: '64Mi' }],
    [3_374_249n, 12_345n * 1024n, { cpu: '3374249n', memory: '12345Ki' }],
    [2_000_000_000n, 100_000_000n, { cpu: '2', memory: '100000000' }],
    [0n, 0n, { cpu: '0', memory: '0' }],
  ];
  for (const [cpu, memory, want] of cases) {
    it(`${want.cpu} ${want.memory}`, () => assert.deepEqual(usageList(cpu, memory), want));
  }
});
