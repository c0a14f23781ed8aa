/**
 * The value transformers behind an {@link EncryptionConfiguration}, after upstream's
 * `k8s.io/apiserver/pkg/storage/value` (`PrefixTransformers`) and `encrypt/{aes,identity,secretbox}`.
 *
 * A stored value names how it was written: `k8s:enc:aescbc:v1:key1:<ciphertext>`. Reads pick the
 * provider by that prefix and the key by its name, so every provider and key listed can read,
 * while only the first provider's first key writes: that is upstream's key rotation. The
 * identity provider has an empty prefix and reads anything that is not encrypted.
 *
 * Difference from upstream: fleetyard stores values as strings (JSON text), not bytes, so the
 * encrypted form is the prefix and key name followed by the base64 of upstream's binary payload
 * (IV or nonce, then ciphertext), not the raw bytes. Values are therefore not interchangeable
 * with an etcd written by kube-apiserver (neither are the keys: `/core/secrets/…`, not
 * `/registry/secrets/…`).
 *
 * @module
 */
import { type CipherGCMTypes, createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import {
  decodeKeySecret,
  type EncryptionConfiguration,
  type EncryptionKey,
  type GroupResource,
  type ProviderConfiguration,
  parseGroupResource,
} from './config.js';
import { secretboxOpen, secretboxSeal } from './secretbox.js';

/** Turns a value into its stored form and back. `key` is the storage key (GCM binds to it). */
export interface Transformer {
  toStorage(plain: string, key: string): string;
  /** Throws when the value cannot be read; the message is upstream's. */
  fromStorage(stored: string, key: string): string;
}

/** Every encrypted value starts with this; identity refuses to read such a value. */
export const ENCRYPTED_PREFIX = 'k8s:enc:';

export const PROVIDER_PREFIXES = {
  aescbc: 'k8s:enc:aescbc:v1:',
  aesgcm: 'k8s:enc:aesgcm:v1:',
  secretbox: 'k8s:enc:secretbox:v1:',
} as const;

/** Encrypts or decrypts bytes with one key. */
interface KeyCipher {
  seal(plain: Buffer, key: string): Buffer;
  open(sealed: Buffer, key: string): Buffer;
}

const AES_BLOCK = 16;
const GCM_NONCE = 12;
const GCM_TAG = 16;

/** AES-128, -192 or -256 by the key's length (16, 24 or 32 bytes, checked by validation). */
function gcmAlgorithm(key: Buffer): CipherGCMTypes {
  if (key.length === 16) return 'aes-128-gcm';
  return key.length === 24 ? 'aes-192-gcm' : 'aes-256-gcm';
}

/**
 * AES-CBC with PKCS#7 padding and a random IV in front (upstream's `cbcTransformer`). No
 * integrity: upstream keeps it for compatibility and recommends it over GCM for keys it cannot
 * rotate often; padding is checked by hand to give upstream's messages.
 */
function cbcCipher(keyBytes: Buffer): KeyCipher {
  const algorithm = `aes-${keyBytes.length * 8}-cbc`;
  return {
    seal(plain) {
      const iv = randomBytes(AES_BLOCK);
      const cipher = createCipheriv(algorithm, keyBytes, iv);
      return Buffer.concat([iv, cipher.update(plain), cipher.final()]);
    },
    open(sealed) {
      if (sealed.length < AES_BLOCK || (sealed.length - AES_BLOCK) % AES_BLOCK !== 0) {
        throw new Error('the stored data is not a multiple of the block size');
      }
      const decipher = createDecipheriv(algorithm, keyBytes, sealed.subarray(0, AES_BLOCK));
      decipher.setAutoPadding(false);
      const padded = Buffer.concat([decipher.update(sealed.subarray(AES_BLOCK)), decipher.final()]);
      const pad = padded.length > 0 ? padded[padded.length - 1]! : 0;
      if (pad === 0 || pad > padded.length) {
        throw new Error('invalid PKCS7 data (empty or not padded)');
      }
      for (let i = padded.length - pad; i < padded.length; i++) {
        if (padded[i] !== pad) throw new Error('invalid padding on input');
      }
      return padded.subarray(0, padded.length - pad);
    },
  };
}

/**
 * AES-GCM with a random 12-byte nonce in front and the storage key as additional data, so a
 * value copied under another key fails to read (upstream authenticates the etcd key the same
 * way). Random nonces bound a key to about 2^32 writes: upstream's docs ask to rotate aesgcm
 * keys every 200,000 writes; aescbc is the default here for that reason.
 */
function gcmCipher(keyBytes: Buffer): KeyCipher {
  const algorithm = gcmAlgorithm(keyBytes);
  return {
    seal(plain, key) {
      const nonce = randomBytes(GCM_NONCE);
      const cipher = createCipheriv(algorithm, keyBytes, nonce);
      cipher.setAAD(Buffer.from(key));
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([nonce, body, cipher.getAuthTag()]);
    },
    open(sealed, key) {
      if (sealed.length < GCM_NONCE) {
        throw new Error('the stored data was shorter than the required size');
      }
      if (sealed.length < GCM_NONCE + GCM_TAG) {
        throw new Error('cipher: message authentication failed');
      }
      const decipher = createDecipheriv(algorithm, keyBytes, sealed.subarray(0, GCM_NONCE));
      decipher.setAAD(Buffer.from(key));
      decipher.setAuthTag(sealed.subarray(sealed.length - GCM_TAG));
      try {
        return Buffer.concat([
          decipher.update(sealed.subarray(GCM_NONCE, sealed.length - GCM_TAG)),
          decipher.final(),
        ]);
      } catch {
        throw new Error('cipher: message authentication failed');
      }
    },
  };
}

/** XSalsa20-Poly1305 (NaCl secretbox) with a random 24-byte nonce in front, as upstream. */
function secretboxCipher(keyBytes: Buffer): KeyCipher {
  return {
    seal(plain) {
      const nonce = randomBytes(24);
      return Buffer.concat([nonce, secretboxSeal(plain, nonce, keyBytes)]);
    },
    open(sealed) {
      if (sealed.length < 24 + 16) {
        throw new Error('the stored data was shorter than the required size');
      }
      const plain = secretboxOpen(sealed.subarray(24), sealed.subarray(0, 24), keyBytes);
      if (plain === undefined) throw new Error('output array was not large enough for encryption');
      return plain;
    },
  };
}

const NO_KEY_MESSAGE = {
  aescbc: 'no matching key was found for the provided AES transformer',
  aesgcm: 'no matching key was found for the provided AES transformer',
  secretbox: 'no matching key was found for the provided Secretbox transformer',
} as const;

type KeyedProvider = keyof typeof PROVIDER_PREFIXES;

/** One provider element: `prefix` + `keyname:` + base64(seal(value)). */
function keyedTransformer(provider: KeyedProvider, keys: readonly EncryptionKey[]): Transformer {
  const make =
    provider === 'aescbc' ? cbcCipher : provider === 'aesgcm' ? gcmCipher : secretboxCipher;
  const ciphers = keys.map((k) => {
    const bytes = decodeKeySecret(k.secret);
    if (bytes === undefined) throw new Error(`could not obtain secret for named key ${k.name}`);
    return { prefix: `${PROVIDER_PREFIXES[provider]}${k.name}:`, cipher: make(bytes) };
  });
  const writer = ciphers[0];
  if (writer === undefined) throw new Error(`${provider} provider has no valid keys`);
  return {
    toStorage(plain, key) {
      return writer.prefix + writer.cipher.seal(Buffer.from(plain, 'utf8'), key).toString('base64');
    },
    fromStorage(stored, key) {
      // Upstream's inner PrefixTransformers: the first key whose name matches.
      for (const c of ciphers) {
        if (!stored.startsWith(c.prefix)) continue;
        const sealed = Buffer.from(stored.slice(c.prefix.length), 'base64');
        return c.cipher.open(sealed, key).toString('utf8');
      }
      throw new Error(NO_KEY_MESSAGE[provider]);
    },
  };
}

/**
 * upstream's `identity.NewEncryptCheckTransformer`: writes plaintext, reads anything but an
 * encrypted value. Also what a resource no rule names gets.
 */
export const identityTransformer: Transformer = {
  toStorage: (plain) => plain,
  fromStorage(stored) {
    if (stored.startsWith(ENCRYPTED_PREFIX)) {
      throw new Error('identity transformer tried to read encrypted data');
    }
    return stored;
  },
};

interface PrefixedTransformer {
  readonly prefix: string;
  readonly transformer: Transformer;
}

function providerTransformer(p: ProviderConfiguration): PrefixedTransformer {
  if ('identity' in p) return { prefix: '', transformer: identityTransformer };
  const provider: KeyedProvider = 'aescbc' in p ? 'aescbc' : 'aesgcm' in p ? 'aesgcm' : 'secretbox';
  const keys = 'aescbc' in p ? p.aescbc.keys : 'aesgcm' in p ? p.aesgcm.keys : p.secretbox.keys;
  return { prefix: PROVIDER_PREFIXES[provider], transformer: keyedTransformer(provider, keys) };
}

/**
 * Upstream's `prefixTransformers`: the first writes; a read goes to the first whose prefix the
 * value has. An identity provider (empty prefix) that fails on an encrypted value lets the
 * next provider try, so `[identity, aescbc]` reads both plaintext and aescbc values.
 */
function prefixTransformers(list: readonly PrefixedTransformer[]): Transformer {
  const first = list[0];
  if (first === undefined) throw new Error('no providers');
  return {
    toStorage: (plain, key) => first.transformer.toStorage(plain, key),
    fromStorage(stored, key) {
      for (const { prefix, transformer } of list) {
        if (!stored.startsWith(prefix)) continue;
        // Each provider reads the whole value (its own prefix and key name included).
        if (prefix !== '') return transformer.fromStorage(stored, key);
        try {
          return transformer.fromStorage(stored, key);
        } catch {
          // identity on an encrypted value: another provider may read it.
        }
      }
      throw new Error('no matching prefix found');
    },
  };
}

/** Looks up the transformer of a resource: exact, then `*.group`, then `*.*` (upstream's order). */
export interface ResourceTransformers {
  /** `undefined` when no rule names the resource: it is stored as plaintext. */
  forResource(gr: GroupResource): Transformer | undefined;
}

/**
 * Builds the transformers of a validated configuration. A resource named in several elements
 * gets their providers in order (upstream appends them), so the first element's first provider
 * writes and every later one can still read.
 */
export function buildTransformers(config: EncryptionConfiguration): ResourceTransformers {
  const byResource = new Map<string, PrefixedTransformer[]>();
  for (const entry of config.resources) {
    const providers = entry.providers.map(providerTransformer);
    for (const name of entry.resources) {
      const gr = parseGroupResource(name);
      const id = `${gr.group}/${gr.resource}`;
      byResource.set(id, [...(byResource.get(id) ?? []), ...providers]);
    }
  }
  const transformers = new Map<string, Transformer>();
  for (const [id, list] of byResource) transformers.set(id, prefixTransformers(list));
  return {
    forResource(gr) {
      return (
        transformers.get(`${gr.group}/${gr.resource}`) ??
        transformers.get(`${gr.group}/*`) ??
        transformers.get('*/*')
      );
    },
  };
}
