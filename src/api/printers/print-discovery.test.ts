/**
 * EndpointSlice rows (upstream `printEndpointSlice` cases).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { builtinPrinter } from './registry.js';

const NOW = new Date('2024-05-01T12:00:00Z');
const CREATED = new Date(NOW.getTime() - 90 * 1000).toISOString();

function slice(body: Record<string, unknown>): KubeObject {
  return {
    metadata: { name: 'web-abc', namespace: 'default', creationTimestamp: CREATED },
    ...body,
  };
}

const cases: { name: string; obj: KubeObject; cells: unknown[] }[] = [
  {
    name: 'ports and endpoints listed',
    obj: slice({
      addressType: 'IPv4',
      ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
      endpoints: [{ addresses: ['10.0.0.1'] }, { addresses: ['10.0.0.2'] }],
    }),
    cells: ['web-abc', 'IPv4', '80', '10.0.0.1,10.0.0.2', '90s'],
  },
  {
    name: 'more than three of each',
    obj: slice({
      addressType: 'IPv6',
      ports: [{ port: 1 }, { port: 2 }, { name: 'named' }, {}, { port: 5 }],
      endpoints: [
        { addresses: ['fd00::1', 'fd00::2'] },
        { addresses: ['fd00::3'] },
        { addresses: ['fd00::4'] },
      ],
    }),
    cells: [
      'web-abc',
      'IPv6',
      '1,2,named + 2 more...',
      'fd00::1,fd00::2,fd00::3 + 1 more...',
      '90s',
    ],
  },
  {
    name: 'a nameless port without number is all ports',
    obj: slice({ addressType: 'IPv4', ports: [{}], endpoints: [] }),
    cells: ['web-abc', 'IPv4', '*', '<unset>', '90s'],
  },
  {
    name: 'empty slice',
    obj: slice({ addressType: 'FQDN' }),
    cells: ['web-abc', 'FQDN', '<unset>', '<unset>', '90s'],
  },
];

describe('EndpointSlice printer', () => {
  it('has the upstream columns', () => {
    const printer = builtinPrinter('discovery.k8s.io', 'EndpointSlice');
    assert.deepEqual(
      printer.columns.map((c) => c.name),
      ['Name', 'AddressType', 'Ports', 'Endpoints', 'Age'],
    );
  });
  for (const c of cases) {
    it(c.name, () => {
      const printer = builtinPrinter('discovery.k8s.io', 'EndpointSlice');
      assert.deepEqual(printer.row(c.obj, NOW).cells, c.cells);
    });
  }
});
