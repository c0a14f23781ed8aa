/**
 * Tests for StatefulSet ControllerRevision planning, after upstream `stateful_set_control_test.go`
 * (`TestStatefulSetControlRollback`, `TestStatefulSetHistoryTruncation`, collision cases) and
 * `controller_history_test.go` (`TestSortControllerRevisions`, `TestFindEqualRevisions`),
 * plus properties.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  asKind,
  type ControllerRevision,
  type Pod,
  type PodTemplateSpec,
  type StatefulSet,
} from '../../api/model/index.js';
import { isJsonObject, type KubeObject } from '../../api/object.js';
import {
  applyRevision,
  CONTROLLER_REVISION_HASH_LABEL,
  compareRevisions,
  newRevision,
  nextRevision,
  planRevisions,
  type RevisionPlan,
  revisionData,
  revisionDataEqual,
  revisionsToPrune,
  sortRevisions,
} from './revisions.js';

function template(image: string, labels: Record<string, string> = { app: 'web' }): PodTemplateSpec {
  return {
    metadata: { labels },
    spec: { containers: [{ name: 'nginx', image }] },
  };
}

function statefulSet(
  image: string,
  status: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
): StatefulSet {
  return asKind(
    {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: {
        name: 'web',
        namespace: 'default',
        uid: 'set-uid',
        annotations: { 'kubernetes.io/change-cause': `image ${image}` },
      },
      spec: { replicas: 3, template: template(image), ...extra },
      status,
    },
    'StatefulSet',
  );
}

function rev(
  name: string,
  revision: number | bigint,
  created = '2024-01-01T00:00:00Z',
): ControllerRevision {
  return { metadata: { name, creationTimestamp: created }, data: { n: name }, revision };
}

function pod(revisionName: string): Pod {
  return { metadata: { labels: { 'controller-revision-hash': revisionName } } };
}

/** What the apply layer does with a plan: create, or write the bumped number. */
function applyPlan(revisions: ControllerRevision[], plan: RevisionPlan): ControllerRevision[] {
  if (plan.create) return [...revisions, plan.create];
  if (plan.bump) {
    const name = plan.bump.metadata?.name;
    return revisions.map((r) =>
      r.metadata?.name === name ? (plan.bump as ControllerRevision) : r,
    );
  }
  return revisions;
}

function nameOf(r: KubeObject | undefined): string {
  return r?.metadata?.name ?? '';
}

describe('newRevision', () => {
  const set = statefulSet('nginx:1');
  const r = newRevision(set, 1, 0);
  it('stores the template as a replace patch', () => {
    const data = r.data as { spec: { template: Record<string, unknown> } };
    assert.deepEqual(Object.keys(data), ['spec']);
    assert.deepEqual(Object.keys(data.spec), ['template']);
    assert.equal(data.spec.template.$patch, 'replace');
    assert.deepEqual(data.spec.template.spec, {
      containers: [{ name: 'nginx', image: 'nginx:1' }],
    });
  });
  it('is named <set>-<hash> and labelled with the template labels and the hash', () => {
    const hash = r.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL] ?? '';
    assert.match(hash, /^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
    assert.equal(r.metadata?.name, `web-${hash}`);
    assert.equal(r.metadata?.labels?.app, 'web');
    assert.equal(r.metadata?.namespace, 'default');
    assert.equal(r.revision, 1);
  });
  it('is controlled by the set and copies its annotations', () => {
    assert.deepEqual(r.metadata?.ownerReferences, [
      {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        name: 'web',
        uid: 'set-uid',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    assert.equal(r.metadata?.annotations?.['kubernetes.io/change-cause'], 'image nginx:1');
  });
  it('cuts a long set name to 223 characters', () => {
    const long: StatefulSet = { ...set, metadata: { ...set.metadata, name: 'a'.repeat(250) } };
    const name = nameOf(newRevision(long, 1, 0));
    assert.equal(name.indexOf('-'), 223);
  });
  it('changes name with the collision count, not with the revision number', () => {
    assert.notEqual(nameOf(newRevision(set, 1, 1)), nameOf(r));
    assert.equal(nameOf(newRevision(set, 7, 0)), nameOf(r));
  });
});

describe('planRevisions', () => {
  const v1 = statefulSet('nginx:1');
  const r1 = newRevision(v1, 1, 0);
  const r2 = newRevision(statefulSet('nginx:2'), 2, 0);

  it('a new set creates revision 1, which is current and update', () => {
    const plan = planRevisions(v1, []);
    assert.equal(plan.create?.revision, 1);
    assert.equal(nameOf(plan.updateRevision), nameOf(r1));
    assert.equal(nameOf(plan.currentRevision), nameOf(r1));
    assert.equal(plan.bump, undefined);
    assert.equal(plan.collision, false);
    assert.equal(plan.collisionCount, 0);
  });

  const cases: [string, StatefulSet, ControllerRevision[], Partial<Record<string, unknown>>][] = [
    [
      'unchanged template: nothing to write',
      statefulSet('nginx:1', { currentRevision: nameOf(r1) }),
      [r1],
      { update: nameOf(r1), current: nameOf(r1), create: undefined, bump: undefined },
    ],
    [
      'template change: create the next number',
      statefulSet('nginx:2', { currentRevision: nameOf(r1) }),
      [r1],
      { update: nameOf(r2), current: nameOf(r1), createRevision: 2, bump: undefined },
    ],
    [
      'rollback: bump the old revision',
      statefulSet('nginx:1', { currentRevision: nameOf(r2) }),
      [r2, r1],
      {
        update: nameOf(r1),
        current: nameOf(r2),
        create: undefined,
        bumpRevision: 3,
        equal: nameOf(r1),
      },
    ],
    [
      'unknown current revision: current = update',
      statefulSet('nginx:1', { currentRevision: 'web-gone' }),
      [r1],
      { update: nameOf(r1), current: nameOf(r1) },
    ],
  ];
  for (const [name, set, revisions, want] of cases) {
    it(name, () => {
      const plan = planRevisions(set, revisions);
      const got: Record<string, unknown> = {
        update: nameOf(plan.updateRevision),
        current: nameOf(plan.currentRevision),
        create: plan.create && nameOf(plan.create),
        createRevision: plan.create?.revision,
        bump: plan.bump && nameOf(plan.bump),
        bumpRevision: plan.bump?.revision,
        equal: plan.equalRevision && nameOf(plan.equalRevision),
      };
      for (const [k, v] of Object.entries(want)) assert.equal(got[k], v, k);
    });
  }

  it('a name taken by other data bumps the collision count', () => {
    const squatter: ControllerRevision = { ...r1, data: { other: true }, revision: 1 };
    const plan = planRevisions(v1, [], { namespaceRevisions: [squatter] });
    assert.equal(plan.collision, true);
    assert.equal(plan.collisionCount, 1);
    assert.notEqual(nameOf(plan.create), nameOf(r1));
    assert.equal(nameOf(plan.create), nameOf(newRevision(v1, 1, 1)));
  });

  it('a name taken by equal data is used without a write', () => {
    const plan = planRevisions(v1, [], { namespaceRevisions: [r1] });
    assert.equal(plan.create, undefined);
    assert.equal(nameOf(plan.updateRevision), nameOf(r1));
    assert.equal(plan.collision, false);
  });

  it('keeps the status collision count', () => {
    const set = statefulSet('nginx:1', { collisionCount: 2 });
    const plan = planRevisions(set, []);
    assert.equal(plan.collisionCount, 2);
    assert.equal(nameOf(plan.create), nameOf(newRevision(v1, 1, 2)));
  });
});

describe('sorting and numbering', () => {
  it('orders by number, then creation time, then name', () => {
    const revisions = [
      rev('c', 2, '2024-01-01T00:00:00Z'),
      rev('b', 2, '2024-01-01T00:00:00Z'),
      rev('a', 2, '2024-01-02T00:00:00Z'),
      rev('z', 1, '2024-01-03T00:00:00Z'),
    ];
    assert.deepEqual(sortRevisions(revisions).map(nameOf), ['z', 'b', 'c', 'a']);
  });
  it('orders int64 numbers exactly, numbers and bigints alike', () => {
    const revisions = [
      rev('c', 3546343826724305833n),
      rev('a', 3546343826724305832n),
      rev('b', 3546343826724305832n, '2024-01-02T00:00:00Z'),
      rev('z', 7),
    ];
    assert.deepEqual(sortRevisions(revisions).map(nameOf), ['z', 'a', 'b', 'c']);
  });
  it('a rollback moves an older revision past an int64 newest', () => {
    const set = statefulSet('nginx:1');
    const old = { ...newRevision(set, 1, 0) };
    const newest = newRevision(statefulSet('nginx:2'), 3546343826724305832n, 0);
    const plan = planRevisions(set, [old, newest]);
    assert.equal(plan.bump?.revision, 3546343826724305833n);
    assert.equal(plan.create, undefined);
  });
  const next: [ControllerRevision[], number | bigint][] = [
    [[], 1],
    [[rev('a', 1)], 2],
    [[rev('a', 5), rev('b', 2)], 6],
    // int64 (upstream's type): doubles would give 3546343826724306000.
    [[rev('a', 3546343826724305832n), rev('b', 2)], 3546343826724305833n],
    [[rev('a', 9007199254740990), rev('b', 2)], 9007199254740991],
    [[rev('a', 9007199254740991)], 9007199254740992n],
  ];
  for (const [revisions, want] of next) {
    it(`nextRevision of [${revisions.map((r) => r.revision)}] is ${want}`, () =>
      assert.equal(nextRevision(revisions), want));
  }
});

describe('revisionDataEqual', () => {
  const a = newRevision(statefulSet('nginx:1'), 1, 0);
  it('ignores key order and nulls', () => {
    const reverse = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(reverse);
      if (typeof v !== 'object' || v === null) return v;
      const entries = Object.entries(v)
        .reverse()
        .map(([k, x]) => [k, reverse(x)] as const);
      return Object.fromEntries([...entries, ['extra', null]]);
    };
    const reversed = reverse(a.data);
    assert.ok(isJsonObject(reversed) && revisionDataEqual(a, { ...a, data: reversed }));
    assert.equal(revisionDataEqual(a, { ...a, data: { spec: {} } }), false);
  });
  it('numeric hash labels that differ make revisions unequal (upstream EqualRevision)', () => {
    const l = (h: string): ControllerRevision => ({
      ...a,
      metadata: { labels: { [CONTROLLER_REVISION_HASH_LABEL]: h } },
    });
    assert.equal(revisionDataEqual(l('22'), l('44')), false);
    assert.equal(revisionDataEqual(l('22'), l('bcd')), true);
  });
});

describe('revisionsToPrune', () => {
  const revisions = [rev('r1', 1), rev('r2', 2), rev('r3', 3), rev('r4', 4), rev('r5', 5)];
  const live = { currentRevision: 'r4', updateRevision: 'r5' };
  const cases: [string, StatefulSet, Pod[], Record<string, unknown>, string[]][] = [
    ['under the limit', statefulSet('x'), [], { ...live, limit: 3 }, []],
    ['oldest first', statefulSet('x'), [], { ...live, limit: 1 }, ['r1', 'r2']],
    ['limit 0 keeps only live', statefulSet('x'), [], { ...live, limit: 0 }, ['r1', 'r2', 'r3']],
    [
      'a pod keeps its revision',
      statefulSet('x'),
      [pod('r1')],
      { ...live, limit: 0 },
      ['r2', 'r3'],
    ],
    ['negative keeps all', statefulSet('x'), [], { ...live, limit: -1 }, []],
    ['spec limit', statefulSet('x', {}, { revisionHistoryLimit: 1 }), [], live, ['r1', 'r2']],
    ['default 10', statefulSet('x'), [], live, []],
    [
      'live names from status',
      statefulSet('x', { currentRevision: 'r1', updateRevision: 'r2' }),
      [],
      { limit: 0 },
      ['r3', 'r4', 'r5'],
    ],
  ];
  for (const [name, set, pods, options, want] of cases) {
    it(name, () =>
      assert.deepEqual(revisionsToPrune(set, revisions, pods, options).map(nameOf), want),
    );
  }
});

describe('applyRevision', () => {
  it('restores the template and nothing else', () => {
    const set = statefulSet('nginx:2', {}, { replicas: 5 });
    const restored = applyRevision(set, newRevision(statefulSet('nginx:1'), 1, 0));
    const spec = restored.spec as Record<string, unknown>;
    assert.deepEqual(spec.template, template('nginx:1'));
    assert.equal(spec.replicas, 5);
    assert.deepEqual((set.spec as Record<string, unknown>).template, template('nginx:2'));
  });
  it('round-trips: the restored set yields the same data', () => {
    const r = newRevision(statefulSet('nginx:1'), 1, 0);
    assert.deepEqual(revisionData(applyRevision(statefulSet('nginx:9'), r)), r.data);
  });
});

describe('properties', () => {
  const arbTemplate = fc.record({
    image: fc.constantFrom('nginx:1', 'nginx:2', 'busybox', 'redis:7'),
    labels: fc.dictionary(fc.constantFrom('app', 'tier', 'zone'), fc.constantFrom('a', 'b', 'c')),
    port: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
  });
  type T = typeof arbTemplate extends fc.Arbitrary<infer U> ? U : never;
  const setOf = (t: T, status: Record<string, unknown> = {}): StatefulSet => {
    const s = statefulSet(t.image, status);
    const tpl = template(t.image, t.labels);
    if (t.port !== undefined) (tpl.spec as Record<string, unknown>).ports = [t.port];
    return asKind({ ...s, spec: { ...s.spec, template: tpl } }, 'StatefulSet');
  };
  const key = (t: T): string => JSON.stringify([t.image, Object.entries(t.labels).sort(), t.port]);

  it('names are stable for equal templates and differ for different ones', () => {
    fc.assert(
      fc.property(arbTemplate, arbTemplate, fc.nat(5), (a, b, count) => {
        const sa = setOf(a);
        const shuffled = setOf({
          ...a,
          labels: Object.fromEntries(Object.entries(a.labels).reverse()),
        });
        const na = nameOf(newRevision(sa, 1, count));
        assert.equal(nameOf(newRevision(shuffled, 9, count)), na);
        assert.equal(nameOf(newRevision(setOf(b), 1, count)) === na, key(a) === key(b));
      }),
    );
  });

  it('a sequence of template changes keeps numbers increasing and converges in one step', () => {
    fc.assert(
      fc.property(fc.array(arbTemplate, { minLength: 1, maxLength: 12 }), (templates) => {
        let revisions: ControllerRevision[] = [];
        let current = '';
        for (const t of templates) {
          const set = setOf(t, { currentRevision: current });
          const plan = planRevisions(set, revisions);
          revisions = applyPlan(revisions, plan);
          const again = planRevisions(set, revisions);
          assert.equal(again.create, undefined);
          assert.equal(again.bump, undefined);
          assert.equal(nameOf(again.updateRevision), nameOf(plan.updateRevision));
          const newest = sortRevisions(revisions).at(-1);
          assert.equal(nameOf(newest), nameOf(plan.updateRevision));
          assert.equal(new Set(revisions.map((r) => r.revision)).size, revisions.length);
          assert.equal(new Set(revisions.map(nameOf)).size, revisions.length);
          current = nameOf(plan.currentRevision);
        }
        assert.equal(revisions.length, new Set(templates.map(key)).size);
      }),
    );
  });

  it('pruning never removes live revisions and keeps at most limit others, dropping the oldest', () => {
    const arbRevs = fc.uniqueArray(
      fc.record({ name: fc.constantFrom(...'abcdefghijklmnop'), n: fc.nat(20), t: fc.nat(3) }),
      { selector: (r) => r.name, maxLength: 16 },
    );
    fc.assert(
      fc.property(
        arbRevs,
        fc.array(fc.constantFrom(...'abcdefgh')),
        fc.integer({ min: -1, max: 6 }),
        fc.constantFrom(...'abcd'),
        fc.constantFrom(...'efgh'),
        (rs, podRevs, limit, cur, upd) => {
          const revisions = rs.map((r) => rev(r.name, r.n, `2024-01-0${r.t + 1}T00:00:00Z`));
          const pods = podRevs.map(pod);
          const pruned = revisionsToPrune(statefulSet('x'), revisions, pods, {
            limit,
            currentRevision: cur,
            updateRevision: upd,
          });
          const live = new Set([cur, upd, ...podRevs]);
          const prunedNames = new Set(pruned.map(nameOf));
          for (const n of prunedNames) assert.ok(!live.has(n), `pruned live ${n}`);
          const keptHistory = revisions.filter(
            (r) => !live.has(nameOf(r)) && !prunedNames.has(nameOf(r)),
          );
          const history = revisions.filter((r) => !live.has(nameOf(r)));
          assert.equal(
            keptHistory.length,
            limit < 0 ? history.length : Math.min(history.length, limit),
          );
          for (const p of pruned)
            for (const k of keptHistory) assert.ok(compareRevisions(p, k) <= 0);
        },
      ),
    );
  });
});
