import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import {
  printAPIService,
  printCertificateSigningRequest,
  printComponentStatus,
  printCSIDriver,
  printCSINode,
  printCSIStorageCapacity,
  printFlowSchema,
  printIngress,
  printIngressClass,
  printIPAddress,
  printPodTemplate,
  printPriorityLevelConfiguration,
  printRuntimeClass,
  printServiceCIDR,
  printVolumeAttachment,
} from './print-cluster-api.js';
import { builtinPrinter } from './registry.js';

const NOW = new Date('2025-06-01T12:00:00Z');
const meta = (name: string) => ({ name, creationTimestamp: '2025-06-01T11:00:00Z' });

const cases: [string, (o: KubeObject, now: Date) => { cells: unknown[] }, KubeObject, unknown[]][] =
  [
    [
      'an Ingress with TLS, four hosts and two addresses',
      printIngress,
      {
        metadata: meta('web'),
        spec: {
          ingressClassName: 'nginx',
          rules: ['a.io', 'b.io', '', 'c.io', 'd.io'].map((host) => ({ host })),
          tls: [{ hosts: ['a.io'] }],
        },
        status: { loadBalancer: { ingress: [{ ip: '10.0.0.2' }, { hostname: 'lb.example.com' }] } },
      },
      ['web', 'nginx', 'a.io,b.io,c.io + 2 more...', '10.0.0.2,lb.example.com', '80, 443', '60m'],
    ],
    [
      'an Ingress without class or hosts',
      printIngress,
      { metadata: meta('web'), spec: { defaultBackend: {} } },
      ['web', '<none>', '*', '', '80', '60m'],
    ],
    [
      'an IngressClass with parameters',
      printIngressClass,
      {
        metadata: meta('nginx'),
        spec: {
          controller: 'k8s.io/ingress-nginx',
          parameters: { apiGroup: 'a.io', kind: 'P', name: 'p' },
        },
      },
      ['nginx', 'k8s.io/ingress-nginx', 'P.a.io/p', '60m'],
    ],
    [
      'an IngressClass without parameters',
      printIngressClass,
      { metadata: meta('nginx'), spec: { controller: 'k8s.io/ingress-nginx' } },
      ['nginx', 'k8s.io/ingress-nginx', '<none>', '60m'],
    ],
    [
      'a PodTemplate',
      (o) => printPodTemplate(o),
      {
        metadata: meta('pt'),
        template: {
          metadata: { labels: { b: '2', a: '1' } },
          spec: {
            containers: [
              { name: 'c', image: 'nginx' },
              { name: 'd', image: 'busybox' },
            ],
          },
        },
      },
      ['pt', 'c,d', 'nginx,busybox', 'a=1,b=2'],
    ],
    [
      'an unhealthy component',
      (o) => printComponentStatus(o),
      {
        metadata: meta('etcd-0'),
        conditions: [{ type: 'Healthy', status: 'False', error: 'down' }],
      },
      ['etcd-0', 'Unhealthy', '', 'down'],
    ],
    [
      'a ServiceCIDR',
      printServiceCIDR,
      { metadata: meta('kubernetes'), spec: { cidrs: ['10.96.0.0/12', 'fd00::/108'] } },
      ['kubernetes', '10.96.0.0/12,fd00::/108', '60m'],
    ],
    [
      'an IPAddress of a Service',
      (o) => printIPAddress(o),
      {
        metadata: meta('10.96.0.1'),
        spec: {
          parentRef: { group: '', resource: 'services', namespace: 'default', name: 'kubernetes' },
        },
      },
      ['10.96.0.1', 'services/default/kubernetes'],
    ],
    [
      'an IPAddress of a grouped resource',
      (o) => printIPAddress(o),
      {
        metadata: meta('10.0.0.9'),
        spec: {
          parentRef: { group: 'gateway.networking.k8s.io', resource: 'Gateways', name: 'gw' },
        },
      },
      ['10.0.0.9', 'gateways.gateway.networking.k8s.io/gw'],
    ],
    [
      'a RuntimeClass',
      printRuntimeClass,
      { metadata: meta('gvisor'), handler: 'runsc' },
      ['gvisor', 'runsc', '60m'],
    ],
    [
      'a CSIDriver as defaulted',
      printCSIDriver,
      {
        metadata: meta('d.csi.io'),
        spec: {
          attachRequired: false,
          podInfoOnMount: true,
          storageCapacity: true,
          requiresRepublish: false,
          volumeLifecycleModes: ['Persistent', 'Ephemeral'],
          tokenRequests: [{ audience: 'a' }, { audience: 'b' }],
        },
      },
      ['d.csi.io', false, true, true, 'a,b', false, 'Persistent,Ephemeral', '60m'],
    ],
    [
      'a bare CSIDriver',
      printCSIDriver,
      { metadata: meta('d.csi.io'), spec: {} },
      ['d.csi.io', true, false, false, '<unset>', false, '<none>', '60m'],
    ],
    [
      'a CSINode',
      printCSINode,
      { metadata: meta('n1'), spec: { drivers: [{ name: 'a' }, { name: 'b' }] } },
      ['n1', 2, '60m'],
    ],
    [
      'a VolumeAttachment',
      printVolumeAttachment,
      {
        metadata: meta('va'),
        spec: { attacher: 'd.csi.io', nodeName: 'n1', source: { persistentVolumeName: 'pv1' } },
        status: { attached: true },
      },
      ['va', 'd.csi.io', 'pv1', 'n1', true, '60m'],
    ],
    [
      'a CSIStorageCapacity without capacity',
      (o) => printCSIStorageCapacity(o),
      { metadata: meta('c'), storageClassName: 'standard' },
      ['c', 'standard', '<unset>'],
    ],
    [
      'an approved and issued CSR',
      printCertificateSigningRequest,
      {
        metadata: meta('jane'),
        spec: {
          signerName: 'example.com/s',
          username: 'kubernetes-admin',
          expirationSeconds: 86400,
        },
        status: { conditions: [{ type: 'Approved', status: 'True' }], certificate: 'Zm9v' },
      },
      ['jane', '60m', 'example.com/s', 'kubernetes-admin', '24h', 'Approved,Issued'],
    ],
    [
      'a denied and failed CSR',
      printCertificateSigningRequest,
      {
        metadata: meta('jane'),
        spec: { signerName: 'example.com/s', username: 'u' },
        status: {
          conditions: [
            { type: 'Denied', status: 'True' },
            { type: 'Failed', status: 'True' },
          ],
        },
      },
      ['jane', '60m', 'example.com/s', 'u', '<none>', 'Denied,Failed'],
    ],
    [
      'a local APIService',
      printAPIService,
      {
        metadata: meta('v1.apps'),
        spec: { group: 'apps', version: 'v1' },
        status: { conditions: [{ type: 'Available', status: 'True', reason: 'Local' }] },
      },
      ['v1.apps', 'Local', 'True', '60m'],
    ],
    [
      'an unavailable aggregated APIService',
      printAPIService,
      {
        metadata: meta('v1beta1.metrics.k8s.io'),
        spec: { service: { namespace: 'kube-system', name: 'metrics-server' } },
        status: {
          conditions: [{ type: 'Available', status: 'False', reason: 'MissingEndpoints' }],
        },
      },
      ['v1beta1.metrics.k8s.io', 'kube-system/metrics-server', 'False (MissingEndpoints)', '60m'],
    ],
    [
      'a FlowSchema',
      printFlowSchema,
      {
        metadata: meta('exempt'),
        spec: { priorityLevelConfiguration: { name: 'exempt' }, matchingPrecedence: 1 },
        status: { conditions: [{ type: 'Dangling', status: 'False' }] },
      },
      ['exempt', 'exempt', 1, '<none>', '60m', 'False'],
    ],
    [
      'a FlowSchema never checked',
      printFlowSchema,
      {
        metadata: meta('x'),
        spec: {
          priorityLevelConfiguration: { name: 'p' },
          matchingPrecedence: 9,
          distinguisherMethod: { type: 'ByUser' },
        },
      },
      ['x', 'p', 9, 'ByUser', '60m', '?'],
    ],
    [
      'a queuing priority level',
      printPriorityLevelConfiguration,
      {
        metadata: meta('global-default'),
        spec: {
          type: 'Limited',
          limited: {
            nominalConcurrencyShares: 20,
            limitResponse: {
              type: 'Queue',
              queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 },
            },
          },
        },
      },
      ['global-default', 'Limited', 20, 128, 6, 50, '60m'],
    ],
    [
      'the exempt priority level',
      printPriorityLevelConfiguration,
      { metadata: meta('exempt'), spec: { type: 'Exempt', exempt: {} } },
      ['exempt', 'Exempt', '<none>', '<none>', '<none>', '<none>', '60m'],
    ],
  ];

describe('cluster API printers', () => {
  for (const [name, print, obj, cells] of cases) {
    it(`prints ${name}`, () => {
      assert.deepEqual(print(obj, NOW).cells, cells);
    });
  }

  const columns: [string, string, string[]][] = [
    ['networking.k8s.io', 'Ingress', ['Name', 'Class', 'Hosts', 'Address', 'Ports', 'Age']],
    ['networking.k8s.io', 'IngressClass', ['Name', 'Controller', 'Parameters', 'Age']],
    ['networking.k8s.io', 'ServiceCIDR', ['Name', 'CIDRs', 'Age']],
    ['networking.k8s.io', 'IPAddress', ['Name', 'ParentRef']],
    ['', 'PodTemplate', ['Name', 'Containers', 'Images', 'Pod Labels']],
    ['', 'ComponentStatus', ['Name', 'Status', 'Message', 'Error']],
    ['node.k8s.io', 'RuntimeClass', ['Name', 'Handler', 'Age']],
    [
      'storage.k8s.io',
      'CSIDriver',
      [
        'Name',
        'AttachRequired',
        'PodInfoOnMount',
        'StorageCapacity',
        'TokenRequests',
        'RequiresRepublish',
        'Modes',
        'Age',
      ],
    ],
    ['storage.k8s.io', 'CSINode', ['Name', 'Drivers', 'Age']],
    ['storage.k8s.io', 'VolumeAttachment', ['Name', 'Attacher', 'PV', 'Node', 'Attached', 'Age']],
    ['storage.k8s.io', 'CSIStorageCapacity', ['Name', 'StorageClassName', 'Capacity']],
    [
      'certificates.k8s.io',
      'CertificateSigningRequest',
      ['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition'],
    ],
    ['apiregistration.k8s.io', 'APIService', ['Name', 'Service', 'Available', 'Age']],
    [
      'flowcontrol.apiserver.k8s.io',
      'FlowSchema',
      ['Name', 'PriorityLevel', 'MatchingPrecedence', 'DistinguisherMethod', 'Age', 'MissingPL'],
    ],
    [
      'flowcontrol.apiserver.k8s.io',
      'PriorityLevelConfiguration',
      ['Name', 'Type', 'NominalConcurrencyShares', 'Queues', 'HandSize', 'QueueLengthLimit', 'Age'],
    ],
  ];
  for (const [group, kind, names] of columns) {
    it(`registers ${kind}'s columns`, () => {
      const printer = builtinPrinter(group, kind);
      assert.deepEqual(
        printer.columns.map((c) => c.name),
        names,
      );
      assert.ok(
        printer.columns.every((c) => c.description !== ''),
        'every column is described',
      );
    });
  }
});
