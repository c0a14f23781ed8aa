/**
 * The resolver over Services and EndpointSlices built by the EndpointSlice planner from
 * StatefulSet-like pods, including every row of upstream's StatefulSet DNS table (its documentation).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asKind, type Pod, type Service } from '../api/model/index.js';
import { desiredGroups, planSlices } from '../controllers/endpointslice/index.js';
import { type DnsSnapshot, podDnsNames, resolveName } from './index.js';

interface PodOpts {
  readonly ready?: boolean;
}

function service(ns: string, name: string, spec: Record<string, unknown> = {}): Service {
  return asKind(
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace: ns, uid: `svc-${ns}-${name}` },
      spec: {
        clusterIP: 'None',
        selector: { app: name },
        ports: [{ name: 'web', port: 80 }],
        ...spec,
      },
    },
    'Service',
  );
}

/** StatefulSet `set`'s pod `ordinal`, governed by Service `governing`. */
function setPod(ns: string, set: string, governing: string, ordinal: number, o: PodOpts = {}): Pod {
  const name = `${set}-${ordinal}`;
  return asKind(
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: ns, uid: `${ns}-${name}`, labels: { app: governing } },
      spec: {
        hostname: name,
        subdomain: governing,
        nodeName: 'node-a',
        containers: [{ name: 'c', image: 'nginx' }],
      },
      status: {
        phase: 'Running',
        podIP: `10.${ns.length}.0.${ordinal + 1}`,
        conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }],
      },
    },
    'Pod',
  );
}

/** The slices the controller would create for each Service over the pods. */
function snapshot(services: Service[], pods: Pod[]): DnsSnapshot {
  const endpointSlices = services.flatMap((svc) =>
    planSlices(
      svc,
      [],
      desiredGroups(svc, pods, () => undefined),
    ).create.map((s, i) => ({
      ...s,
      metadata: { ...s.metadata, name: `${svc.metadata?.name}-${i}` },
    })),
  );
  return { services, endpointSlices };
}

const N = 3;
const ordinals = Array.from({ length: N }, (_, i) => i);

describe('resolveName: the DNS table of the StatefulSet documentation', () => {
  const rows = [
    { domain: 'cluster.local', ns: 'default' },
    { domain: 'cluster.local', ns: 'foo' },
    { domain: 'kube.local', ns: 'foo' },
  ];
  for (const { domain, ns } of rows) {
    it(`${domain}, ${ns}/nginx + ${ns}/web`, () => {
      const pods = ordinals.map((i) => setPod(ns, 'web', 'nginx', i));
      const snap = snapshot([service(ns, 'nginx')], pods);
      for (const [i, pod] of pods.entries()) {
        const name = `web-${i}.nginx.${ns}.svc.${domain}`;
        assert.deepEqual(podDnsNames(pod, snap.services, domain), [name]);
        assert.deepEqual(resolveName(name, snap, domain), {
          name,
          addresses: [`10.${ns.length}.0.${i + 1}`],
        });
      }
      assert.deepEqual(resolveName(`nginx.${ns}.svc.${domain}`, snap, domain), {
        name: `nginx.${ns}.svc.${domain}`,
        addresses: ordinals.map((i) => `10.${ns.length}.0.${i + 1}`),
      });
    });
  }
});

describe('resolveName', () => {
  const pods = [
    setPod('default', 'web', 'nginx', 0),
    setPod('default', 'web', 'nginx', 1, { ready: false }),
    setPod('default', 'db', 'pub', 0, { ready: false }),
  ];
  const snap = snapshot(
    [
      service('default', 'nginx'),
      service('default', 'pub', { publishNotReadyAddresses: true }),
      service('default', 'api', {
        clusterIP: '10.96.0.10',
        clusterIPs: ['10.96.0.10'],
        selector: { app: 'nginx' },
      }),
      service('default', 'ext', {
        type: 'ExternalName',
        externalName: 'db.example.com',
        clusterIP: '',
      }),
      service('default', 'empty', { selector: { app: 'nobody' } }),
    ],
    pods,
  );
  const nx = { nxdomain: true };
  const cases: { name: string; query: string; want: unknown }[] = [
    {
      name: 'headless Service lists only ready pods',
      query: 'nginx.default.svc.cluster.local',
      want: { name: 'nginx.default.svc.cluster.local', addresses: ['10.7.0.1'] },
    },
    {
      name: 'a ready pod resolves',
      query: 'web-0.nginx.default.svc.cluster.local',
      want: { name: 'web-0.nginx.default.svc.cluster.local', addresses: ['10.7.0.1'] },
    },
    {
      name: 'a not-ready pod is NXDOMAIN',
      query: 'web-1.nginx.default.svc.cluster.local',
      want: nx,
    },
    {
      name: 'publishNotReadyAddresses makes a not-ready pod resolvable',
      query: 'db-0.pub.default.svc.cluster.local',
      want: { name: 'db-0.pub.default.svc.cluster.local', addresses: ['10.7.0.1'] },
    },
    {
      name: 'publishNotReadyAddresses lists not-ready pods under the Service',
      query: 'pub.default.svc.cluster.local.',
      want: { name: 'pub.default.svc.cluster.local', addresses: ['10.7.0.1'] },
    },
    {
      name: 'case-insensitive',
      query: 'WEB-0.Nginx.DEFAULT.svc.Cluster.Local',
      want: { name: 'web-0.nginx.default.svc.cluster.local', addresses: ['10.7.0.1'] },
    },
    {
      name: 'cluster IP Service answers its cluster IP',
      query: 'api.default.svc.cluster.local',
      want: { name: 'api.default.svc.cluster.local', addresses: ['10.96.0.10'] },
    },
    {
      name: 'no per-pod names under a cluster IP Service',
      query: 'web-0.api.default.svc.cluster.local',
      want: nx,
    },
    {
      name: 'ExternalName answers a CNAME',
      query: 'ext.default.svc.cluster.local',
      want: { name: 'ext.default.svc.cluster.local', addresses: [], cname: 'db.example.com' },
    },
    {
      name: 'headless Service without endpoints exists with no addresses',
      query: 'empty.default.svc.cluster.local',
      want: { name: 'empty.default.svc.cluster.local', addresses: [] },
    },
    { name: 'unknown Service', query: 'nope.default.svc.cluster.local', want: nx },
    { name: 'wrong namespace', query: 'web-0.nginx.foo.svc.cluster.local', want: nx },
    { name: 'wrong domain', query: 'web-0.nginx.default.svc.kube.local', want: nx },
    { name: 'not a service name', query: 'a.b.c.nginx.default.svc.cluster.local', want: nx },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(resolveName(c.query, snap), c.want);
    });
  }

  it('answers an endpoint without hostname by its dashed address', () => {
    const plain = setPod('default', 'web', 'nginx', 0);
    (plain.spec as Record<string, unknown>).subdomain = undefined;
    const s = snapshot([service('default', 'nginx')], [plain]);
    assert.deepEqual(resolveName('10-7-0-1.nginx.default.svc.cluster.local', s), {
      name: '10-7-0-1.nginx.default.svc.cluster.local',
      addresses: ['10.7.0.1'],
    });
  });
});

describe('podDnsNames', () => {
  const svc = service('default', 'nginx');
  const cases: { name: string; pod: Pod; services: Service[]; want: string[] }[] = [
    {
      name: 'governed pod',
      pod: setPod('default', 'web', 'nginx', 2),
      services: [svc],
      want: ['web-2.nginx.default.svc.cluster.local'],
    },
    {
      name: 'no governing Service',
      pod: setPod('default', 'web', 'nginx', 2),
      services: [],
      want: [],
    },
    {
      name: 'governing Service has a cluster IP',
      pod: setPod('default', 'web', 'nginx', 2),
      services: [service('default', 'nginx', { clusterIP: '10.96.0.1' })],
      want: [],
    },
    {
      name: 'Service does not select the pod',
      pod: setPod('default', 'web', 'nginx', 2),
      services: [service('default', 'nginx', { selector: { app: 'other' } })],
      want: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(podDnsNames(c.pod, c.services), c.want));
  }
});
