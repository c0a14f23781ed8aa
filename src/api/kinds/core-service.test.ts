import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { serviceResource } from './core-service.js';
import { simulateCreate, simulateUpdate } from './harness.js';

type Spec = Record<string, unknown>;
const svc = (spec: Spec = {}, name = 'web'): KubeObject => ({
  metadata: { name, namespace: 'default' },
  spec: { selector: { app: 'web' }, ports: [{ port: 80 }], ...spec },
});
const create = (obj: KubeObject) => simulateCreate(serviceResource, obj);

describe('Service defaults', () => {
  it('applies SetDefaults_Service for ClusterIP', () => {
    const ports = [
      { name: 'http', port: 80 },
      { name: 'https', port: 443, targetPort: 'https' },
    ];
    const { object, errors } = create(svc({ ports }));
    assert.deepEqual(errors, []);
    assert.deepEqual(object.spec, {
      selector: { app: 'web' },
      ports: [
        { name: 'http', port: 80, protocol: 'TCP', targetPort: 80 },
        { name: 'https', port: 443, targetPort: 'https', protocol: 'TCP' },
      ],
      sessionAffinity: 'None',
      type: 'ClusterIP',
      internalTrafficPolicy: 'Cluster',
      ipFamilyPolicy: 'SingleStack',
    });
    assert.deepEqual(object.status, { loadBalancer: {} });
  });

  it('defaults LoadBalancer and ClientIP fields', () => {
    const { object } = create(svc({ type: 'LoadBalancer', sessionAffinity: 'ClientIP' }));
    const spec = object.spec as Spec;
    assert.equal(spec.externalTrafficPolicy, 'Cluster');
    assert.equal(spec.allocateLoadBalancerNodePorts, true);
    assert.deepEqual(spec.sessionAffinityConfig, { clientIP: { timeoutSeconds: 10800 } });
  });

  it('picks RequireDualStack for a headless Service without selector, nothing for ExternalName', () => {
    assert.equal(
      (create(svc({ clusterIP: 'None', selector: undefined })).object.spec as Spec).ipFamilyPolicy,
      'RequireDualStack',
    );
    const ext = create({
      metadata: { name: 'ext', namespace: 'default' },
      spec: { type: 'ExternalName', externalName: 'example.com' },
    });
    assert.deepEqual(ext.messages, []);
    assert.equal((ext.object.spec as Spec).ipFamilyPolicy, undefined);
    assert.deepEqual((create(svc({ clusterIP: 'None' })).object.spec as Spec).clusterIPs, ['None']);
  });
});

describe('Service validation', () => {
  const cases: { name: string; input: KubeObject; want: string[] }[] = [
    {
      name: 'DNS-1035 names',
      input: svc({}, '1web'),
      want: [
        `metadata.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
      ],
    },
    { name: 'ports required', input: svc({ ports: [] }), want: ['spec.ports: Required value'] },
    {
      name: 'several ports need names',
      input: svc({ ports: [{ port: 80 }, { port: 81 }] }),
      want: ['spec.ports[0].name: Required value', 'spec.ports[1].name: Required value'],
    },
    {
      name: 'port range',
      input: svc({ ports: [{ port: 0, targetPort: 8080 }] }),
      want: ['spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive'],
    },
    {
      name: 'duplicate port',
      input: svc({
        ports: [
          { name: 'a', port: 80 },
          { name: 'b', port: 80 },
        ],
      }),
      want: ['spec.ports[1]: Duplicate value: {"protocol":"TCP","port":80}'],
    },
    {
      name: 'nodePort on ClusterIP',
      input: svc({ ports: [{ port: 80, nodePort: 30080 }] }),
      want: ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"],
    },
    {
      name: 'unknown type',
      input: svc({ type: 'Magic' }),
      want: [
        'spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
      ],
    },
    {
      name: 'ExternalName needs a name',
      input: svc({ type: 'ExternalName', ports: [] }),
      want: ['spec.externalName: Required value'],
    },
    {
      name: 'source ranges only for LoadBalancer',
      input: svc({ loadBalancerSourceRanges: ['10.0.0.0/8'] }),
      want: [
        "spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'",
      ],
    },
    {
      name: 'headless NodePort',
      input: svc({ type: 'NodePort', clusterIP: 'None' }),
      want: [
        `spec.clusterIPs[0]: Invalid value: "None": may not be set to 'None' for NodePort services`,
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(create(c.input).messages, c.want));
  }

  it('keeps the cluster IP once set', () => {
    const stored = create(svc({ clusterIP: '10.96.0.10' })).object;
    const next = structuredClone(stored);
    (next.spec as Spec).clusterIP = '10.96.0.11';
    (next.spec as Spec).clusterIPs = ['10.96.0.11'];
    assert.deepEqual(simulateUpdate(serviceResource, next, stored).messages, [
      'spec.clusterIPs[0]: Invalid value: ["10.96.0.11"]: may not change once set',
    ]);
    const relabel = structuredClone(stored);
    relabel.metadata = { ...relabel.metadata, labels: { a: 'b' } };
    assert.deepEqual(simulateUpdate(serviceResource, relabel, stored).messages, []);
  });
});
