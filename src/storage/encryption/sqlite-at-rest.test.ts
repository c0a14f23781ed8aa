/**
 * The end-to-end promise of encryption at rest: with the SQLite backend, a Secret's plaintext
 * is in no byte of the files on disk (database, WAL, journal), across history, updates and a
 * restart, while the server reads it back.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { openSqliteBackend } from '../sqlite/backend.js';
import { loadOrCreateEncryptionConfig } from './default-key.js';
import { encryptingBackend } from './encrypting-backend.js';
import { resourceOfStorageKey } from './storage-keys.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetyard-at-rest-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

const SECRET = '/core/secrets/default/db-password';
const PLAIN = 'correct-horse-battery-staple';
const UPDATED = 'tr0ub4dor-and-3';
const CONFIGMAP = '/core/configmaps/default/settings';
const secret = (password: string) => (rv: number) =>
  JSON.stringify({
    kind: 'Secret',
    metadata: { name: 'db-password', resourceVersion: String(rv) },
    // Both as written (stringData) and as base64 (data), as a Secret carries them.
    stringData: { password },
    data: { password: Buffer.from(password).toString('base64') },
  });

/** Every file of the data directory, concatenated. */
function allBytes(dir: string): Buffer {
  return Buffer.concat(
    fs
      .readdirSync(dir)
      .filter((f) => fs.statSync(path.join(dir, f)).isFile())
      .map((f) => fs.readFileSync(path.join(dir, f))),
  );
}

describe('encryption at rest with the sqlite backend', () => {
  it('keeps every version of a Secret out of the database files, and reads it back', async () => {
    const dir = fs.mkdtempSync(path.join(root, 'data-'));
    const { config } = await loadOrCreateEncryptionConfig(dir);
    const open = async () =>
      encryptingBackend(
        await openSqliteBackend({ path: dir, reserveBytes: 64 * 1024 }),
        config,
        resourceOfStorageKey,
      );
    const first = await open();
    await first.create(SECRET, secret(PLAIN));
    await first.update(SECRET, secret(UPDATED), 1);
    await first.create(CONFIGMAP, () => '{"data":{"visible":"in-the-clear"}}');
    await first.close();

    const bytes = allBytes(dir);
    // The control: the same search finds what is not encrypted.
    assert.ok(bytes.includes('in-the-clear'), 'the search sees plaintext values');
    for (const needle of [PLAIN, UPDATED, Buffer.from(PLAIN).toString('base64')]) {
      assert.ok(!bytes.includes(needle), `"${needle}" is in a database file`);
    }
    assert.ok(bytes.includes('k8s:enc:aescbc:v1:key1:'));

    const second = await open();
    try {
      assert.equal(second.get(SECRET)?.value, secret(UPDATED)(2));
      assert.deepEqual(
        second.list('/core/secrets/', { revision: 1 }).items.map((kv) => kv.value),
        [secret(PLAIN)(1)],
      );
    } finally {
      await second.close();
    }
  });
});
