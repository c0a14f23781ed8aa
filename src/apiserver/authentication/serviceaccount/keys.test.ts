import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  inMemoryServiceAccountKey,
  keyIdOf,
  loadOrCreateServiceAccountKey,
  loadServiceAccountKey,
  SERVICE_ACCOUNT_KEY_FILE,
  serviceAccountKeyFrom,
} from './keys.js';

const posix = process.platform !== 'win32';

describe('service account signing key', () => {
  let base: string;
  before(async () => {
    base = await mkdtemp(join(tmpdir(), 'sa-key-'));
  });
  after(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('is made once as a 0600 PEM file and read back the same after', async () => {
    const dir = join(base, 'pki');
    const first = await loadOrCreateServiceAccountKey(dir);
    const file = join(dir, SERVICE_ACCOUNT_KEY_FILE);
    assert.match(await readFile(file, 'utf8'), /^-----BEGIN PRIVATE KEY-----/);
    if (posix) assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.equal(first.alg, 'RS256');
    assert.equal(first.privateKey.asymmetricKeyDetails?.modulusLength, 2048);
    const second = await loadOrCreateServiceAccountKey(dir);
    assert.equal(second.kid, first.kid);
    assert.equal((await loadServiceAccountKey(dir)).kid, first.kid);
  });

  it('is never made by loadServiceAccountKey', async () => {
    await assert.rejects(
      loadServiceAccountKey(join(base, 'empty')),
      /no service account signing key/,
    );
  });

  it('is refused when other users can read it', { skip: !posix }, async () => {
    const dir = join(base, 'open');
    await loadOrCreateServiceAccountKey(dir);
    await chmod(join(dir, SERVICE_ACCOUNT_KEY_FILE), 0o644);
    await assert.rejects(loadOrCreateServiceAccountKey(dir), /mode 0644/);
  });

  it('has upstream kid: base64url(SHA-256(DER SubjectPublicKeyInfo))', () => {
    const key = inMemoryServiceAccountKey();
    const der = key.publicKey.export({ type: 'spki', format: 'der' });
    const want = createHash('sha256').update(der).digest('base64').replace(/=+$/, '');
    assert.equal(key.kid, want.replaceAll('+', '-').replaceAll('/', '_'));
    assert.equal(keyIdOf(key.publicKey), key.kid);
    assert.equal(key.kid.length, 43);
  });

  const refused: {
    name: string;
    make: () => ReturnType<typeof generateKeyPairSync>['privateKey'];
  }[] = [
    {
      name: 'RSA 1024',
      make: () => generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey,
    },
    { name: 'P-384', make: () => generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey },
    { name: 'Ed25519', make: () => generateKeyPairSync('ed25519').privateKey },
  ];
  for (const c of refused) {
    it(`refuses ${c.name}`, () => {
      assert.throws(() => serviceAccountKeyFrom(c.make()), /service account key/);
    });
  }
});
