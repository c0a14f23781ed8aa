/**
 * Tests for the typed views of a shared informer: every read and every handler call narrows
 * the cached object to the kind (a delete tombstone's last state too), and an object of another
 * kind in the cache fails loudly instead of reaching typed code.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../api/model/index.js';
import type { KubeObject } from '../api/object.js';
import { DeletedFinalStateUnknown, type Lister } from '../client/shared-informer.js';
import { kindHandler, kindLister } from './kind-informer.js';

const pod = (name: string, node = ''): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'ns' },
  spec: { containers: [], ...(node ? { nodeName: node } : {}) },
});

/** A lister over a fixed list; `byIndex` answers every index with all objects. */
function listerOf(objects: KubeObject[]): Lister<KubeObject> {
  return {
    get: (namespace, name) =>
      objects.find((o) => o.metadata?.namespace === namespace && o.metadata?.name === name),
    list: () => objects,
    listInNamespace: (namespace) => objects.filter((o) => o.metadata?.namespace === namespace),
    byIndex: () => objects,
  };
}

describe('kindLister', () => {
  const pods = kindLister(listerOf([pod('a', 'n1'), pod('b')]), 'Pod');
  const reads: Array<{ name: string; read: () => Array<Pod | undefined>; want: string[] }> = [
    { name: 'get', read: () => [pods.get('ns', 'a')], want: ['n1'] },
    { name: 'list', read: () => pods.list(), want: ['n1', ''] },
    { name: 'listInNamespace', read: () => pods.listInNamespace('ns'), want: ['n1', ''] },
    { name: 'byIndex', read: () => pods.byIndex('any', 'x'), want: ['n1', ''] },
  ];
  for (const r of reads) {
    it(`${r.name} hands out typed pods`, () => {
      assert.deepEqual(
        r.read().map((p) => p?.spec?.nodeName ?? ''),
        r.want,
      );
    });
  }

  it('get of a missing object is undefined', () => {
    assert.equal(pods.get('ns', 'missing'), undefined);
  });

  it('an object of another kind throws instead of passing as the kind', () => {
    const mixed = kindLister(listerOf([{ apiVersion: 'v1', kind: 'Node', metadata: {} }]), 'Pod');
    assert.throws(() => mixed.list(), TypeError);
  });
});

describe('kindHandler', () => {
  it('narrows add, update and delete (tombstones keep their key)', () => {
    const seen: string[] = [];
    const handler = kindHandler('Pod', {
      onAdd: (p, initial) => seen.push(`add ${p.metadata?.name} ${initial}`),
      onUpdate: (old, p) => seen.push(`update ${old.spec?.nodeName ?? ''}->${p.spec?.nodeName}`),
      onDelete: (deleted) =>
        seen.push(
          deleted instanceof DeletedFinalStateUnknown
            ? `tombstone ${deleted.key} ${deleted.obj.metadata?.name}`
            : `delete ${deleted.metadata?.name}`,
        ),
    });
    handler.onAdd?.(pod('a'), true);
    handler.onUpdate?.(pod('a'), pod('a', 'n2'));
    handler.onDelete?.(pod('a'));
    handler.onDelete?.(new DeletedFinalStateUnknown('ns/b', pod('b')));
    assert.deepEqual(seen, ['add a true', 'update ->n2', 'delete a', 'tombstone ns/b b']);
  });

  it('wraps only the callbacks the handler has', () => {
    const handler = kindHandler('Pod', { onAdd: () => {} });
    assert.equal(typeof handler.onAdd, 'function');
    assert.equal(handler.onUpdate, undefined);
    assert.equal(handler.onDelete, undefined);
  });
});
