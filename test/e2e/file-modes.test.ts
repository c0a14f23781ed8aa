/**
 * Every file of `fleetyard up` that holds cluster state or a secret is 0600 (the data dir
 * 0700) whatever the umask it was started under, the SQLite database and its WAL included
 * (they hold every Secret); and a database an older version left 0644 is tightened.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { newDataDir } from './testing/cluster.js';
import { spawnUp } from './testing/up-process.js';

const mode = (p: string): number => statSync(p).mode & 0o777;

/** Files that may be readable by others: the certificates, which are public. */
const PUBLIC = new Set(['pki/ca.crt', 'pki/server.crt']);

/** Every file under `dir`, relative, directories included (with a trailing /). */
function walk(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? [`${prefix}${e.name}/`, ...walk(join(dir, e.name), `${prefix}${e.name}/`)]
      : [`${prefix}${e.name}`],
  );
}

describe('fleetyard up under umask 000: private files stay private', () => {
  const dataDir = newDataDir();
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates the data dir 0700 and every state file 0600 (certificates 0644)', async () => {
    const up = spawnUp(['--data-dir', dataDir, '--port', '0', '--nodes', '1'], { umask: '000' });
    await up.ready;
    try {
      // While running: the WAL holds the newest objects.
      assert.ok(existsSync(join(dataDir, 'state.db-wal')), 'the WAL exists while running');
      assert.equal(mode(dataDir), 0o700);
      const files = walk(dataDir);
      for (const f of ['state.db', 'state.db-wal', 'token', 'kubeconfig', 'pki/ca.key']) {
        assert.ok(files.includes(f), `${f} in ${files.join(', ')}`);
      }
      for (const f of files) {
        const want = f.endsWith('/') ? 0o700 : PUBLIC.has(f) ? 0o644 : 0o600;
        assert.equal(mode(join(dataDir, f)).toString(8), want.toString(8), f);
      }
    } finally {
      assert.equal((await up.stop()).code, 0);
    }
  });

  it('tightens a database (and WAL) an older version left 0644', async () => {
    for (const f of ['state.db', 'state.db-wal']) {
      if (existsSync(join(dataDir, f))) chmodSync(join(dataDir, f), 0o644);
    }
    const up = spawnUp(['--data-dir', dataDir, '--port', '0', '--controllers='], { umask: '022' });
    await up.ready;
    try {
      assert.equal(mode(join(dataDir, 'state.db')), 0o600);
      assert.equal(mode(join(dataDir, 'state.db-wal')), 0o600);
    } finally {
      assert.equal((await up.stop()).code, 0);
    }
  });
});
