import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../api/object.js';
import { FakeListerWatcher } from '../client/testing/fake-lister-watcher.js';
import { FakeClock } from '../util/clock.js';
import { createInformerFactory } from './informer-factory.js';

const pods = { group: '', version: 'v1', plural: 'pods' };
const pod = (name: string, node: string): KubeObject => ({
  metadata: { name, namespace: 'default', resourceVersion: '1' },
  spec: { nodeName: node },
});

test('one informer per resource: a second request shares the first list and watch', async () => {
  const stop = new AbortController();
  const paths: string[] = [];
  const source = new FakeListerWatcher();
  source.setDefaultList({ items: [pod('a', 'n1'), pod('b', 'n2')], resourceVersion: '1' });
  const factory = createInformerFactory({
    clock: new FakeClock(),
    signal: stop.signal,
    listerWatcher: (path) => {
      paths.push(path);
      return source;
    },
  });
  const first = factory.informer(pods);
  const second = factory.informer(pods, {
    indexers: { node: (o) => [String((o.spec as { nodeName: string }).nodeName)] },
  });
  assert.equal(first, second);
  assert.deepEqual(paths, ['/api/v1/pods']);
  assert.equal(await factory.waitForSync([first], stop.signal), true);
  // An index added after the cache filled covers what is already cached.
  assert.deepEqual(
    second.lister.byIndex('node', 'n2').map((o) => o.metadata?.name),
    ['b'],
  );
  stop.abort();
});
