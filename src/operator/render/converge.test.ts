/**
 * convergeObject: no write when the live object already carries the operator's fields,
 * foreign labels and server defaults kept, operator fields restored, replicas left to the
 * scaling planner when asked, immutable fields never written.
 *
 * @module
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deepCopy, type KubeObject } from '../../api/object.js';
import { convergeObject, coversDesired, immutableFieldDrift } from './converge.js';
import { renderPodDisruptionBudget, renderServices } from './prerequisites.js';
import { bucketFleet, persistentFleet, withSpec } from './testdata/fleets.js';
import { renderDeployment, renderStatefulSet } from './workloads.js';

type Json = Record<string, unknown>;

/** What the API server returns for a created object: system metadata plus some defaults. */
function stored(desired: KubeObject): KubeObject {
  const o = deepCopy(desired) as Json & KubeObject;
  o.metadata = { ...o.metadata, uid: 'child-uid', resourceVersion: '7', generation: 1 };
  const spec = o.spec as Json;
  const template = spec.template as Json | undefined;
  if (template) {
    const ps = template.spec as Json;
    ps.restartPolicy = 'Always';
    ps.dnsPolicy = 'ClusterFirst';
    const c = (ps.containers as Json[])[0] as Json;
    c.terminationMessagePath = '/dev/termination-log';
    spec.revisionHistoryLimit = 10;
  }
  o.status = { replicas: 0 };
  return o;
}

const sts = renderStatefulSet(persistentFleet);
const spec = (o: KubeObject | undefined): Json => (o?.spec ?? {}) as Json;
const podSpec = (o: KubeObject | undefined): Json => (spec(o).template as Json).spec as Json;

describe('convergeObject', () => {
  const cases: {
    name: string;
    desired: KubeObject;
    edit: (live: Json & KubeObject) => void;
    keepReplicas?: boolean;
    check: (update: KubeObject | undefined, live: KubeObject) => void;
  }[] = [
    {
      name: 'no update when live equals desired plus server defaults',
      desired: sts,
      edit: () => {},
      check: (u) => assert.equal(u, undefined),
    },
    {
      name: 'no update when only foreign labels, annotations and owners were added',
      desired: sts,
      edit: (live) => {
        live.metadata = {
          ...live.metadata,
          labels: { ...live.metadata?.labels, team: 'payments' },
          annotations: { 'example.com/note': 'x' },
        };
        live.metadata.ownerReferences = [
          ...(live.metadata.ownerReferences ?? []),
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: 'other' },
        ];
      },
      check: (u) => assert.equal(u, undefined),
    },
    {
      name: 'a removed operator label is restored, foreign labels kept',
      desired: sts,
      edit: (live) => {
        const labels: Record<string, string> = { ...live.metadata?.labels, team: 'payments' };
        delete labels['celld.fleetyard.dev/fleet'];
        live.metadata = { ...live.metadata, labels };
      },
      check: (u) => {
        assert.equal(u?.metadata?.labels?.['celld.fleetyard.dev/fleet'], 'orders');
        assert.equal(u?.metadata?.labels?.team, 'payments');
        assert.equal(u?.metadata?.resourceVersion, '7');
      },
    },
    {
      name: 'a hand-edited template is restored; server defaults in it are kept',
      desired: sts,
      edit: (live) => {
        const c = (podSpec(live).containers as Json[])[0] as Json;
        c.image = 'evil:latest';
        podSpec(live).nodeSelector = { disk: 'fast' };
      },
      check: (u) => {
        const c = (podSpec(u).containers as Json[])[0] as Json;
        assert.match(String(c.image), /@sha256:/);
        assert.equal(podSpec(u).restartPolicy, 'Always');
        assert.deepEqual(podSpec(u).nodeSelector, { disk: 'fast' });
      },
    },
    {
      name: 'an extra container or env entry is removed',
      desired: sts,
      edit: (live) => {
        const c = (podSpec(live).containers as Json[])[0] as Json;
        (c.env as Json[]).push({ name: 'CELLD_BUCKET', value: 's3://elsewhere' });
      },
      check: (u, live) => {
        const env = ((podSpec(u).containers as Json[])[0] as Json).env as Json[];
        const want = ((podSpec(sts).containers as Json[])[0] as Json).env as Json[];
        assert.deepEqual(env, want);
        assert.notDeepEqual(u, live);
      },
    },
    {
      name: 'replicas restored by default',
      desired: sts,
      edit: (live) => {
        (live.spec as Json).replicas = 2;
      },
      check: (u) => assert.equal(spec(u).replicas, 5),
    },
    {
      name: 'replicas untouched when the caller keeps them',
      desired: sts,
      keepReplicas: true,
      edit: (live) => {
        (live.spec as Json).replicas = 2;
      },
      check: (u) => assert.equal(u, undefined),
    },
    {
      name: 'replicas kept while the template is converged',
      desired: renderStatefulSet(
        withSpec(persistentFleet, { maintenance: { restartToken: 'r9' } }),
      ),
      keepReplicas: true,
      edit: (live) => {
        (live.spec as Json).replicas = 4;
        const meta = ((live.spec as Json).template as Json).metadata as Json;
        meta.annotations = { 'celld.fleetyard.dev/restart-token': 'r1' };
      },
      check: (u) => {
        assert.equal(spec(u).replicas, 4);
        const meta = (spec(u).template as Json).metadata as Json;
        assert.deepEqual(meta.annotations, { 'celld.fleetyard.dev/restart-token': 'r9' });
      },
    },
    {
      name: 'immutable fields are never written',
      desired: sts,
      edit: (live) => {
        (live.spec as Json).serviceName = 'other';
        (live.spec as Json).selector = { matchLabels: { other: 'x' } };
      },
      check: (u, live) => {
        assert.equal(u, undefined);
        assert.deepEqual(immutableFieldDrift(live, sts), ['spec.selector', 'spec.serviceName']);
      },
    },
    {
      name: 'a missing controller reference is added beside foreign ones',
      desired: renderDeployment(bucketFleet),
      edit: (live) => {
        live.metadata = {
          ...live.metadata,
          ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: 'other' }],
        };
      },
      check: (u) => {
        const refs = u?.metadata?.ownerReferences ?? [];
        assert.deepEqual(
          refs.map((r) => r.uid),
          ['other', 'uid-cache'],
        );
        assert.equal(refs[1]?.controller, true);
      },
    },
    {
      name: 'Deployment strategy restored',
      desired: renderDeployment(bucketFleet),
      edit: (live) => {
        (live.spec as Json).strategy = { type: 'Recreate' };
      },
      check: (u) =>
        assert.deepEqual(spec(u).strategy, {
          type: 'RollingUpdate',
          rollingUpdate: { maxUnavailable: 1, maxSurge: 0 },
        }),
    },
    {
      name: 'Service selector compared exactly; cluster IP left alone',
      desired: renderServices(bucketFleet)[0] as KubeObject,
      edit: (live) => {
        (live.spec as Json).clusterIP = '10.96.0.9';
        (live.spec as Json).selector = { ...((live.spec as Json).selector as Json), extra: 'x' };
      },
      check: (u) => {
        assert.equal(spec(u).clusterIP, '10.96.0.9');
        assert.equal((spec(u).selector as Json).extra, undefined);
      },
    },
    {
      name: 'PDB maxUnavailable restored',
      desired: renderPodDisruptionBudget(bucketFleet),
      edit: (live) => {
        (live.spec as Json).maxUnavailable = 0;
      },
      check: (u) => assert.equal(spec(u).maxUnavailable, 1),
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const live = stored(c.desired) as Json & KubeObject;
      c.edit(live);
      const before = deepCopy(live);
      const update = convergeObject(live, c.desired, { keepReplicas: c.keepReplicas ?? false });
      c.check(update, live);
      assert.deepEqual(live, before, 'the live object is not mutated');
      if (update) {
        assert.equal(
          convergeObject(update, c.desired, { keepReplicas: c.keepReplicas ?? false }),
          undefined,
          'converging twice writes once',
        );
      }
    });
  }
});

describe('coversDesired', () => {
  const cases: [string, unknown, unknown, boolean][] = [
    ['extra keys', { a: 1, b: 2 }, { a: 1 }, true],
    ['different scalar', { a: 1 }, { a: 2 }, false],
    ['missing key', {}, { a: 1 }, false],
    ['longer array', [1, 2], [1], false],
    ['array element subset', [{ a: 1, b: 2 }], [{ a: 1 }], true],
    ['false is not absent', {}, { a: false }, false],
  ];
  for (const [name, live, desired, want] of cases) {
    it(name, () => assert.equal(coversDesired(live, desired), want));
  }
});
