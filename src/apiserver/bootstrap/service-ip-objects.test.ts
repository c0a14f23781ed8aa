import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import {
  desiredIPAddresses,
  planIPAddresses,
  planServiceCIDRStatus,
} from './service-ip-objects.js';

describe('service range objects', () => {
  it('makes the default ServiceCIDR Ready once, and only with its own CIDRs', () => {
    const cidr: KubeObject = {
      metadata: { name: 'kubernetes' },
      spec: { cidrs: ['10.96.0.0/12'] },
    };
    const status = planServiceCIDRStatus(cidr, ['10.96.0.0/12'], 'T');
    assert.equal(((status?.conditions ?? []) as { status: string }[])[0]?.status, 'True');
    assert.equal(planServiceCIDRStatus({ ...cidr, status }, ['10.96.0.0/12'], 'T'), undefined);
    assert.equal(planServiceCIDRStatus(cidr, ['10.0.0.0/16'], 'T'), undefined);
  });

  it('keeps one IPAddress per ClusterIP, canonical, and touches only its own', () => {
    const svc = (name: string, ips: string[]): KubeObject => ({
      metadata: { name, namespace: 'default' },
      spec: { clusterIP: ips[0], clusterIPs: ips },
    });
    const desired = desiredIPAddresses([
      svc('a', ['10.96.0.10', 'FD00:0::A']),
      svc('headless', ['None']),
    ]);
    assert.deepEqual([...desired.keys()], ['10.96.0.10', 'fd00::a']);
    const mine = (name: string, owner: string): KubeObject => ({
      metadata: { name, labels: { 'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io' } },
      spec: { parentRef: { group: '', resource: 'services', namespace: 'default', name: owner } },
    });
    const foreign: KubeObject = { metadata: { name: '10.1.1.1' }, spec: {} };
    const plan = planIPAddresses(
      [mine('10.96.0.10', 'a'), mine('10.96.0.11', 'gone'), foreign],
      desired,
    );
    assert.deepEqual(plan.remove, ['10.96.0.11']);
    assert.deepEqual(
      plan.create.map((ip) => ip.metadata?.name),
      ['fd00::a'],
    );
  });
});
