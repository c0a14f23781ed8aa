import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rejectedStatus } from './admission-status.js';
import type { KubeletPod as Pod, PodStatus } from './kubelet-pod.js';
import { makePod } from './testing/pods.js';
import { T0 } from './testing/simulate.js';

const rejection = {
  reason: 'NodePorts',
  message: "Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports",
};

const gate = {
  type: 'example.com/gate',
  status: 'True' as const,
  lastProbeTime: null,
  lastTransitionTime: '2025-01-01T00:00:00Z',
};

function withStatus(status: PodStatus, containers?: Pod['spec']['containers']): Pod {
  const p = makePod(containers ? { containers } : {});
  return { ...p, status };
}

describe('rejectedStatus', () => {
  const cases: { name: string; pod: Pod; want: PodStatus }[] = [
    {
      name: 'a pod the scheduler bound: PodScheduled goes, startTime is now',
      pod: makePod(),
      want: {
        phase: 'Failed',
        message:
          "Pod was rejected: Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports",
        reason: 'NodePorts',
        startTime: '2025-01-01T00:00:00Z',
        qosClass: 'BestEffort',
      },
    },
    {
      name: 'a pod bound by nodeName with no status: the QoS class is computed',
      pod: withStatus({}, [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '1' } } }]),
      want: {
        phase: 'Failed',
        message:
          "Pod was rejected: Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports",
        reason: 'NodePorts',
        startTime: '2025-01-01T00:00:00Z',
        qosClass: 'Burstable',
      },
    },
    {
      name: "other owners' conditions and an earlier startTime stay; IPs and containers go",
      pod: withStatus({
        phase: 'Running',
        startTime: '2024-12-31T00:00:00Z',
        conditions: [{ ...gate, type: 'Ready' }, gate],
        podIP: '10.244.1.5',
        qosClass: 'Guaranteed',
        containerStatuses: [],
      }),
      want: {
        phase: 'Failed',
        conditions: [gate],
        message:
          "Pod was rejected: Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports",
        reason: 'NodePorts',
        startTime: '2024-12-31T00:00:00Z',
        qosClass: 'Guaranteed',
      },
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(rejectedStatus(c.pod, rejection, T0), c.want));
  }
});
