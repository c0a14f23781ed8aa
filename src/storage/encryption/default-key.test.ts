import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { EncryptionConfigError } from './config.js';
import {
  DEFAULT_ENCRYPTION_CONFIG_FILE,
  defaultEncryptionConfigText,
  ephemeralEncryptionConfig,
  loadOrCreateEncryptionConfig,
} from './default-key.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetyard-encryption-key-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));
let n = 0;
function freshDir(): string {
  const dir = path.join(root, String(++n));
  fs.mkdirSync(dir, { mode: 0o700 });
  return dir;
}

const posix = process.platform !== 'win32';

describe('loadOrCreateEncryptionConfig', () => {
  it('creates an aescbc config for secrets with one random 32-byte key, mode 0600', async () => {
    const dir = freshDir();
    const loaded = await loadOrCreateEncryptionConfig(dir);
    assert.equal(loaded.created, true);
    assert.equal(loaded.path, path.join(dir, DEFAULT_ENCRYPTION_CONFIG_FILE));
    if (posix) assert.equal(fs.statSync(loaded.path).mode & 0o777, 0o600);
    const [entry] = loaded.config.resources;
    assert.deepEqual(entry?.resources, ['secrets']);
    const first = entry?.providers[0];
    assert.ok(first && 'aescbc' in first);
    assert.equal(first.aescbc.keys.length, 1);
    assert.equal(first.aescbc.keys[0]?.name, 'key1');
    assert.equal(Buffer.from(first.aescbc.keys[0]!.secret, 'base64').length, 32);
    // identity last: Secrets stored before encryption was on stay readable.
    assert.deepEqual(entry?.providers[1], { identity: {} });
    assert.deepEqual(
      fs.readdirSync(dir),
      [DEFAULT_ENCRYPTION_CONFIG_FILE],
      'no temp file is left behind',
    );
  });

  it('reuses the file on later starts', async () => {
    const dir = freshDir();
    const first = await loadOrCreateEncryptionConfig(dir);
    const second = await loadOrCreateEncryptionConfig(dir);
    assert.equal(second.created, false);
    assert.deepEqual(second.config, first.config);
  });

  it('agrees on one key when two starts race', async () => {
    const dir = freshDir();
    const all = await Promise.all(
      Array.from({ length: 5 }, () => loadOrCreateEncryptionConfig(dir)),
    );
    assert.equal(all.filter((l) => l.created).length, 1);
    for (const l of all) assert.deepEqual(l.config, all[0]?.config);
  });

  it('uses a user-given file instead, and creates nothing', async () => {
    const dir = freshDir();
    const user = path.join(root, `user-${n}.yaml`);
    const text = defaultEncryptionConfigText(Buffer.alloc(16, 3)).replace('- aescbc:', '- aesgcm:');
    fs.writeFileSync(user, text);
    const loaded = await loadOrCreateEncryptionConfig(dir, user);
    assert.equal(loaded.path, user);
    assert.equal(loaded.created, false);
    assert.ok(
      loaded.config.resources[0]?.providers[0] &&
        'aesgcm' in loaded.config.resources[0].providers[0],
    );
    assert.deepEqual(fs.readdirSync(dir), []);
  });

  it('fails with upstream-like messages for a missing or invalid user file', async () => {
    const dir = freshDir();
    const missing = path.join(dir, 'nope.yaml');
    await assert.rejects(
      loadOrCreateEncryptionConfig(dir, missing),
      new RegExp(`^Error: error opening encryption provider configuration file "${missing}"`),
    );
    const bad = path.join(dir, 'bad.yaml');
    fs.writeFileSync(
      bad,
      'apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\n',
    );
    await assert.rejects(loadOrCreateEncryptionConfig(dir, bad), EncryptionConfigError);
  });

  it('refuses a generated file others can read', { skip: !posix }, async () => {
    const dir = freshDir();
    const { path: file } = await loadOrCreateEncryptionConfig(dir);
    fs.chmodSync(file, 0o644);
    await assert.rejects(loadOrCreateEncryptionConfig(dir), /has mode 0644/);
  });
});

describe('ephemeralEncryptionConfig', () => {
  it('gives the default configuration with a new key each time, writing nothing', () => {
    const a = ephemeralEncryptionConfig();
    const b = ephemeralEncryptionConfig();
    assert.deepEqual(a.resources[0]?.resources, ['secrets']);
    assert.notDeepEqual(a, b);
  });
});
