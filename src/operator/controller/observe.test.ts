/**
 * `nodeObservation`, table-driven: a node missing from the cache does not exist; a node is
 * ready only with Ready=True; a not-ready node reports when its Ready condition left True
 * (the down time of a member whose pod still claims Ready), and its zone label when it has one.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import type { NodeObservation } from '../healing/types.js';
import { nodeObservation } from './observe.js';

const T = '2026-01-01T00:05:00Z';

function node(ready: string | undefined, opts: { zone?: string; since?: string } = {}): KubeObject {
  return {
    metadata: {
      name: 'n1',
      ...(opts.zone ? { labels: { 'topology.kubernetes.io/zone': opts.zone } } : {}),
    },
    status: {
      conditions: [
        { type: 'MemoryPressure', status: 'False' },
        ...(ready === undefined
          ? []
          : [
              {
                type: 'Ready',
                status: ready,
                ...(opts.since ? { lastTransitionTime: opts.since } : {}),
              },
            ]),
      ],
    },
  };
}

describe('nodeObservation', () => {
  const table: { name: string; node: KubeObject | undefined; want: NodeObservation }[] = [
    { name: 'missing', node: undefined, want: { name: 'n1', exists: false, ready: false } },
    {
      name: 'ready, with zone',
      node: node('True', { zone: 'local-b', since: T }),
      want: { name: 'n1', exists: true, ready: true, zone: 'local-b' },
    },
    {
      name: 'Ready=Unknown since T',
      node: node('Unknown', { since: T }),
      want: { name: 'n1', exists: true, ready: false, notReadySince: Date.UTC(2026, 0, 1, 0, 5) },
    },
    {
      name: 'Ready=False without a transition time',
      node: node('False'),
      want: { name: 'n1', exists: true, ready: false },
    },
    {
      name: 'no Ready condition',
      node: node(undefined),
      want: { name: 'n1', exists: true, ready: false },
    },
    {
      name: 'no status',
      node: { metadata: { name: 'n1' } },
      want: { name: 'n1', exists: true, ready: false },
    },
  ];
  for (const row of table) {
    it(row.name, () => assert.deepEqual(nodeObservation(row.node, 'n1'), row.want));
  }
});
