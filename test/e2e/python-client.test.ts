/**
 * The official Python client (Debian's python3-kubernetes, installed by `.ci/run`) against the
 * real `fleetyard up`: a second client that nobody here wrote. It sends boolean query
 * parameters as Python prints them (`watch=True`, `allowWatchBookmarks=True`), and its users
 * compare error bodies as strings, so the Status bytes must be upstream's (issue 14, items 1-2).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { API_ONLY, type Cluster, REPO_ROOT, startCluster } from './testing/cluster.js';

const SCRIPT = join(REPO_ROOT, 'test', 'e2e', 'testing', 'python', 'client_checks.py');

/**
 * The first `python3` on the PATH that imports `kubernetes`: a version manager's may come first
 * and lack the package apt installed for the system's.
 */
function pythonWithClient(): string {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter((d) => d !== '');
  for (const candidate of dirs.map((d) => join(d, 'python3')).filter((f) => existsSync(f))) {
    const probe = spawnSync(candidate, ['-c', 'import kubernetes'], { encoding: 'utf8' });
    if (probe.status === 0) return candidate;
  }
  throw new Error('no python3 with the kubernetes client: .ci/run installs python3-kubernetes');
}

describe('the official Python client', () => {
  let cluster: Cluster | undefined;
  let python = 'python3';
  const run = (check: string, ns: string): Record<string, unknown> => {
    const out = execFileSync(python, [SCRIPT, cluster!.kubeconfig, check, ns], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    return JSON.parse(out) as Record<string, unknown>;
  };

  before(async () => {
    python = pythonWithClient();
    cluster = await startCluster({ ephemeral: true, args: API_ONLY });
  });
  after(async () => {
    await cluster?.stop();
    cluster?.cleanup();
  });

  it('watches with watch=True: the stream, not a List', () => {
    run('namespace', 'py-watch');
    const { events } = run('watch', 'py-watch') as { events: string[][] };
    assert.deepEqual(events, [
      ['ADDED', 'before'],
      ['ADDED', 'during'],
    ]);
  });

  it('watches from a resourceVersion with allowWatchBookmarks=True until the timeout', () => {
    run('namespace', 'py-bookmarks');
    const { types } = run('watch-bookmarks', 'py-bookmarks') as { types: string[] };
    // Nothing changed after the listed version; a bookmark may or may not arrive in 2 s.
    assert.ok(
      types.every((t) => t === 'BOOKMARK'),
      `only bookmarks, got ${types}`,
    );
  });

  it('gets the NotFound Status as upstream writes it, byte for byte', () => {
    run('namespace', 'py-errors');
    const result = run('not-found', 'py-errors');
    assert.equal(result.status, 404);
    assert.equal(result.reason, 'Not Found');
    assert.equal(
      result.body,
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",' +
        '"message":"configmaps \\"missing\\" not found","reason":"NotFound",' +
        '"details":{"name":"missing","kind":"configmaps"},"code":404}\n',
    );
  });

  it('gets the AlreadyExists Status as upstream writes it, byte for byte', () => {
    run('namespace', 'py-conflict');
    const result = run('conflict', 'py-conflict');
    assert.equal(result.status, 409);
    assert.equal(
      result.body,
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",' +
        '"message":"configmaps \\"dup\\" already exists","reason":"AlreadyExists",' +
        '"details":{"name":"dup","kind":"configmaps"},"code":409}\n',
    );
  });

  it('creates, patches (strategic merge), lists with pretty=true and deletes', () => {
    run('namespace', 'py-crud');
    assert.deepEqual(run('crud', 'py-crud'), {
      patched: { a: '1', b: '2' },
      listed: ['crud'],
      deletedStatus: 'Success',
      deletedKind: 'Status',
    });
  });
});
