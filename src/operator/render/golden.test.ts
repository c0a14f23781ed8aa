/**
 * Golden files: every child of a PersistentFleet, a Bucket/Deployment and a Bucket/Ordered
 * fleet, rendered in reconcile order. A change to the rendered shape shows up as a diff in
 * review; regenerate with `UPDATE_GOLDEN=1` after checking the change is intended.
 *
 * @module
 */

import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { renderChildren } from './children.js';
import type { FleetSpecView } from './fleet-view.js';
import { bucketFleet, orderedFleet, persistentFleet } from './testdata/fleets.js';

const cases: { name: string; fleet: FleetSpecView; kinds: string[] }[] = [
  {
    name: 'persistent-fleet',
    fleet: persistentFleet,
    kinds: [
      'ServiceAccount',
      'Service',
      'Service',
      'NetworkPolicy',
      'PodDisruptionBudget',
      'StatefulSet',
    ],
  },
  {
    name: 'bucket-deployment',
    fleet: bucketFleet,
    kinds: ['Service', 'Service', 'NetworkPolicy', 'PodDisruptionBudget', 'Deployment'],
  },
  {
    name: 'bucket-ordered',
    fleet: orderedFleet,
    kinds: ['Service', 'Service', 'NetworkPolicy', 'PodDisruptionBudget', 'StatefulSet'],
  },
];

describe('rendered children match their golden files', () => {
  for (const c of cases) {
    it(c.name, () => {
      const children = renderChildren(c.fleet, { operatorNamespace: 'celld-system' });
      assert.deepEqual(
        children.map((o) => o.kind),
        c.kinds,
      );
      const file = new URL(`./testdata/${c.name}.json`, import.meta.url);
      if (process.env.UPDATE_GOLDEN === '1') {
        writeFileSync(file, `${JSON.stringify(children, null, 2)}\n`);
      }
      // Compared as data, so reformatting the file (biome formats JSON) is not a failure.
      const golden: unknown = JSON.parse(readFileSync(file, 'utf8'));
      assert.deepEqual(JSON.parse(JSON.stringify(children)), golden);
    });
  }

  it('is deterministic and does not share objects between calls', () => {
    const a = renderChildren(persistentFleet);
    const b = renderChildren(persistentFleet);
    assert.deepEqual(a, b);
    assert.notEqual(a[0], b[0]);
  });
});
