import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openBackend } from '../index.js';
import { enc, runBackendConformance } from '../testing/conformance.js';
import { createMemoryBackend } from './backend.js';

runBackendConformance('memory', (options) => createMemoryBackend(options));

describe('openBackend', () => {
  it('opens a memory backend that reports its commits', async () => {
    const commits: number[] = [];
    const b = await openBackend({ kind: 'memory', onCommit: (n) => commits.push(n) });
    await Promise.all([b.create('/a', enc('a')), b.create('/b', enc('b'))]);
    assert.equal(b.name, 'memory');
    assert.deepEqual(commits, [2]);
    await b.close();
  });

  it('refuses a sqlite backend without a path', async () => {
    await assert.rejects(openBackend({ kind: 'sqlite' }), /needs a path/);
  });
});
