/**
 * Rows of every built-in printer except pods (see `print-pod.test.ts`), with fixtures and
 * expectations modelled on upstream `printers_test.go`.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { builtinPrinter } from './registry.js';

const NOW = new Date('2024-05-01T12:00:00Z');
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000).toISOString();
const CREATED = ago(3 * 3600 + 20 * 60); // age "3h20m"

function object(body: Record<string, unknown>, metadata: Record<string, unknown> = {}): KubeObject {
  return {
    metadata: { name: 'x', namespace: 'default', creationTimestamp: CREATED, ...metadata },
    ...body,
  };
}

interface Case {
  readonly name: string;
  readonly group: string;
  readonly kind: string;
  readonly obj: KubeObject;
  readonly cells: unknown[];
}

const template = {
  spec: {
    containers: [
      { name: 'web', image: 'nginx:1.27' },
      { name: 'sidecar', image: 'envoy:v1' },
    ],
  },
};

const cases: Case[] = [
  {
    name: 'deployment',
    group: 'apps',
    kind: 'Deployment',
    obj: object({
      spec: { replicas: 5, selector: { matchLabels: { app: 'web', tier: 'fe' } }, template },
      status: { replicas: 10, updatedReplicas: 2, availableReplicas: 1, readyReplicas: 1 },
    }),
    cells: ['x', '1/5', 2, 1, '3h20m', 'web,sidecar', 'nginx:1.27,envoy:v1', 'app=web,tier=fe'],
  },
  {
    name: 'deployment without a selector',
    group: 'apps',
    kind: 'Deployment',
    obj: object({ spec: {}, status: {} }),
    cells: ['x', '0/0', 0, 0, '3h20m', '', '', ''],
  },
  {
    name: 'replicaset',
    group: 'apps',
    kind: 'ReplicaSet',
    obj: object({
      spec: {
        replicas: 5,
        selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'api'] }] },
        template,
      },
      status: { replicas: 5, readyReplicas: 2 },
    }),
    cells: ['x', 5, 5, 2, '3h20m', 'web,sidecar', 'nginx:1.27,envoy:v1', 'app in (api,web)'],
  },
  {
    name: 'replicaset with an empty selector',
    group: 'apps',
    kind: 'ReplicaSet',
    obj: object({ spec: { selector: {} }, status: {} }),
    cells: ['x', 0, 0, 0, '3h20m', '', '', '<none>'],
  },
  {
    name: 'statefulset',
    group: 'apps',
    kind: 'StatefulSet',
    obj: object({ spec: { replicas: 3, template }, status: { replicas: 3, readyReplicas: 2 } }),
    cells: ['x', '2/3', '3h20m', 'web,sidecar', 'nginx:1.27,envoy:v1'],
  },
  {
    name: 'controllerrevision owned by a statefulset',
    group: 'apps',
    kind: 'ControllerRevision',
    obj: object(
      { revision: 3 },
      {
        ownerReferences: [
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'not-controller', uid: '1' },
          { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: '2', controller: true },
        ],
      },
    ),
    cells: ['x', 'statefulset.apps/db', 3, '3h20m'],
  },
  {
    name: 'controllerrevision without controller',
    group: 'apps',
    kind: 'ControllerRevision',
    obj: object({ revision: 1 }),
    cells: ['x', '<none>', 1, '3h20m'],
  },
  {
    name: 'ClusterIP service',
    group: '',
    kind: 'Service',
    obj: object({
      spec: {
        type: 'ClusterIP',
        clusterIPs: ['10.96.0.10'],
        ports: [
          { port: 80, protocol: 'TCP' },
          { port: 53, protocol: 'UDP' },
        ],
        selector: { app: 'web' },
      },
    }),
    cells: ['x', 'ClusterIP', '10.96.0.10', '<none>', '80/TCP,53/UDP', '3h20m', 'app=web'],
  },
  {
    name: 'NodePort service with external IPs',
    group: '',
    kind: 'Service',
    obj: object({
      spec: {
        type: 'NodePort',
        clusterIPs: ['10.96.0.11'],
        externalIPs: ['1.2.3.4', '5.6.7.8'],
        ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }],
      },
    }),
    cells: ['x', 'NodePort', '10.96.0.11', '1.2.3.4,5.6.7.8', '80:30080/TCP', '3h20m', '<none>'],
  },
  {
    name: 'LoadBalancer service pending',
    group: '',
    kind: 'Service',
    obj: object({ spec: { type: 'LoadBalancer', clusterIPs: ['10.96.0.12'], ports: [] } }),
    cells: ['x', 'LoadBalancer', '10.96.0.12', '<pending>', '<none>', '3h20m', '<none>'],
  },
  {
    name: 'LoadBalancer service with ingress and external IPs (not clipped)',
    group: '',
    kind: 'Service',
    obj: object({
      spec: { type: 'LoadBalancer', clusterIPs: ['10.96.0.12'], externalIPs: ['9.9.9.9'] },
      status: {
        loadBalancer: {
          ingress: [
            { ip: '3.3.3.3' },
            { hostname: 'a-very-long-hostname.example.com' },
            { ip: '3.3.3.3' },
          ],
        },
      },
    }),
    cells: [
      'x',
      'LoadBalancer',
      '10.96.0.12',
      '3.3.3.3,a-very-long-hostname.example.com,9.9.9.9',
      '<none>',
      '3h20m',
      '<none>',
    ],
  },
  {
    name: 'ExternalName service without cluster IP',
    group: '',
    kind: 'Service',
    obj: object({ spec: { type: 'ExternalName', externalName: 'db.example.com' } }),
    cells: ['x', 'ExternalName', '<none>', 'db.example.com', '<none>', '3h20m', '<none>'],
  },
  {
    name: 'endpoints with more than three addresses',
    group: '',
    kind: 'Endpoints',
    obj: object({
      subsets: [
        {
          addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }],
          ports: [{ port: 80 }, { port: 443 }],
        },
        { addresses: [{ ip: 'fd00::1' }] },
      ],
    }),
    cells: ['x', '10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 2 more...', '3h20m'],
  },
  {
    name: 'endpoints, IPv6 and headless',
    group: '',
    kind: 'Endpoints',
    obj: object({
      subsets: [
        { addresses: [{ ip: 'fd00::1' }], ports: [{ port: 8080 }] },
        { addresses: [{ ip: '10.0.0.9' }] },
      ],
    }),
    cells: ['x', '[fd00::1]:8080,10.0.0.9', '3h20m'],
  },
  {
    name: 'endpoints without subsets',
    group: '',
    kind: 'Endpoints',
    obj: object({}),
    cells: ['x', '<none>', '3h20m'],
  },
  {
    name: 'ready, cordoned control-plane node',
    group: '',
    kind: 'Node',
    obj: object(
      {
        spec: { unschedulable: true },
        status: {
          conditions: [
            { type: 'MemoryPressure', status: 'False' },
            { type: 'Ready', status: 'True' },
          ],
          addresses: [
            { type: 'Hostname', address: 'n1' },
            { type: 'InternalIP', address: '192.168.0.2' },
          ],
          nodeInfo: {
            kubeletVersion: 'v1.31.0',
            osImage: 'Debian',
            kernelVersion: '6.1',
            containerRuntimeVersion: 'containerd://1.7',
          },
        },
      },
      {
        labels: {
          'node-role.kubernetes.io/control-plane': '',
          'kubernetes.io/role': 'master',
          'node-role.kubernetes.io/': 'x',
        },
      },
    ),
    cells: [
      'x',
      'Ready,SchedulingDisabled',
      'control-plane,master',
      '3h20m',
      'v1.31.0',
      '192.168.0.2',
      '<none>',
      'Debian',
      '6.1',
      'containerd://1.7',
    ],
  },
  {
    name: 'node without conditions',
    group: '',
    kind: 'Node',
    obj: object({ status: { conditions: [{ type: 'Ready', status: 'Unknown' }] } }),
    cells: [
      'x',
      'NotReady',
      '<none>',
      '3h20m',
      '',
      '<none>',
      '<none>',
      '<unknown>',
      '<unknown>',
      '<unknown>',
    ],
  },
  {
    name: 'namespace',
    group: '',
    kind: 'Namespace',
    obj: object({ status: { phase: 'Active' } }),
    cells: ['x', 'Active', '3h20m'],
  },
  {
    name: 'configmap counts data and binaryData',
    group: '',
    kind: 'ConfigMap',
    obj: object({ data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } }),
    cells: ['x', 3, '3h20m'],
  },
  {
    name: 'secret',
    group: '',
    kind: 'Secret',
    obj: object({ type: 'Opaque', data: { a: 'YQ==' } }),
    cells: ['x', 'Opaque', 1, '3h20m'],
  },
  {
    name: 'serviceaccount',
    group: '',
    kind: 'ServiceAccount',
    obj: object({ secrets: [{ name: 's1' }] }),
    cells: ['x', 1, '3h20m'],
  },
  {
    name: 'bound pvc',
    group: '',
    kind: 'PersistentVolumeClaim',
    obj: object({
      spec: {
        volumeName: 'pv-1',
        storageClassName: 'standard',
        volumeMode: 'Filesystem',
        resources: { requests: { storage: '1Gi' } },
      },
      status: {
        phase: 'Bound',
        capacity: { storage: '2048Mi' },
        accessModes: ['ReadWriteMany', 'ReadWriteOnce'],
      },
    }),
    cells: ['x', 'Bound', 'pv-1', '2Gi', 'RWO,RWX', 'standard', '<unset>', '3h20m', 'Filesystem'],
  },
  {
    name: 'pending pvc, beta class annotation, deleting',
    group: '',
    kind: 'PersistentVolumeClaim',
    obj: object(
      {
        spec: { storageClassName: 'fast', volumeAttributesClassName: 'gold' },
        status: { phase: 'Pending' },
      },
      {
        annotations: { 'volume.beta.kubernetes.io/storage-class': 'beta' },
        deletionTimestamp: ago(1),
      },
    ),
    cells: ['x', 'Terminating', '', '', '', 'beta', 'gold', '3h20m', '<unset>'],
  },
  {
    name: 'pv',
    group: '',
    kind: 'PersistentVolume',
    obj: object({
      spec: {
        capacity: { storage: '10Gi' },
        accessModes: ['ReadWriteOncePod', 'ReadOnlyMany'],
        persistentVolumeReclaimPolicy: 'Retain',
        claimRef: { namespace: 'db', name: 'data-db-0' },
        storageClassName: 'standard',
        volumeMode: 'Block',
      },
      status: { phase: 'Bound' },
    }),
    cells: [
      'x',
      '10Gi',
      'ROX,RWOP',
      'Retain',
      'Bound',
      'db/data-db-0',
      'standard',
      '<unset>',
      '',
      '3h20m',
      'Block',
    ],
  },
  {
    name: 'pv without capacity',
    group: '',
    kind: 'PersistentVolume',
    obj: object({ spec: {}, status: { phase: 'Failed', reason: 'Oops' } }),
    cells: ['x', '0', '', '', 'Failed', '', '', '<unset>', 'Oops', '3h20m', '<unset>'],
  },
  {
    name: 'default storageclass with defaults',
    group: 'storage.k8s.io',
    kind: 'StorageClass',
    obj: object(
      { provisioner: 'rancher.io/local-path' },
      { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
    ),
    cells: ['x (default)', 'rancher.io/local-path', 'Delete', 'Immediate', false, '3h20m'],
  },
  {
    name: 'storageclass',
    group: 'storage.k8s.io',
    kind: 'StorageClass',
    obj: object({
      provisioner: 'csi.example.com',
      reclaimPolicy: 'Retain',
      volumeBindingMode: 'WaitForFirstConsumer',
      allowVolumeExpansion: true,
    }),
    cells: ['x', 'csi.example.com', 'Retain', 'WaitForFirstConsumer', true, '3h20m'],
  },
  {
    name: 'core event',
    group: '',
    kind: 'Event',
    obj: object({
      involvedObject: { kind: 'Pod', name: 'web-0', fieldPath: 'spec.containers{web}' },
      reason: 'Pulled',
      type: 'Normal',
      message: ' Container image pulled \n',
      source: { component: 'kubelet', host: 'node-1' },
      firstTimestamp: ago(3600),
      lastTimestamp: ago(60),
      count: 4,
    }),
    cells: [
      '60s',
      'Normal',
      'Pulled',
      'pod/web-0',
      'spec.containers{web}',
      'kubelet, node-1',
      'Container image pulled',
      '60m',
      4,
      'x',
    ],
  },
  {
    name: 'core event without timestamps but an eventTime, singleton',
    group: '',
    kind: 'Event',
    obj: object({
      involvedObject: { kind: 'Node' },
      reason: 'Starting',
      type: 'Normal',
      eventTime: '2024-05-01T11:59:00.123456Z',
      reportingComponent: 'kube-proxy',
      reportingInstance: 'n1',
    }),
    cells: ['59s', 'Normal', 'Starting', 'node', '', 'kube-proxy, n1', '', '59s', 1, 'x'],
  },
  {
    name: 'events.k8s.io event with series',
    group: 'events.k8s.io',
    kind: 'Event',
    obj: object({
      regarding: { kind: 'Deployment', name: 'web' },
      reason: 'ScalingReplicaSet',
      type: 'Normal',
      note: 'Scaled up',
      eventTime: ago(600),
      reportingController: 'deployment-controller',
      series: { count: 7, lastObservedTime: ago(10) },
    }),
    cells: [
      '10s',
      'Normal',
      'ScalingReplicaSet',
      'deployment/web',
      '',
      'deployment-controller',
      'Scaled up',
      '10m',
      7,
      'x',
    ],
  },
  {
    name: 'lease',
    group: 'coordination.k8s.io',
    kind: 'Lease',
    obj: object({ spec: { holderIdentity: 'node-1' } }),
    cells: ['x', 'node-1', '3h20m'],
  },
  {
    name: 'pdb with minAvailable percent',
    group: 'policy',
    kind: 'PodDisruptionBudget',
    obj: object({ spec: { minAvailable: '50%' }, status: { disruptionsAllowed: 2 } }),
    cells: ['x', '50%', 'N/A', 2, '3h20m'],
  },
  {
    name: 'pdb with maxUnavailable int',
    group: 'policy',
    kind: 'PodDisruptionBudget',
    obj: object({ spec: { maxUnavailable: 1 }, status: {} }),
    cells: ['x', 'N/A', '1', 0, '3h20m'],
  },
  {
    name: 'networkpolicy',
    group: 'networking.k8s.io',
    kind: 'NetworkPolicy',
    obj: object({ spec: { podSelector: { matchLabels: { role: 'db' } } } }),
    cells: ['x', 'role=db', '3h20m'],
  },
  {
    name: 'networkpolicy selecting all pods',
    group: 'networking.k8s.io',
    kind: 'NetworkPolicy',
    obj: object({ spec: { podSelector: {} } }),
    cells: ['x', '<none>', '3h20m'],
  },
  {
    name: 'kind without printer: default table',
    group: 'apiextensions.k8s.io',
    kind: 'CustomResourceDefinition',
    obj: object({}, { creationTimestamp: '2024-04-30T08:09:10.5+02:00' }),
    cells: ['x', '2024-04-30T06:09:10Z'],
  },
];

describe('built-in printers', () => {
  for (const c of cases) {
    it(c.name, () => {
      const printer = builtinPrinter(c.group, c.kind);
      const row = printer.row(c.obj, NOW);
      assert.deepEqual(row.cells, c.cells);
      assert.equal(row.cells.length, printer.columns.length, 'one cell per column');
    });
  }
});
