import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ControllerRevision, DaemonSet } from '../../api/model/index.js';
import { historyToPrune, matchesDaemonSet, newDaemonSetRevision, planHistory } from './history.js';
import { makeDaemonSet, makePod } from './testing/fixtures.js';

const withImage = (image: string): DaemonSet =>
  makeDaemonSet({
    template: {
      metadata: { labels: { app: 'agent' } },
      spec: { containers: [{ name: 'agent', image }] },
    },
  });
const rev = (ds: DaemonSet, n: number, hash: string): ControllerRevision =>
  newDaemonSetRevision(ds, n, hash);

describe('DaemonSet history', () => {
  it('a new DaemonSet: one revision named <ds>-<hash>, labelled with the hash, data a replace patch', () => {
    const ds = withImage('agent:v1');
    const plan = planHistory(ds, []);
    const created = plan.create as ControllerRevision;
    const hash = created.metadata?.labels?.['controller-revision-hash'] ?? '';
    assert.match(hash, /^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
    assert.equal(created.metadata?.name, `agent-${hash}`);
    assert.equal(created.revision, 1);
    assert.equal(created.metadata?.ownerReferences?.[0]?.kind, 'DaemonSet');
    assert.deepEqual(
      Object.keys((created.data as { spec: { template: object } }).spec.template).sort(),
      ['$patch', 'metadata', 'spec'],
    );
    assert.ok(matchesDaemonSet(ds, created));
  });

  it('a changed template: a new revision numbered after the newest', () => {
    const v1 = rev(withImage('agent:v1'), 1, 'a');
    const v2 = rev(withImage('agent:v2'), 2, 'b');
    const plan = planHistory(withImage('agent:v3'), [v2, v1]);
    assert.equal(plan.create?.revision, 3);
    assert.deepEqual(
      plan.old.map((r) => r.revision),
      [1, 2],
    );
  });

  it('a rollback: the old revision is current again, moved to the next number', () => {
    const v1 = rev(withImage('agent:v1'), 1, 'a');
    const v2 = rev(withImage('agent:v2'), 2, 'b');
    const plan = planHistory(withImage('agent:v1'), [v1, v2]);
    assert.equal(plan.create, undefined);
    assert.equal(plan.current?.metadata?.name, v1.metadata?.name);
    assert.equal(plan.renumber, 3);
  });

  it('duplicates of the current template: the highest number is kept', () => {
    const a = rev(withImage('agent:v1'), 1, 'a');
    const b = { ...rev(withImage('agent:v1'), 4, 'b') };
    const plan = planHistory(withImage('agent:v1'), [b, a]);
    assert.equal(plan.current?.metadata?.name, b.metadata?.name);
    assert.deepEqual(
      plan.duplicates.map((r) => r.metadata?.name),
      [a.metadata?.name],
    );
    assert.equal(plan.renumber, undefined);
  });

  it('pruning deletes all but revisionHistoryLimit old ones, never a hash a pod still runs', () => {
    const old = [1, 2, 3, 4].map((n) => rev(withImage(`agent:v${n}`), n, `h${n}`));
    const ds = makeDaemonSet({ revisionHistoryLimit: 1 });
    const pods = [makePod('p', 'n1', { hash: 'h1' })];
    assert.deepEqual(
      historyToPrune(ds, old, pods).map((r) => r.revision),
      [2, 3, 4],
    );
    assert.deepEqual(historyToPrune(makeDaemonSet(), old, pods), []);
  });
});
