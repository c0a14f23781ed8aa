/**
 * Pod fixtures for the kubelet tests.
 *
 * @module
 */

import type { Container, KubeletPod } from '../kubelet-pod.js';

export function makePod(
  opts: {
    annotations?: Record<string, string>;
    containers?: Container[];
    initContainers?: Container[];
    restartPolicy?: string;
    volumes?: KubeletPod['spec']['volumes'];
  } = {},
): KubeletPod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web',
      namespace: 'default',
      uid: 'uid-1',
      annotations: opts.annotations ?? {},
    },
    spec: {
      nodeName: 'node-1',
      restartPolicy: opts.restartPolicy ?? 'Always',
      terminationGracePeriodSeconds: 30,
      containers: opts.containers ?? [{ name: 'app', image: 'nginx:1.27' }],
      ...(opts.initContainers ? { initContainers: opts.initContainers } : {}),
      ...(opts.volumes ? { volumes: opts.volumes } : {}),
    },
    status: {
      phase: 'Pending',
      conditions: [
        {
          type: 'PodScheduled',
          status: 'True',
          lastProbeTime: null,
          lastTransitionTime: '2025-01-01T00:00:00Z',
        },
      ],
      qosClass: 'BestEffort',
    },
  };
}
