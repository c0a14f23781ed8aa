import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import {
  desiredService,
  type KubernetesServiceConfig,
  planEndpointSlices,
  planEndpoints,
  planService,
} from './kubernetes-service.js';

const CONFIG: KubernetesServiceConfig = {
  serviceIP: '10.96.0.1',
  securePort: 6443,
  publicIP: '192.0.2.10',
};
const NO_ADDRESS: KubernetesServiceConfig = { ...CONFIG, publicIP: undefined };

const meta = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  namespace: 'default',
  resourceVersion: '7',
  uid: 'u-1',
  ...extra,
});

function storedService(spec: Record<string, unknown>): KubeObject {
  return { ...desiredService(CONFIG), metadata: meta('kubernetes'), spec };
}

const HTTPS_443 = { name: 'https', protocol: 'TCP', port: 443, targetPort: 6443 };

describe('planService', () => {
  it('creates the Service upstream creates', () => {
    assert.deepEqual(planService(undefined, CONFIG, false), {
      action: 'create',
      object: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: {
          name: 'kubernetes',
          namespace: 'default',
          labels: { component: 'apiserver', provider: 'kubernetes' },
        },
        spec: {
          ports: [HTTPS_443],
          clusterIP: '10.96.0.1',
          ipFamilyPolicy: 'SingleStack',
          sessionAffinity: 'None',
          type: 'ClusterIP',
        },
      },
    });
  });

  const cases: {
    name: string;
    spec: Record<string, unknown>;
    reconcile: boolean;
    want: Record<string, unknown> | undefined;
  }[] = [
    {
      name: 'as created: nothing',
      spec: { type: 'ClusterIP', ports: [HTTPS_443], clusterIP: '10.96.0.1' },
      reconcile: true,
      want: undefined,
    },
    {
      name: 'an old target port, on a start: reset',
      spec: {
        type: 'ClusterIP',
        ports: [{ ...HTTPS_443, targetPort: 1234 }],
        selector: { a: 'b' },
      },
      reconcile: true,
      want: { type: 'ClusterIP', ports: [HTTPS_443], selector: { a: 'b' } },
    },
    {
      name: 'an old target port, later: left alone (upstream reconciles only at start)',
      spec: { type: 'ClusterIP', ports: [{ ...HTTPS_443, targetPort: 1234 }] },
      reconcile: false,
      want: undefined,
    },
    {
      name: 'made NodePort: back to ClusterIP on a start',
      spec: { type: 'NodePort', ports: [{ ...HTTPS_443, nodePort: 30001 }] },
      reconcile: true,
      want: { type: 'ClusterIP', ports: [HTTPS_443] },
    },
    {
      name: 'a second port: reset to the one',
      spec: { type: 'ClusterIP', ports: [HTTPS_443, { name: 'x', port: 80, protocol: 'TCP' }] },
      reconcile: true,
      want: { type: 'ClusterIP', ports: [HTTPS_443] },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const current = storedService(c.spec);
      const plan = planService(current, CONFIG, c.reconcile);
      if (c.want === undefined) {
        assert.equal(plan, undefined);
        return;
      }
      assert.equal(plan?.action, 'update');
      assert.deepEqual(plan.object.spec, c.want);
      assert.deepEqual(plan.object.metadata, current.metadata, 'metadata kept');
    });
  }
});

const ENDPOINT_PORTS = [{ name: 'https', port: 6443, protocol: 'TCP' }];
const SKIP_MIRROR = { 'endpointslice.kubernetes.io/skip-mirror': 'true' };

function storedEndpoints(subsets: unknown, labels: Record<string, string> = SKIP_MIRROR) {
  return {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: meta('kubernetes', { labels }),
    subsets,
  } as KubeObject;
}

describe('planEndpoints', () => {
  it('creates one subset with the advertised address, labelled skip-mirror', () => {
    assert.deepEqual(planEndpoints(undefined, CONFIG, false), {
      action: 'create',
      object: {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name: 'kubernetes', namespace: 'default', labels: SKIP_MIRROR },
        subsets: [{ addresses: [{ ip: '192.0.2.10' }], ports: ENDPOINT_PORTS }],
      },
    });
  });

  it('writes nothing without an address to advertise', () => {
    assert.equal(planEndpoints(undefined, NO_ADDRESS, true), undefined);
  });

  const good = [{ addresses: [{ ip: '192.0.2.10' }], ports: ENDPOINT_PORTS }];
  const cases: {
    name: string;
    current: KubeObject;
    reconcilePorts: boolean;
    want: unknown[] | undefined;
    labels?: Record<string, string>;
  }[] = [
    {
      name: 'as written: nothing',
      current: storedEndpoints(good),
      reconcilePorts: true,
      want: undefined,
    },
    {
      name: 'another address: reset, ports kept',
      current: storedEndpoints([{ addresses: [{ ip: '192.0.2.99' }], ports: ENDPOINT_PORTS }]),
      reconcilePorts: false,
      want: good,
    },
    {
      name: 'an address with a node name: just the IP',
      current: storedEndpoints([
        { addresses: [{ ip: '192.0.2.10', nodeName: 'n' }], ports: ENDPOINT_PORTS },
      ]),
      reconcilePorts: false,
      want: good,
    },
    {
      name: 'an old port, later: kept',
      current: storedEndpoints([
        { addresses: [{ ip: '192.0.2.10' }], ports: [{ name: 'https', port: 1, protocol: 'TCP' }] },
      ]),
      reconcilePorts: false,
      want: undefined,
    },
    {
      name: 'an old port, on a start: reset',
      current: storedEndpoints([
        { addresses: [{ ip: '192.0.2.10' }], ports: [{ name: 'https', port: 1, protocol: 'TCP' }] },
      ]),
      reconcilePorts: true,
      want: good,
    },
    {
      name: 'no ports: filled',
      current: storedEndpoints([{ addresses: [{ ip: '192.0.2.10' }] }]),
      reconcilePorts: false,
      want: good,
    },
    {
      name: 'two subsets: remade',
      current: storedEndpoints([
        ...good,
        { addresses: [{ ip: '192.0.2.11' }], ports: ENDPOINT_PORTS },
      ]),
      reconcilePorts: false,
      want: good,
    },
    {
      name: 'a label added: labels reset',
      current: storedEndpoints(good, { ...SKIP_MIRROR, extra: 'x' }),
      reconcilePorts: false,
      want: good,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const plan = planEndpoints(c.current, CONFIG, c.reconcilePorts);
      if (c.want === undefined) {
        assert.equal(plan, undefined);
        return;
      }
      assert.equal(plan?.action, 'update');
      assert.deepEqual(plan.object.subsets, c.want);
      assert.deepEqual(plan.object.metadata?.labels, SKIP_MIRROR);
      assert.equal(plan.object.metadata?.uid, 'u-1', 'the stored object is the base');
    });
  }
});

const SERVICE_LABEL = { 'kubernetes.io/service-name': 'kubernetes' };
const SLICE_PORTS = ENDPOINT_PORTS;
const SLICE_ENDPOINTS = [{ addresses: ['192.0.2.10'], conditions: { ready: true } }];

function slice(
  name: string,
  fields: Record<string, unknown> = {},
  labels: Record<string, string> = SERVICE_LABEL,
) {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: meta(name, { labels }),
    addressType: 'IPv4',
    endpoints: SLICE_ENDPOINTS,
    ports: SLICE_PORTS,
    ...fields,
  } as KubeObject;
}

describe('planEndpointSlices', () => {
  it('creates the slice: one ready endpoint, only the service-name label (no managed-by)', () => {
    assert.deepEqual(planEndpointSlices([], CONFIG, false), {
      delete: [],
      write: {
        action: 'create',
        object: {
          apiVersion: 'discovery.k8s.io/v1',
          kind: 'EndpointSlice',
          metadata: { name: 'kubernetes', namespace: 'default', labels: SERVICE_LABEL },
          addressType: 'IPv4',
          endpoints: SLICE_ENDPOINTS,
          ports: SLICE_PORTS,
        },
      },
    });
  });

  it('writes and deletes nothing without an address to advertise', () => {
    assert.deepEqual(planEndpointSlices([slice('other')], NO_ADDRESS, true), {
      delete: [],
      write: undefined,
    });
  });

  const cases: {
    name: string;
    slices: KubeObject[];
    reconcilePorts: boolean;
    wantDelete: string[];
    want: 'none' | 'create' | Record<string, unknown>;
  }[] = [
    {
      name: 'as written: nothing',
      slices: [slice('kubernetes')],
      reconcilePorts: true,
      wantDelete: [],
      want: 'none',
    },
    {
      name: 'another slice labelled for the Service: deleted',
      slices: [slice('kubernetes'), slice('kubernetes-x')],
      reconcilePorts: false,
      wantDelete: ['kubernetes-x'],
      want: 'none',
    },
    {
      name: 'the own slice as IPv6: deleted and made again',
      slices: [slice('kubernetes', { addressType: 'IPv6' })],
      reconcilePorts: false,
      wantDelete: ['kubernetes'],
      want: 'create',
    },
    {
      name: 'its label removed: relabelled',
      slices: [slice('kubernetes', {}, { app: 'x' })],
      reconcilePorts: false,
      wantDelete: [],
      want: { labels: SERVICE_LABEL },
    },
    {
      name: 'a managed-by label added: labels reset',
      slices: [
        slice(
          'kubernetes',
          {},
          {
            ...SERVICE_LABEL,
            'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
          },
        ),
      ],
      reconcilePorts: false,
      wantDelete: [],
      want: { labels: SERVICE_LABEL },
    },
    {
      name: 'another address or a not-ready one: reset',
      slices: [
        slice('kubernetes', {
          endpoints: [{ addresses: ['192.0.2.99'], conditions: { ready: false } }],
        }),
      ],
      reconcilePorts: false,
      wantDelete: [],
      want: { endpoints: SLICE_ENDPOINTS },
    },
    {
      name: 'an old port, later: kept',
      slices: [slice('kubernetes', { ports: [{ name: 'https', port: 1, protocol: 'TCP' }] })],
      reconcilePorts: false,
      wantDelete: [],
      want: 'none',
    },
    {
      name: 'an old port, on a start: reset',
      slices: [slice('kubernetes', { ports: [{ name: 'https', port: 1, protocol: 'TCP' }] })],
      reconcilePorts: true,
      wantDelete: [],
      want: { ports: SLICE_PORTS },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const plan = planEndpointSlices(c.slices, CONFIG, c.reconcilePorts);
      assert.deepEqual(plan.delete, c.wantDelete);
      if (c.want === 'none') {
        assert.equal(plan.write, undefined);
        return;
      }
      if (c.want === 'create') {
        assert.equal(plan.write?.action, 'create');
        return;
      }
      assert.equal(plan.write?.action, 'update');
      const object = plan.write.object as Record<string, unknown>;
      const got: Record<string, unknown> = {
        ...object,
        labels: plan.write.object.metadata?.labels,
      };
      for (const [field, value] of Object.entries(c.want)) assert.deepEqual(got[field], value);
      assert.equal(plan.write.object.metadata?.uid, 'u-1', 'the stored object is the base');
    });
  }
});
