import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { FakeClock } from '../util/clock.js';
import { EXPECTATIONS_TIMEOUT_MS, Expectations, UIDTrackingExpectations } from './expectations.js';

const KEY = 'default/rs';

function fresh(): { clock: FakeClock; exp: Expectations } {
  const clock = new FakeClock();
  return { clock, exp: new Expectations({ clock }) };
}

describe('Expectations', () => {
  it('is satisfied without a record', () => {
    assert.equal(fresh().exp.satisfied(KEY), true);
  });

  // Upstream TestControllerExpectations: adds and deletes counted down to zero, then raise/lower.
  it('counts creations and deletions down to zero', () => {
    const { exp } = fresh();
    exp.set(KEY, 2, 1);
    assert.equal(exp.satisfied(KEY), false);
    exp.creationObserved(KEY);
    exp.creationObserved(KEY);
    assert.equal(exp.satisfied(KEY), false, 'one deletion still pending');
    exp.deletionObserved(KEY);
    assert.equal(exp.satisfied(KEY), true);
    exp.raise(KEY, 1, 0);
    assert.equal(exp.satisfied(KEY), false);
    exp.lower(KEY, 1, 0);
    assert.equal(exp.satisfied(KEY), true);
  });

  const replaceCases = [
    { name: 'creations replace deletions', first: 'del', second: 'add', want: { add: 3, del: 0 } },
    { name: 'deletions replace creations', first: 'add', second: 'del', want: { add: 0, del: 3 } },
  ] as const;
  for (const c of replaceCases) {
    it(c.name, () => {
      const { exp } = fresh();
      const expect = (kind: 'add' | 'del') =>
        kind === 'add' ? exp.expectCreations(KEY, 3) : exp.expectDeletions(KEY, 3);
      expect(c.first);
      expect(c.second);
      const r = exp.get(KEY);
      assert.deepEqual({ add: r?.add, del: r?.del }, c.want);
    });
  }

  it('ignores observations without a record', () => {
    const { exp } = fresh();
    exp.creationObserved(KEY);
    exp.raise(KEY, 5, 5);
    assert.equal(exp.get(KEY), undefined);
    assert.equal(exp.satisfied(KEY), true);
  });

  it('is satisfied once the record is strictly older than 5 minutes', async () => {
    const { clock, exp } = fresh();
    exp.expectCreations(KEY, 1);
    await clock.step(EXPECTATIONS_TIMEOUT_MS);
    assert.equal(exp.satisfied(KEY), false, 'exactly the timeout is not expired');
    await clock.step(1);
    assert.equal(exp.satisfied(KEY), true);
    assert.equal(exp.get(KEY)?.add, 1, 'expiry keeps the record');
    exp.expectCreations(KEY, 1);
    assert.equal(exp.satisfied(KEY), false, 'a new expectation restarts the clock');
  });

  it('forgets a key on delete', () => {
    const { exp } = fresh();
    exp.expectCreations(KEY, 4);
    exp.delete(KEY);
    assert.equal(exp.satisfied(KEY), true);
  });

  it('is satisfied exactly after the expected number of observations (or the TTL)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(20),
        fc.nat(20),
        fc.nat(25),
        fc.nat(25),
        fc.integer({ min: 0, max: 2 * EXPECTATIONS_TIMEOUT_MS }),
        async (adds, dels, seenAdds, seenDels, elapsed) => {
          const { clock, exp } = fresh();
          exp.set(KEY, adds, dels);
          for (let i = 0; i < seenAdds; i++) exp.creationObserved(KEY);
          for (let i = 0; i < seenDels; i++) exp.deletionObserved(KEY);
          await clock.step(elapsed);
          const countsDone = seenAdds >= adds && seenDels >= dels;
          assert.equal(exp.satisfied(KEY), countsDone || elapsed > EXPECTATIONS_TIMEOUT_MS);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('UIDTrackingExpectations', () => {
  function tracking(): { clock: FakeClock; exp: UIDTrackingExpectations } {
    const clock = new FakeClock();
    return { clock, exp: new UIDTrackingExpectations({ clock }) };
  }

  // Upstream TestUIDExpectations: each expected pod key is counted once; others are ignored.
  it('counts each expected pod key once', () => {
    const { exp } = tracking();
    exp.expectDeletions(KEY, ['ns/a', 'ns/b']);
    exp.deletionObserved(KEY, 'ns/a');
    exp.deletionObserved(KEY, 'ns/a'); // terminating first, then really deleted
    exp.deletionObserved(KEY, 'ns/unrelated');
    assert.equal(exp.satisfied(KEY), false);
    assert.deepEqual([...exp.deleteKeys(KEY)], ['ns/b']);
    exp.deletionObserved(KEY, 'ns/b');
    assert.equal(exp.satisfied(KEY), true);
    assert.equal(exp.get(KEY)?.del, 0);
  });

  it('counts duplicate keys once and replaces an earlier key set', () => {
    const { exp } = tracking();
    exp.expectDeletions(KEY, ['ns/a', 'ns/b']);
    exp.expectDeletions(KEY, ['ns/c', 'ns/c']);
    assert.equal(exp.get(KEY)?.del, 1);
    exp.deletionObserved(KEY, 'ns/a');
    assert.equal(exp.satisfied(KEY), false);
    exp.deletionObserved(KEY, 'ns/c');
    assert.equal(exp.satisfied(KEY), true);
  });

  it('tracks creations by count and forgets everything on delete', () => {
    const { exp } = tracking();
    exp.expectCreations(KEY, 1);
    assert.equal(exp.satisfied(KEY), false);
    exp.creationObserved(KEY);
    assert.equal(exp.satisfied(KEY), true);
    exp.expectDeletions(KEY, ['ns/a']);
    exp.delete(KEY);
    assert.equal(exp.satisfied(KEY), true);
    assert.equal(exp.deleteKeys(KEY).size, 0);
  });

  it('expires after the TTL', async () => {
    const { clock, exp } = tracking();
    exp.expectDeletions(KEY, ['ns/a']);
    await clock.step(EXPECTATIONS_TIMEOUT_MS + 1);
    assert.equal(exp.satisfied(KEY), true);
  });

  it('is satisfied exactly when every expected key was observed', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { maxLength: 6 }),
        fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'x'), { maxLength: 20 }),
        (expected, observed) => {
          const { exp } = tracking();
          exp.expectDeletions(KEY, expected);
          for (const k of observed) exp.deletionObserved(KEY, k);
          const all = expected.every((k) => observed.includes(k));
          assert.equal(exp.satisfied(KEY), all);
          assert.equal(exp.get(KEY)?.del, expected.filter((k) => !observed.includes(k)).length);
        },
      ),
    );
  });
});
