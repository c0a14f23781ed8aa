/**
 * When the collector warns `OwnerRefInvalidNamespace`: both orders of observation (dependent
 * after owner, owner after dependent), cluster-scoped dependents, and the legal cases.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { OwnerGraph } from './graph.js';
import { invalidNamespaceMessage, invalidNamespaceRefs } from './invalid-namespace.js';
import { obj, ref } from './testing/fixtures.js';

/** Upserts `o` the way the collector does and returns what it would report. */
function report(graph: OwnerGraph, o: KubeObject): string[] {
  const uid = o.metadata?.uid as string;
  const before = graph.get(uid);
  const ownersBefore = new Set((before?.observed ? before.owners : []).map((r) => r.uid));
  // Read before the upsert: graph nodes are live views.
  const wasVirtual = before !== undefined && !before.observed;
  graph.upsert(o);
  return invalidNamespaceRefs(graph, uid, ownersBefore, wasVirtual).map(
    (x) => `${x.dependent.identity.uid}->${x.ref.uid}`,
  );
}

describe('invalidNamespaceRefs', () => {
  const cases: { name: string; steps: KubeObject[]; want: string[][] }[] = [
    {
      name: 'dependent in another namespace than an observed owner',
      steps: [
        obj({ uid: 'o', namespace: 'a' }),
        obj({ uid: 'd', namespace: 'b', owners: [ref('o')] }),
      ],
      want: [[], ['d->o']],
    },
    {
      name: 'owner observed after its dependent, in another namespace',
      steps: [
        obj({ uid: 'd', namespace: 'b', owners: [ref('o')] }),
        obj({ uid: 'o', namespace: 'a' }),
      ],
      want: [[], ['d->o']],
    },
    {
      name: 'cluster-scoped dependent of a namespaced owner',
      steps: [
        obj({ uid: 'o', namespace: 'a' }),
        obj({ uid: 'd', namespace: '', owners: [ref('o')] }),
      ],
      want: [[], ['d->o']],
    },
    {
      name: 'cluster-scoped owners may own anything',
      steps: [
        obj({ uid: 'o', namespace: '' }),
        obj({ uid: 'd', namespace: 'b', owners: [ref('o')] }),
      ],
      want: [[], []],
    },
    {
      name: 'same namespace is fine',
      steps: [
        obj({ uid: 'o', namespace: 'a' }),
        obj({ uid: 'd', namespace: 'a', owners: [ref('o')] }),
      ],
      want: [[], []],
    },
    {
      name: 'reported once per new ref, not on every update',
      steps: [
        obj({ uid: 'o', namespace: 'a' }),
        obj({ uid: 'd', namespace: 'b', owners: [ref('o')] }),
        obj({ uid: 'd', namespace: 'b', owners: [ref('o')], resourceVersion: '9' }),
      ],
      want: [[], ['d->o'], []],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const graph = new OwnerGraph();
      assert.deepEqual(
        c.steps.map((s) => report(graph, s)),
        c.want,
      );
    });
  }

  it("formats upstream's message", () => {
    assert.equal(
      invalidNamespaceMessage(ref('u1', { name: 'web' }), 'b'),
      'ownerRef [v1/Pod, namespace: b, name: web, uid: u1] does not exist in namespace "b"',
    );
  });
});
