import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { change, pod } from './fixtures.js';
import { ObjectStore } from './store.js';

describe('ObjectStore', () => {
  it('holds the last state of each object that was not deleted, for any sequence of changes', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom('ADDED', 'MODIFIED', 'DELETED'),
            fc.integer({ min: 0, max: 5 }),
            fc.constantFrom('a', 'b'),
          ),
          { maxLength: 50 },
        ),
        (ops) => {
          const store = new ObjectStore();
          const model = new Map<string, string>();
          for (const [type, i, ns] of ops) {
            const p = pod(ns, `p${i}`, { phase: type });
            store.apply(change(type as 'ADDED', '', 'pods', p));
            if (type === 'DELETED') model.delete(`${ns}/p${i}`);
            else model.set(`${ns}/p${i}`, type);
          }
          const got = store
            .list('', 'pods')
            .map((p) => `${p.metadata.namespace}/${p.metadata.name}=${String(p.status?.phase)}`)
            .sort();
          assert.deepEqual(got, [...model].map(([k, v]) => `${k}=${v}`).sort());
          assert.equal(store.size, model.size);
        },
      ),
    );
  });

  it('returns the same list until the resource changes, and clones independently', () => {
    const s = new ObjectStore();
    s.apply(change('ADDED', '', 'pods', pod('ns', 'a')));
    const list = s.list('', 'pods');
    assert.equal(s.list('', 'pods'), list);
    s.apply(change('ADDED', '', 'nodes', { metadata: { name: 'n' } }));
    assert.equal(s.list('', 'pods'), list, 'another resource does not invalidate it');
    const copy = s.clone();
    s.apply(change('DELETED', '', 'pods', pod('ns', 'a')));
    assert.equal(s.list('', 'pods').length, 0);
    assert.equal(copy.list('', 'pods').length, 1);
    assert.equal(copy.byUidOf(pod('ns', 'a').metadata.uid ?? '')?.ref.resource, 'pods');
    assert.equal(s.byUidOf(pod('ns', 'a').metadata.uid ?? ''), undefined);
  });
});
