import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { type AdmitResult, admitPod } from './admission.js';
import { NODE, pod, simNode } from './testing/admission-fixtures.js';

interface Case {
  name: string;
  pod: KubeObject;
  node?: KubeObject;
  admitted?: KubeObject[];
  /** [reason, message]; undefined = admitted. */
  want?: [string, string];
}

const PORTS =
  "Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports";
const AFFINITY = "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector";
const TAINTS = "Predicate TaintToleration failed: node(s) had taints that the pod didn't tolerate";
const enough = (r: string, req: bigint | number, used: bigint | number, cap: bigint | number) =>
  `Node didn't have enough resource: ${r}, requested: ${req}, used: ${used}, capacity: ${cap}`;

const port80 = [{ hostPort: 80 }];
const sidecar = (ports: object[]) => ({
  initContainers: [{ name: 'side', image: 'envoy', restartPolicy: 'Always', ports }],
});

const cases: Case[] = [
  { name: 'a plain pod on an empty node', pod: pod('p') },
  {
    name: 'the same hostPort (TCP, any IP) is taken',
    pod: pod('p', { ports: port80 }),
    admitted: [pod('a', { ports: port80 })],
    want: ['NodePorts', PORTS],
  },
  {
    name: 'another protocol, or two distinct host IPs, do not conflict',
    pod: pod('p', {
      ports: [
        { hostPort: 80, protocol: 'UDP' },
        { hostPort: 81, hostIP: '10.0.0.2' },
      ],
    }),
    admitted: [pod('a', { ports: [{ hostPort: 80 }, { hostPort: 81, hostIP: '10.0.0.1' }] })],
  },
  {
    name: 'a specific host IP conflicts with the wildcard',
    pod: pod('p', { ports: [{ hostPort: 80, hostIP: '10.0.0.2' }] }),
    admitted: [pod('a', { ports: [{ hostPort: 80, hostIP: '0.0.0.0' }] })],
    want: ['NodePorts', PORTS],
  },
  {
    name: "a sidecar's hostPort is held by the pod",
    pod: pod('p', { ports: port80 }),
    admitted: [pod('a', { spec: sidecar(port80) })],
    want: ['NodePorts', PORTS],
  },
  {
    name: "a plain init container's hostPort is not held",
    pod: pod('p', { ports: port80 }),
    admitted: [
      pod('a', { spec: { initContainers: [{ name: 'i', image: 'busybox', ports: port80 }] } }),
    ],
  },
  {
    name: 'terminal pods, pods of other nodes and the pod itself hold nothing',
    pod: pod('p', { ports: port80 }),
    admitted: [
      pod('done', { ports: port80, phase: 'Succeeded' }),
      pod('failed', { ports: port80, phase: 'Failed' }),
      pod('elsewhere', { ports: port80, node: 'fleetyard-node-2' }),
      pod('p', { ports: port80 }),
    ],
  },
  {
    name: 'cpu over allocatable, in millicores',
    pod: pod('p', { requests: { cpu: '5' } }),
    want: ['OutOfcpu', enough('cpu', 5000, 0, 4000)],
  },
  {
    name: 'cpu used by the admitted pods counts',
    pod: pod('p', { requests: { cpu: '1500m' } }),
    admitted: [pod('a', { requests: { cpu: '3' } }), pod('b', { requests: { memory: '1Gi' } })],
    want: ['OutOfcpu', enough('cpu', 1500, 3000, 4000)],
  },
  {
    name: 'cpu that just fits',
    pod: pod('p', { requests: { cpu: '1' } }),
    admitted: [pod('a', { requests: { cpu: '3' } })],
  },
  {
    name: 'memory over allocatable, in bytes',
    pod: pod('p', { requests: { memory: '20Gi' } }),
    want: ['OutOfmemory', enough('memory', 21474836480n, 0, 17179869184n)],
  },
  {
    name: 'ephemeral-storage',
    pod: pod('p', { requests: { 'ephemeral-storage': '101Gi' } }),
    want: ['OutOfephemeral-storage', enough('ephemeral-storage', 108447924224n, 0, 107374182400n)],
  },
  {
    name: 'pods: checked first, also for a pod that requests nothing',
    pod: pod('p', { requests: { cpu: '5' } }),
    node: simNode({ capacity: { pods: '2' } }),
    admitted: [pod('a'), pod('b')],
    want: ['OutOfpods', enough('pods', 1, 2, 2)],
  },
  {
    name: 'an unrequested resource is not checked on an overcommitted node',
    pod: pod('p', { requests: { memory: '1Gi' } }),
    admitted: [pod('a', { requests: { cpu: '6' } })],
  },
  {
    name: 'hugepages the node lists at 0',
    pod: pod('p', { requests: { 'hugepages-2Mi': '2Mi', memory: '2Mi' } }),
    want: ['OutOfhugepages-2Mi', enough('hugepages-2Mi', 2097152, 0, 0)],
  },
  {
    name: 'an extended resource the node does not list is ignored',
    pod: pod('p', { requests: { 'example.com/gpu': '2' } }),
  },
  {
    name: 'an extended resource the node lists is checked',
    pod: pod('p', { requests: { 'example.com/gpu': '2' } }),
    node: simNode({ capacity: { 'example.com/gpu': '1' } as Record<string, string> }),
    want: ['OutOfexample.com/gpu', enough('example.com/gpu', 2, 0, 1)],
  },
  {
    name: 'nodeSelector mismatch',
    pod: pod('p', { spec: { nodeSelector: { disk: 'ssd' } } }),
    want: ['NodeAffinity', AFFINITY],
  },
  {
    name: 'nodeSelector and required affinity that match the node',
    pod: pod('p', {
      spec: {
        nodeSelector: { 'kubernetes.io/hostname': NODE },
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                {
                  matchExpressions: [
                    { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['local-a'] },
                  ],
                },
              ],
            },
          },
        },
      },
    }),
  },
  {
    name: 'required affinity by field that names another node',
    pod: pod('p', {
      spec: {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['other'] }] },
              ],
            },
          },
        },
      },
    }),
    want: ['NodeAffinity', AFFINITY],
  },
  {
    name: 'a pod bound to another node',
    pod: pod('p', { node: 'elsewhere' }),
    want: ['NodeName', "Predicate NodeName failed: node(s) didn't match the requested node name"],
  },
  {
    name: 'an untolerated NoExecute taint',
    pod: pod('p'),
    node: simNode({ taints: [{ key: 'dedicated', value: 'db', effect: 'NoExecute' }] }),
    want: ['TaintToleration', TAINTS],
  },
  {
    name: 'NoSchedule and PreferNoSchedule taints are the scheduler’s, not the kubelet’s',
    pod: pod('p'),
    node: simNode({
      taints: [
        { key: 'dedicated', value: 'db', effect: 'NoSchedule' },
        { key: 'soft', effect: 'PreferNoSchedule' },
      ],
    }),
  },
  {
    name: 'a NoExecute taint tolerated for a while is tolerated',
    pod: pod('p', {
      spec: {
        tolerations: [
          { key: 'dedicated', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 },
        ],
      },
    }),
    node: simNode({ taints: [{ key: 'dedicated', value: 'db', effect: 'NoExecute' }] }),
  },
  {
    name: 'order: resources before node affinity',
    pod: pod('p', { requests: { cpu: '5' }, spec: { nodeSelector: { disk: 'ssd' } } }),
    want: ['OutOfcpu', enough('cpu', 5000, 0, 4000)],
  },
  {
    name: 'order: node affinity before ports, ports before taints',
    pod: pod('p', { ports: port80, spec: { nodeSelector: { disk: 'ssd' } } }),
    node: simNode({ taints: [{ key: 'k', effect: 'NoExecute' }] }),
    admitted: [pod('a', { ports: port80 })],
    want: ['NodeAffinity', AFFINITY],
  },
  {
    name: 'order: ports before taints',
    pod: pod('p', { ports: port80 }),
    node: simNode({ taints: [{ key: 'k', effect: 'NoExecute' }] }),
    admitted: [pod('a', { ports: port80 })],
    want: ['NodePorts', PORTS],
  },
  {
    name: 'a kubernetes.io/os label other than linux',
    pod: pod('p', { labels: { 'kubernetes.io/os': 'windows' }, requests: { cpu: '5' } }),
    want: [
      'PodOSSelectorNodeLabelDoesNotMatch',
      "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label",
    ],
  },
  {
    name: 'a kubernetes.io/os label linux',
    pod: pod('p', { labels: { 'kubernetes.io/os': 'linux' } }),
  },
  {
    name: 'spec.os.name windows',
    pod: pod('p', { spec: { os: { name: 'windows' } } }),
    want: ['PodOSNotSupported', "Failed to admit pod as the OS field doesn't match node OS"],
  },
  {
    name: 'an unsafe sysctl, before everything else',
    pod: pod('p', {
      requests: { cpu: '5' },
      spec: { securityContext: { sysctls: [{ name: 'kernel.msgmax', value: '65536' }] } },
    }),
    want: ['SysctlForbidden', 'forbidden sysctl: "kernel.msgmax" not allowlisted'],
  },
  {
    name: 'safe sysctls, also in the slash form',
    pod: pod('p', {
      spec: {
        securityContext: {
          sysctls: [
            { name: 'net/ipv4/tcp_syncookies', value: '1' },
            { name: 'kernel.shm_rmid_forced', value: '1' },
          ],
        },
      },
    }),
  },
  {
    name: 'a net sysctl on the host network',
    pod: pod('p', {
      spec: {
        hostNetwork: true,
        securityContext: { sysctls: [{ name: 'net.ipv4.tcp_syncookies', value: '1' }] },
      },
    }),
    want: [
      'SysctlForbidden',
      'forbidden sysctl: "net.ipv4.tcp_syncookies" not allowed with host net enabled',
    ],
  },
  {
    name: 'an IPC sysctl with the host IPC namespace',
    pod: pod('p', {
      spec: {
        hostIPC: true,
        securityContext: { sysctls: [{ name: 'kernel.shm_rmid_forced', value: '1' }] },
      },
    }),
    want: [
      'SysctlForbidden',
      'forbidden sysctl: "kernel.shm_rmid_forced" not allowed with host ipc enabled',
    ],
  },
];

describe('admitPod', () => {
  for (const c of cases) {
    it(c.name, () => {
      const got: AdmitResult = admitPod(c.pod, c.node ?? simNode(), c.admitted ?? []);
      const want: AdmitResult = c.want
        ? { admit: false, reason: c.want[0], message: c.want[1] }
        : { admit: true };
      assert.deepEqual(got, want);
    });
  }
});
