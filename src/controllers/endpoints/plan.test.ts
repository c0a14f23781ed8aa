/**
 * The endpoints planner, table-driven: which pods are listed ready or not ready, ports through
 * `targetPort`, the hostname rule, labels, truncation, and `changed` ignoring what upstream
 * ignores.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EndpointSubset, Endpoints, Pod, Service } from '../../api/model/index.js';
import { changed, type DesiredEndpoints, desiredEndpoints, endpointsToWrite } from './plan.js';
import { NS, pod, service } from './testing/fixtures.js';
import { HEADLESS_LABEL, OVER_CAPACITY_ANNOTATION, TRIGGER_TIME_ANNOTATION } from './types.js';

interface Summary {
  ready: string[];
  notReady: string[];
  ports: string[];
}

function summary(subsets: readonly EndpointSubset[]): Summary[] {
  return subsets.map((s) => ({
    ready: (s.addresses ?? []).map((a) => a.ip),
    notReady: (s.notReadyAddresses ?? []).map((a) => a.ip),
    ports: (s.ports ?? []).map((p) => `${p.name ?? ''}:${p.port}/${p.protocol}`),
  }));
}

function plan(svc: Service, pods: Pod[]): DesiredEndpoints {
  const d = desiredEndpoints(svc, pods);
  assert.ok(d !== undefined);
  return d;
}

const HTTP = ['http:8080/TCP'];

describe('desiredEndpoints', () => {
  const cases: { name: string; svc: Service; pods: Pod[]; want: Summary[] }[] = [
    {
      name: 'ready pods are addresses, sorted by IP',
      svc: service(),
      pods: [pod(1), pod(0)],
      want: [{ ready: ['10.0.0.1', '10.0.0.2'], notReady: [], ports: HTTP }],
    },
    {
      name: 'a not-ready pod is a notReadyAddress',
      svc: service(),
      pods: [pod(0), pod(1, { ready: false })],
      want: [{ ready: ['10.0.0.1'], notReady: ['10.0.0.2'], ports: HTTP }],
    },
    {
      name: 'publishNotReadyAddresses lists a not-ready pod as ready',
      svc: service({ publishNotReadyAddresses: true }),
      pods: [pod(0, { ready: false })],
      want: [{ ready: ['10.0.0.1'], notReady: [], ports: HTTP }],
    },
    {
      name: 'a terminating pod is dropped',
      svc: service(),
      pods: [pod(0), pod(1, { terminating: true })],
      want: [{ ready: ['10.0.0.1'], notReady: [], ports: HTTP }],
    },
    {
      name: 'publishNotReadyAddresses keeps a terminating pod',
      svc: service({ publishNotReadyAddresses: true }),
      pods: [pod(0, { terminating: true, ready: false })],
      want: [{ ready: ['10.0.0.1'], notReady: [], ports: HTTP }],
    },
    {
      name: 'terminal pods are dropped even with publishNotReadyAddresses',
      svc: service({ publishNotReadyAddresses: true }),
      pods: [pod(0, { phase: 'Succeeded' }), pod(1, { phase: 'Failed' })],
      want: [],
    },
    {
      name: 'a pod without an IP is skipped',
      svc: service(),
      pods: [pod(0, { ip: null }), pod(1)],
      want: [{ ready: ['10.0.0.2'], notReady: [], ports: HTTP }],
    },
    {
      name: 'pods the selector does not pick, or in another namespace, are skipped',
      svc: service(),
      pods: [pod(0, { labels: { app: 'db' } }), pod(1, { namespace: 'other' }), pod(2)],
      want: [{ ready: ['10.0.0.3'], notReady: [], ports: HTTP }],
    },
    {
      name: 'a named targetPort resolves per pod; a pod without it is left out',
      svc: service({ ports: [{ name: 'http', port: 80, targetPort: 'web', protocol: 'TCP' }] }),
      pods: [
        pod(0, { ports: [{ name: 'web', containerPort: 8080 }] }),
        pod(1, { ports: [{ name: 'web', containerPort: 9090 }] }),
        pod(2, { ports: [{ name: 'other', containerPort: 8080 }] }),
      ],
      want: [
        { ready: ['10.0.0.1'], notReady: [], ports: HTTP },
        { ready: ['10.0.0.2'], notReady: [], ports: ['http:9090/TCP'] },
      ],
    },
    {
      name: 'a named targetPort needs the same protocol',
      svc: service({ ports: [{ name: 'dns', port: 53, targetPort: 'dns', protocol: 'UDP' }] }),
      pods: [
        pod(0, { ports: [{ name: 'dns', containerPort: 5353 }] }),
        pod(1, { ports: [{ name: 'dns', containerPort: 5353, protocol: 'UDP' }] }),
      ],
      want: [{ ready: ['10.0.0.2'], notReady: [], ports: ['dns:5353/UDP'] }],
    },
    {
      name: 'several ports: the addresses of each port set share a subset',
      svc: service({
        ports: [
          { name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' },
          { name: 'admin', port: 81, targetPort: 'admin', protocol: 'TCP' },
        ],
      }),
      pods: [
        pod(0, { ports: [{ name: 'admin', containerPort: 9000 }] }),
        pod(1, { ports: [{ name: 'admin', containerPort: 9000 }] }),
        pod(2, { ports: [] }),
      ],
      // Upstream packs per port: the pods serving one port share a subset (10.0.0.3 lacks admin).
      want: [
        { ready: ['10.0.0.1', '10.0.0.2', '10.0.0.3'], notReady: [], ports: HTTP },
        { ready: ['10.0.0.1', '10.0.0.2'], notReady: [], ports: ['admin:9000/TCP'] },
      ],
    },
    {
      name: 'several ports served by the same addresses share one subset',
      svc: service({
        ports: [
          { name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' },
          { name: 'admin', port: 81, targetPort: 'admin', protocol: 'TCP' },
        ],
      }),
      pods: [
        pod(0, { ports: [{ name: 'admin', containerPort: 9000 }] }),
        pod(1, { ready: false, ports: [{ name: 'admin', containerPort: 9000 }] }),
      ],
      want: [
        { ready: ['10.0.0.1'], notReady: ['10.0.0.2'], ports: ['admin:9000/TCP', 'http:8080/TCP'] },
      ],
    },
    {
      name: 'a headless Service without ports lists its pods with no ports',
      svc: service({ ports: [] }),
      pods: [pod(0), pod(1, { ready: false })],
      want: [{ ready: ['10.0.0.1'], notReady: ['10.0.0.2'], ports: [] }],
    },
    {
      name: 'a Service with a cluster IP and no ports lists nothing',
      svc: service({ clusterIP: '10.96.0.10', ports: [] }),
      pods: [pod(0)],
      want: [],
    },
    {
      name: 'an IPv6 Service takes the pod IPv6 address; a v4-only pod is skipped',
      svc: service({ ipFamilies: ['IPv6'] }),
      pods: [
        {
          ...pod(0),
          status: {
            phase: 'Running',
            podIPs: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }],
            conditions: [{ type: 'Ready', status: 'True' }],
          },
        },
        pod(1),
      ],
      want: [{ ready: ['fd00::1'], notReady: [], ports: HTTP }],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(summary(plan(c.svc, c.pods).subsets), c.want);
    });
  }

  it('leaves Services without a selector and ExternalName Services alone', () => {
    const { selector: _, ...noSelector } = service().spec as Record<string, unknown>;
    assert.equal(desiredEndpoints({ ...service(), spec: noSelector }, [pod(0)]), undefined);
    assert.equal(desiredEndpoints(service({ selector: {} }), [pod(0)]), undefined);
    assert.equal(
      desiredEndpoints(service({ type: 'ExternalName', externalName: 'x.example' }), [pod(0)]),
      undefined,
    );
  });

  describe('addresses', () => {
    const hostCases: { name: string; pod: Pod; hostname: string | undefined }[] = [
      {
        name: 'hostname and subdomain = the Service: hostname set',
        pod: pod(0, { hostname: 'web-0', subdomain: 'web' }),
        hostname: 'web-0',
      },
      {
        name: 'subdomain names another Service: no hostname',
        pod: pod(0, { hostname: 'web-0', subdomain: 'nginx' }),
        hostname: undefined,
      },
      { name: 'no hostname: none', pod: pod(0, { subdomain: 'web' }), hostname: undefined },
    ];
    for (const c of hostCases) {
      it(c.name, () => {
        const addr = plan(service(), [c.pod]).subsets[0]?.addresses?.[0];
        assert.equal(addr?.hostname, c.hostname);
      });
    }

    it('carries nodeName and a Pod targetRef', () => {
      const addr = plan(service(), [pod(3)]).subsets[0]?.addresses?.[0];
      assert.deepEqual(addr, {
        ip: '10.0.0.4',
        nodeName: 'node-3',
        targetRef: { kind: 'Pod', namespace: NS, name: 'web-3', uid: 'uid-3' },
      });
    });
  });

  it('labels: the Service labels plus the headless label only for a headless Service', () => {
    assert.deepEqual(plan(service(), []).labels, { team: 'a', [HEADLESS_LABEL]: '' });
    assert.deepEqual(plan(service({ clusterIP: '10.96.0.10' }), []).labels, { team: 'a' });
  });

  it('truncates to 1,000 addresses, ready ones first, and says so', () => {
    const pods = Array.from({ length: 1200 }, (_, i) =>
      pod(i, { ip: `10.1.${Math.floor(i / 250)}.${i % 250}`, ready: i < 900 }),
    );
    const d = plan(service(), pods);
    const ready = d.subsets.flatMap((s) => s.addresses ?? []).length;
    const notReady = d.subsets.flatMap((s) => s.notReadyAddresses ?? []).length;
    assert.deepEqual([ready, notReady, d.overCapacity], [900, 100, true]);
    assert.deepEqual([d.ready, d.notReady], [900, 300]);
    const next = endpointsToWrite(service(), undefined, d, undefined);
    assert.equal(next.metadata?.annotations?.[OVER_CAPACITY_ANNOTATION], 'truncated');
    assert.equal(changed(next, d), false);
  });
});

describe('changed', () => {
  const svc = service({
    ports: [
      { name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' },
      { name: 'admin', port: 81, targetPort: 9000, protocol: 'TCP' },
    ],
  });
  const desired = plan(svc, [pod(0), pod(1), pod(2, { ready: false })]);
  const written = endpointsToWrite(svc, undefined, desired, Date.parse('2026-01-01T00:00:10Z'));

  it('is true without an Endpoints, false for what it would write', () => {
    assert.equal(changed(undefined, desired), true);
    assert.equal(changed(written, desired), false);
  });

  it('ignores the order of subsets, addresses and ports, and pods resourceVersions', () => {
    const subsets = (written.subsets as EndpointSubset[]).map((s) => ({
      addresses: [...(s.addresses ?? [])].reverse().map((a) => ({
        ...a,
        targetRef: { ...a.targetRef, kind: 'Pod', resourceVersion: '42' },
      })),
      notReadyAddresses: [...(s.notReadyAddresses ?? [])].reverse(),
      ports: [...(s.ports ?? [])].reverse(),
    }));
    assert.equal(changed({ ...written, subsets: subsets.reverse() }, desired), false);
  });

  it('ignores the trigger-time annotation and other annotations', () => {
    const meta = { ...written.metadata, annotations: { [TRIGGER_TIME_ANNOTATION]: 'x', a: 'b' } };
    assert.equal(changed({ ...written, metadata: meta }, desired), false);
  });

  const moved: { name: string; pods: Pod[]; svc?: Service }[] = [
    { name: 'a pod turned ready', pods: [pod(0), pod(1), pod(2)] },
    { name: 'a pod went', pods: [pod(0), pod(2, { ready: false })] },
    {
      name: 'a pod changed IP',
      pods: [pod(0), pod(1, { ip: '10.9.9.9' }), pod(2, { ready: false })],
    },
    {
      name: 'the Service labels changed',
      pods: [pod(0), pod(1), pod(2, { ready: false })],
      svc: { ...svc, metadata: { ...svc.metadata, labels: { team: 'b' } } },
    },
  ];
  for (const c of moved) {
    it(`is true when ${c.name}`, () => {
      assert.equal(changed(written, plan(c.svc ?? svc, c.pods)), true);
    });
  }

  it('is true when a stale over-capacity annotation remains', () => {
    const meta = { ...written.metadata, annotations: { [OVER_CAPACITY_ANNOTATION]: 'truncated' } };
    assert.equal(changed({ ...written, metadata: meta }, desired), true);
  });
});

describe('endpointsToWrite', () => {
  it('keeps the stored metadata, replaces subsets, sets or clears the trigger time', () => {
    const d = plan(service(), []);
    const current: Endpoints = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: {
        name: 'web',
        namespace: NS,
        resourceVersion: '7',
        annotations: { keep: 'me', [TRIGGER_TIME_ANNOTATION]: 'old' },
      },
      subsets: [{ addresses: [{ ip: '10.0.0.1' }] }],
    };
    const next = endpointsToWrite(service(), current, d, undefined);
    assert.equal(next.subsets, undefined);
    assert.equal(next.metadata?.resourceVersion, '7');
    assert.deepEqual(next.metadata?.annotations, { keep: 'me' });
    const stamped = endpointsToWrite(service(), current, d, Date.parse('2026-01-01T00:00:10Z'));
    assert.equal(stamped.metadata?.annotations?.[TRIGGER_TIME_ANNOTATION], '2026-01-01T00:00:10Z');
  });
});
