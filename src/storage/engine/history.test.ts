import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StorageEvent } from '../backend.js';
import { History } from './history.js';

function event(revision: number): StorageEvent {
  return {
    type: 'create',
    revision,
    kv: { key: `/k${revision}`, value: '', createRevision: revision, modRevision: revision },
  };
}

const revs = (h: History, after: number) => [...h.after(after)].map((e) => e.revision);

describe('History', () => {
  it('trims to a limit and reports the newest dropped revision', () => {
    const h = new History();
    h.push([1, 2, 3, 4, 5].map(event));
    assert.equal(h.trimTo(10), 0);
    assert.equal(h.trimTo(2), 3);
    assert.equal(h.size, 2);
    assert.deepEqual(revs(h, 0), [4, 5]);
    assert.deepEqual(revs(h, 4), [5]);
  });

  it('drops through a revision, also across gaps, and keeps working after shrinking', () => {
    const h = new History();
    h.push([2, 5, 9].map(event));
    h.dropThrough(6);
    assert.deepEqual(revs(h, 0), [9]);
    const many = Array.from({ length: 5000 }, (_, i) => event(i + 10));
    h.push(many);
    h.dropThrough(4000);
    assert.equal(h.size, 1009);
    assert.deepEqual(revs(h, 5005), [5006, 5007, 5008, 5009]);
  });
});
