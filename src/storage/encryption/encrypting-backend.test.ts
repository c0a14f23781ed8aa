import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Backend, KeyValue } from '../backend.js';
import { createMemoryBackend } from '../memory/backend.js';
import { collect, runBackendConformance } from '../testing/conformance.js';
import type { EncryptionConfiguration, ProviderConfiguration } from './config.js';
import { DecryptError, encryptingBackend, type ResourceOfKey } from './encrypting-backend.js';
import { resourceOfStorageKey } from './storage-keys.js';

const keyOf = (name: string, fill: number) => ({
  name,
  secret: Buffer.alloc(32, fill).toString('base64'),
});
const KEY1 = keyOf('key1', 1);
const KEY2 = keyOf('key2', 2);

function configOf(
  resources: string[],
  ...providers: ProviderConfiguration[]
): EncryptionConfiguration {
  return {
    apiVersion: 'apiserver.config.k8s.io/v1',
    kind: 'EncryptionConfiguration',
    resources: [{ resources, providers }],
  };
}

/**
 * For the conformance suite's free-form keys (`/a/1`, `/ab`, `/p/a`): the first segment is a
 * core resource, so with `*.` every key is encrypted. A prefix names a resource only when its
 * first segment is complete (`/a/`), so lists over `''` or `/a` take the per-key path.
 */
const firstSegment: ResourceOfKey = (key) => {
  const end = key.indexOf('/', 1);
  const resource = end < 0 ? key.slice(1) : key.slice(1, end);
  return key.startsWith('/') && resource !== '' ? { group: '', resource } : undefined;
};

/** Every value the inner store holds or has held (current state and watch history). */
function rawValues(inner: Backend): string[] {
  const { events, watcher } = collect(inner, '', inner.compactedRevision());
  watcher.stop();
  return [
    ...inner.list('').items.map((kv) => kv.value),
    ...events.flatMap((e) => [e.kv.value, e.prevKv?.value ?? '']),
  ];
}

const PROVIDERS: [string, ProviderConfiguration][] = [
  ['aescbc', { aescbc: { keys: [KEY1] } }],
  ['aesgcm', { aesgcm: { keys: [KEY1] } }],
  ['secretbox', { secretbox: { keys: [KEY1] } }],
];

for (const [name, provider] of PROVIDERS) {
  runBackendConformance(`encrypting(${name}, memory)`, (options) => {
    const inner = createMemoryBackend(options);
    const b = encryptingBackend(inner, configOf(['*.'], provider), firstSegment);
    // The wrapped store must hold only ciphertext, whatever the suite wrote.
    const close = b.close.bind(b);
    b.close = async () => {
      // Some cases close twice; the second close has nothing left to check.
      if (inner.health().state === 'closed') return close();
      for (const value of rawValues(inner)) {
        assert.ok(value === '' || value.startsWith('k8s:enc:'), `plaintext stored: ${value}`);
      }
      await close();
    };
    return b;
  });
}

const SECRET = '/core/secrets/default/db';
const POD = '/core/pods/default/web';
const secretJson = (rv: number, password = 'hunter2-very-secret') =>
  JSON.stringify({ kind: 'Secret', metadata: { resourceVersion: String(rv) }, data: { password } });

function secretsStore(inner: Backend, ...providers: ProviderConfiguration[]): Backend {
  return encryptingBackend(inner, configOf(['secrets'], ...providers), resourceOfStorageKey);
}

describe('encrypting backend', () => {
  it('keeps a Secret out of the inner store, and serves it on every read path', async () => {
    const inner = createMemoryBackend();
    const b = secretsStore(inner, { aescbc: { keys: [KEY1] } });
    const { events } = collect(b, '/core/secrets/', 0);
    const created = await b.create(SECRET, (rv) => secretJson(rv));
    const updated = await b.update(SECRET, (rv) => secretJson(rv, 'second-password'), 1);
    const gone = await b.delete(SECRET, 2);
    await b.create(SECRET, (rv) => secretJson(rv, 'third-password'));
    assert.equal(created.value, secretJson(1));
    assert.equal(updated.value, secretJson(2, 'second-password'));
    assert.equal(gone.value, secretJson(2, 'second-password'));
    assert.deepEqual(
      events.map((e) => [e.type, e.kv.value, e.prevKv?.value]),
      [
        ['create', secretJson(1), undefined],
        ['update', secretJson(2, 'second-password'), secretJson(1)],
        ['delete', secretJson(2, 'second-password'), secretJson(2, 'second-password')],
        ['create', secretJson(4, 'third-password'), undefined],
      ],
    );
    assert.equal(b.get(SECRET)?.value, secretJson(4, 'third-password'));
    assert.equal(b.getLatest(SECRET)?.value, secretJson(4, 'third-password'));
    assert.deepEqual(
      b.list('/core/secrets/', { revision: 1 }).items.map((kv) => kv.value),
      [secretJson(1)],
    );
    const filtered = b.list('', { filter: (kv) => kv.value.includes('third') });
    assert.deepEqual(
      filtered.items.map((kv) => kv.key),
      [SECRET],
    );
    for (const raw of rawValues(inner)) {
      assert.ok(!raw.includes('password'), raw);
    }
  });

  it('passes other resources through as the very objects the inner store holds', async () => {
    const inner = createMemoryBackend();
    const b = secretsStore(inner, { aescbc: { keys: [KEY1] } });
    await b.create(POD, () => '{"kind":"Pod"}');
    assert.equal(inner.get(POD)?.value, '{"kind":"Pod"}');
    assert.equal(b.get(POD), inner.get(POD));
    assert.equal(b.list('/core/pods/').items[0], inner.get(POD));
  });

  it('hands out one plaintext object per stored version, to every reader and watcher', async () => {
    const b = secretsStore(createMemoryBackend(), { aescbc: { keys: [KEY1] } });
    const one = collect(b, '/core/secrets/', 0);
    const two = collect(b, '', 0);
    const written = await b.create(SECRET, (rv) => secretJson(rv));
    const got = b.get(SECRET);
    assert.equal(got, written);
    assert.equal(b.list('/core/').items[0], got);
    assert.equal(one.events[0], two.events[0]);
    assert.equal(one.events[0]?.kv, got);
  });

  it('rotates: key1 data reads under [key2, key1], new writes use key2, key1 removed fails', async () => {
    const inner = createMemoryBackend();
    const before = secretsStore(inner, { aescbc: { keys: [KEY1] } });
    await before.create(SECRET, (rv) => secretJson(rv));
    const other = '/core/secrets/default/other';
    await before.create(other, (rv) => secretJson(rv, 'left-under-key1'));

    const rotated = secretsStore(inner, { aescbc: { keys: [KEY2, KEY1] } });
    assert.equal(rotated.get(SECRET)?.value, secretJson(1));
    await rotated.update(SECRET, (rv) => secretJson(rv, 'rewritten'), 1);
    assert.ok(inner.get(SECRET)?.value.startsWith('k8s:enc:aescbc:v1:key2:'));

    const key2Only = secretsStore(inner, { aescbc: { keys: [KEY2] } });
    assert.equal(key2Only.get(SECRET)?.value, secretJson(3, 'rewritten'));
    assert.throws(
      () => key2Only.get(other),
      (err: unknown) =>
        err instanceof DecryptError &&
        err.key === other &&
        err.message ===
          `unable to transform key "${other}": no matching key was found for the provided AES transformer`,
    );
    assert.throws(() => key2Only.list('/core/secrets/'), DecryptError);
    assert.throws(() => key2Only.watch('/core/secrets/', 0, () => {}), DecryptError);
    // Other resources and other keys still work.
    assert.equal(key2Only.list('/core/pods/').items.length, 0);
  });

  it('reads encrypted values with identity first, and writes plaintext', async () => {
    const inner = createMemoryBackend();
    await secretsStore(inner, { aesgcm: { keys: [KEY1] } }).create(SECRET, (rv) => secretJson(rv));
    const b = secretsStore(inner, { identity: {} }, { aesgcm: { keys: [KEY1] } });
    assert.equal(b.get(SECRET)?.value, secretJson(1));
    await b.update(SECRET, (rv) => secretJson(rv, 'now-plain'), 1);
    assert.equal(inner.get(SECRET)?.value, secretJson(2, 'now-plain'));
    assert.equal(b.get(SECRET), inner.get(SECRET));
  });

  it('reads plaintext written before encryption was on, with identity last', async () => {
    const inner = createMemoryBackend();
    await inner.create(SECRET, (rv) => secretJson(rv));
    const b = secretsStore(inner, { aescbc: { keys: [KEY1] } }, { identity: {} });
    assert.equal(b.get(SECRET)?.value, secretJson(1));
    const noIdentity = secretsStore(inner, { aescbc: { keys: [KEY1] } });
    assert.throws(() => noIdentity.get(SECRET), /no matching prefix found/);
  });

  it('refuses ciphertext under a resource the configuration no longer names', async () => {
    const inner = createMemoryBackend();
    await secretsStore(inner, { aescbc: { keys: [KEY1] } }).create(SECRET, (rv) => secretJson(rv));
    const b = encryptingBackend(
      inner,
      configOf(['configmaps'], { aescbc: { keys: [KEY1] } }),
      resourceOfStorageKey,
    );
    const message = `unable to transform key "${SECRET}": identity transformer tried to read encrypted data`;
    assert.throws(() => b.get(SECRET), { message });
    assert.throws(() => b.list('/core/secrets/'), { message });
    assert.throws(() => b.list(''), { message });
  });

  it('leaves a live event it cannot read out of the watch and reports it', async () => {
    const inner = createMemoryBackend();
    const errors: DecryptError[] = [];
    const b = encryptingBackend(
      inner,
      configOf(['secrets'], { aescbc: { keys: [KEY1] } }),
      resourceOfStorageKey,
      { onWatchError: (err) => errors.push(err) },
    );
    const seen: KeyValue[] = [];
    b.watch('', 0, (events) => seen.push(...events.map((e) => e.kv)));
    // Written behind the wrapper's back, under a key it does not hold.
    await secretsStore(inner, { aescbc: { keys: [KEY2] } }).create(SECRET, (rv) => secretJson(rv));
    await b.create(POD, () => '{}');
    assert.deepEqual(
      seen.map((kv) => kv.key),
      [POD],
    );
    assert.deepEqual(
      errors.map((e) => e.key),
      [SECRET],
    );
  });
});

describe('resourceOfStorageKey', () => {
  const cases: [string, ReturnType<ResourceOfKey>][] = [
    ['/core/secrets/default/db', { group: '', resource: 'secrets' }],
    ['/core/secrets/', { group: '', resource: 'secrets' }],
    ['/apps/deployments/ns/web', { group: 'apps', resource: 'deployments' }],
    [
      '/rbac.authorization.k8s.io/clusterroles/admin',
      { group: 'rbac.authorization.k8s.io', resource: 'clusterroles' },
    ],
    ['/core/secrets', undefined],
    ['/core/', undefined],
    ['/core//x', undefined],
    ['', undefined],
    ['core/secrets/a', undefined],
  ];
  for (const [key, expected] of cases) {
    it(`${JSON.stringify(key)} → ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(resourceOfStorageKey(key), expected);
    });
  }
});
