import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  defaultWorkers,
  MAX_SIMULATED_NODES,
  nodeIp,
  nodePodCidr,
  resolveOptions,
} from './node-config.js';

describe('kubelet workers', () => {
  const cases: { nodes: number; workers?: number; want: number }[] = [
    { nodes: 1, want: 16 },
    { nodes: 2, want: 16 },
    { nodes: 3, want: 24 },
    { nodes: 12, want: 96 },
    { nodes: 32, want: 256 },
    { nodes: 50, want: 256 },
    { nodes: 250, want: 256 },
    { nodes: 50, workers: 4, want: 4 },
  ];
  for (const c of cases) {
    it(`${c.nodes} nodes${c.workers ? `, workers ${c.workers}` : ''} → ${c.want}`, () => {
      const opts = resolveOptions({
        count: c.nodes,
        ...(c.workers !== undefined ? { workers: c.workers } : {}),
      });
      assert.equal(opts.workers, c.want);
    });
  }

  it('grows with the nodes, within 16…256', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 249 }), (n) => {
        const w = defaultWorkers(n);
        assert.ok(w >= 16 && w <= 256);
        assert.ok(defaultWorkers(n + 1) >= w);
      }),
    );
  });
});

describe('node addressing', () => {
  // Nodes 1…250 keep the addresses they had before the limit was raised (a restarted process
  // finds its nodes again); past them the IP counts on through 172.18.0.0/16 and the pod CIDR
  // through the /24s after 10.244.0.0.
  const cases: { index: number; ip: string; podCIDR: string }[] = [
    { index: 1, ip: '172.18.0.2', podCIDR: '10.244.1.0/24' },
    { index: 250, ip: '172.18.0.251', podCIDR: '10.244.250.0/24' },
    { index: 254, ip: '172.18.0.255', podCIDR: '10.244.254.0/24' },
    { index: 255, ip: '172.18.1.0', podCIDR: '10.244.255.0/24' },
    { index: 256, ip: '172.18.1.1', podCIDR: '10.245.0.0/24' },
    { index: 1000, ip: '172.18.3.233', podCIDR: '10.247.232.0/24' },
    { index: 3000, ip: '172.18.11.185', podCIDR: '10.255.184.0/24' },
  ];
  for (const c of cases) {
    it(`node ${c.index} → ${c.ip}, ${c.podCIDR}`, () => {
      assert.equal(nodeIp(c.index), c.ip);
      assert.equal(nodePodCidr(c.index), c.podCIDR);
    });
  }

  it(`${MAX_SIMULATED_NODES} nodes have distinct IPs and pod CIDRs inside 10.0.0.0/8`, () => {
    const nodes = resolveOptions({ count: MAX_SIMULATED_NODES }).nodes;
    assert.equal(new Set(nodes.map((n) => n.ip)).size, MAX_SIMULATED_NODES);
    assert.equal(new Set(nodes.map((n) => n.podCIDR)).size, MAX_SIMULATED_NODES);
    for (const n of nodes) assert.match(n.podCIDR, /^10\.(24[4-9]|25[0-5])\.\d+\.0\/24$/);
    assert.equal(nodes.at(-1)?.name, `fleetyard-node-${MAX_SIMULATED_NODES}`);
  });

  const counts: { count: number; ok: boolean }[] = [
    { count: 0, ok: false },
    { count: 1, ok: true },
    { count: 1000, ok: true },
    { count: MAX_SIMULATED_NODES, ok: true },
    { count: MAX_SIMULATED_NODES + 1, ok: false },
    { count: 2.5, ok: false },
  ];
  for (const c of counts) {
    it(`count ${c.count} is ${c.ok ? 'accepted' : 'refused'}`, () => {
      if (c.ok) assert.equal(resolveOptions({ count: c.count }).nodes.length, c.count);
      else assert.throws(() => resolveOptions({ count: c.count }), RangeError);
    });
  }
});
