import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { change, obj, pod } from './fixtures.js';
import { ObjectStore } from './store.js';
import { ordinalOf, podsByController, statefulSetRollout, workloadRows } from './workloads.js';

const set = obj(
  'StatefulSet',
  'web',
  { namespace: 'ns', uid: 'sts-uid' },
  { replicas: 3, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } },
  { currentRevision: 'web-old', updateRevision: 'web-new', updatedReplicas: 1, readyReplicas: 3 },
);
const owner = { kind: 'StatefulSet', name: 'web', uid: 'sts-uid', controller: true };
const member = (i: number, rev: string) =>
  pod('ns', `web-${i}`, { node: 'n1', owner, labels: { 'controller-revision-hash': rev } });

describe('statefulSetRollout', () => {
  it('lists members in ordinal order with their revision against the update revision and the partition', () => {
    const r = statefulSetRollout(set, [
      member(2, 'web-new'),
      member(10, 'web-old'),
      member(0, 'web-old'),
    ]);
    assert.deepEqual(
      r.members.map((m) => [
        m.ordinal,
        m.pod,
        m.revision,
        m.updated,
        m.belowPartition,
        m.chip === undefined,
      ]),
      [
        [0, 'ns/web-0', 'web-old', false, true, false],
        [1, 'ns/web-1', '', false, false, true],
        [2, 'ns/web-2', 'web-new', true, false, false],
        [10, 'ns/web-10', 'web-old', false, false, false],
      ],
    );
    assert.equal(r.rolling, true);
    assert.equal(r.partition, 1);
  });
});

describe('ordinalOf', () => {
  const cases: [string, Record<string, string> | undefined, number | undefined][] = [
    ['web-3', undefined, 3],
    ['web-x', undefined, undefined],
    ['other-3', undefined, undefined],
    ['web-x', { 'apps.kubernetes.io/pod-index': '7' }, 7],
  ];
  for (const [name, labels, want] of cases) {
    it(`${name} → ${want}`, () =>
      assert.equal(
        ordinalOf('web', pod('ns', name, labels === undefined ? {} : { labels })),
        want,
      ));
  }
});

describe('workloadRows and podsByController', () => {
  it('has one row per workload with its counts, and groups pods by controller', () => {
    const s = new ObjectStore();
    s.apply(change('ADDED', 'apps', 'statefulsets', set));
    s.apply(
      change(
        'ADDED',
        'apps',
        'deployments',
        obj(
          'Deployment',
          'api',
          { namespace: 'ns' },
          { replicas: 2 },
          { readyReplicas: 1, updatedReplicas: 2 },
        ),
      ),
    );
    s.apply(
      change(
        'ADDED',
        'apps',
        'daemonsets',
        obj(
          'DaemonSet',
          'agent',
          { namespace: 'kube-system' },
          {},
          { desiredNumberScheduled: 4, numberReady: 4 },
        ),
      ),
    );
    s.apply(change('ADDED', '', 'pods', member(0, 'web-old')));
    const rows = workloadRows(s);
    assert.deepEqual(
      rows.map((r) => [r.kind, r.key, r.ready, r.desired, r.scalable]),
      [
        ['DaemonSet', 'kube-system/agent', 4, 4, false],
        ['Deployment', 'ns/api', 1, 2, true],
        ['StatefulSet', 'ns/web', 3, 3, true],
      ],
    );
    assert.deepEqual(
      podsByController(s)
        .get('sts-uid')
        ?.map((p) => p.metadata.name),
      ['web-0'],
    );
  });
});
