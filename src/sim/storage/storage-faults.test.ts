/**
 * `parseStorageFaults`: the ConfigMap's keys, absent and malformed values.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseStorageFaults } from './storage-faults.js';

const GI = 1024n ** 3n;

describe('parseStorageFaults', () => {
  const cases: {
    name: string;
    data?: Record<string, string>;
    zones: string[];
    nodes: string[];
    zoneCapacity?: bigint;
    nodeCapacity?: bigint;
  }[] = [
    { name: 'no ConfigMap', zones: [], nodes: [] },
    {
      name: 'lists with spaces and empty entries',
      data: { 'failing-zones': ' zone-a, ,zone-b ', 'failing-nodes': 'node-1' },
      zones: ['zone-a', 'zone-b'],
      nodes: ['node-1'],
    },
    {
      name: 'capacities',
      data: { 'zone-capacity': '50Gi', 'node-capacity': '1500Mi' },
      zones: [],
      nodes: [],
      zoneCapacity: 50n * GI,
      nodeCapacity: 1500n * 1024n * 1024n,
    },
    {
      name: 'a malformed capacity is unlimited',
      data: { 'zone-capacity': 'lots', 'node-capacity': '' },
      zones: [],
      nodes: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const cm = c.data === undefined ? undefined : { metadata: { name: 'x' }, data: c.data };
      const f = parseStorageFaults(cm);
      assert.deepEqual([...f.failingZones], c.zones);
      assert.deepEqual([...f.failingNodes], c.nodes);
      assert.equal(f.zoneCapacity, c.zoneCapacity);
      assert.equal(f.nodeCapacity, c.nodeCapacity);
    });
  }
});
