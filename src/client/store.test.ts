import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { KubeObject } from '../api/object.js';
import { Indexer, NAMESPACE_INDEX, namespaceIndexFunc, objectKey } from './store.js';

function obj(ns: string, name: string, app?: string): KubeObject {
  return { metadata: { namespace: ns, name, ...(app ? { labels: { app } } : {}) } };
}

const byApp = (o: KubeObject): string[] => (o.metadata?.labels?.app ? [o.metadata.labels.app] : []);

describe('Indexer', () => {
  const keyCases: Array<[KubeObject, string]> = [
    [obj('default', 'a'), 'default/a'],
    [{ metadata: { name: 'node-1' } }, 'node-1'],
    [{ metadata: { name: 'n', namespace: '' } }, 'n'],
  ];
  for (const [o, key] of keyCases) {
    it(`keys ${JSON.stringify(o.metadata)} as ${key}`, () => assert.equal(objectKey(o), key));
  }

  it('rejects an object without a name', () => {
    assert.throws(() => objectKey({ metadata: {} }), /no metadata.name/);
  });

  it('keeps every index equal to a scan of the items after any sequence of writes', () => {
    const op = fc.record({
      del: fc.boolean(),
      ns: fc.constantFrom('a', 'b'),
      name: fc.constantFrom('x', 'y', 'z'),
      app: fc.option(fc.constantFrom('web', 'db'), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const idx = new Indexer<KubeObject>({ [NAMESPACE_INDEX]: namespaceIndexFunc, byApp });
        const model = new Map<string, KubeObject>();
        for (const o of ops) {
          const item = obj(o.ns, o.name, o.app);
          if (o.del) {
            assert.equal(idx.remove(objectKey(item)), model.get(objectKey(item)));
            model.delete(objectKey(item));
          } else {
            assert.equal(idx.upsert(item), model.get(objectKey(item)));
            model.set(objectKey(item), item);
          }
        }
        const keys = (os: KubeObject[]) => os.map(objectKey).sort();
        assert.deepEqual(idx.keys().sort(), [...model.keys()].sort());
        for (const v of ['web', 'db', 'none']) {
          const want = [...model.values()].filter((m) => byApp(m).includes(v));
          assert.deepEqual(keys(idx.byIndex('byApp', v)), keys(want));
        }
        for (const ns of ['a', 'b']) {
          const want = [...model.values()].filter((m) => m.metadata?.namespace === ns);
          assert.deepEqual(keys(idx.byIndex(NAMESPACE_INDEX, ns)), keys(want));
        }
      }),
    );
  });
});
