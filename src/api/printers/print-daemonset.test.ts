/**
 * DaemonSet rows, after upstream `printers_test.go` `TestPrintDaemonSet`.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { DAEMON_SET_COLUMNS, printDaemonSet } from './print-daemonset.js';

const NOW = new Date('2024-05-01T12:00:00Z');

function daemonSet(spec: object, status: object): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'test1', creationTimestamp: NOW.toISOString() },
    spec: {
      template: {
        spec: {
          containers: [
            { name: 'fake-container1', image: 'fake-image1' },
            { name: 'fake-container2', image: 'fake-image2' },
          ],
          ...spec,
        },
      },
      selector: { matchLabels: { foo: 'bar' } },
    },
    status,
  };
}

const cases = [
  {
    name: 'counts from the status, no node selector',
    ds: daemonSet(
      {},
      {
        currentNumberScheduled: 2,
        desiredNumberScheduled: 3,
        numberReady: 1,
        updatedNumberScheduled: 2,
      },
    ),
    cells: ['test1', 3, 2, 1, 2, 0, '<none>', '0s'],
    wide: ['fake-container1,fake-container2', 'fake-image1,fake-image2', 'foo=bar'],
  },
  {
    name: 'node selector as sorted labels; a missing status counts 0',
    ds: daemonSet({ nodeSelector: { zone: 'a', disk: 'ssd' } }, undefined as unknown as object),
    cells: ['test1', 0, 0, 0, 0, 0, 'disk=ssd,zone=a', '0s'],
    wide: ['fake-container1,fake-container2', 'fake-image1,fake-image2', 'foo=bar'],
  },
];

describe('printDaemonSet', () => {
  for (const c of cases) {
    it(c.name, () => {
      const { cells } = printDaemonSet(c.ds, NOW);
      assert.deepEqual(cells.slice(0, 8), c.cells);
      assert.deepEqual(cells.slice(8), c.wide);
    });
  }

  it('declares upstream columns: 8 shown, 3 wide', () => {
    assert.deepEqual(
      DAEMON_SET_COLUMNS.map((col) => [col.name, col.type, col.priority]),
      [
        ['Name', 'string', 0],
        ['Desired', 'integer', 0],
        ['Current', 'integer', 0],
        ['Ready', 'integer', 0],
        ['Up-to-date', 'integer', 0],
        ['Available', 'integer', 0],
        ['Node Selector', 'string', 0],
        ['Age', 'string', 0],
        ['Containers', 'string', 1],
        ['Images', 'string', 1],
        ['Selector', 'string', 1],
      ],
    );
  });
});
