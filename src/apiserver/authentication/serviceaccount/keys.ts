/**
 * The key pair that signs ServiceAccount tokens, as kube-apiserver's
 * `--service-account-signing-key-file` / `--service-account-key-file` (kubeadm's `sa.key`):
 * made on first start as a PEM file of mode 0600 in the data dir and read on every later start,
 * so tokens issued before a restart stay valid after it.
 *
 * Algorithm: RSA 2048 with RS256, the only algorithm every consumer of Kubernetes tokens
 * accepts (upstream's OIDC discovery docs and most relying parties, e.g. cloud workload
 * identity federation, expect RS256). Generating a 2048-bit key takes ~50–300 ms, paid once per
 * data dir; tests use {@link inMemoryServiceAccountKey}, made once per process. An existing
 * P-256 key (ES256, which upstream also accepts) is read as well.
 *
 * The key id (`kid`) is upstream's `keyIDFromPublicKey`: base64url (no padding) of the SHA-256
 * of the DER (SubjectPublicKeyInfo) public key, so it is the same id kube-apiserver would give
 * the same key.
 *
 * @module
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  assertPrivateFile,
  ensurePrivateDir,
  isNotFound,
  PRIVATE_FILE_MODE,
  writeFileAtomic,
} from '../../../security/files.js';

/** The file in the data dir's `pki` directory (kubeadm's name). */
export const SERVICE_ACCOUNT_KEY_FILE = 'sa.key';

/** The JWS algorithms a key can sign with (upstream signs RSA keys with RS256 only). */
export type SigningAlgorithm = 'RS256' | 'ES256';

/** A public key tokens are verified with: the signing key's, or an older one kept for rotation. */
export interface ServiceAccountPublicKey {
  readonly kid: string;
  readonly alg: SigningAlgorithm;
  readonly publicKey: KeyObject;
}

/** The signing key: its private half and the public key with its id. */
export interface ServiceAccountKey extends ServiceAccountPublicKey {
  readonly privateKey: KeyObject;
}

/** Upstream `keyIDFromPublicKey`: base64url(SHA-256(DER SubjectPublicKeyInfo)). */
export function keyIdOf(publicKey: KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('base64url');
}

/**
 * Wraps a private key; throws for a key upstream would not sign with (RSA under 2048 bits,
 * an EC curve other than P-256 here, anything else).
 */
export function serviceAccountKeyFrom(privateKey: KeyObject): ServiceAccountKey {
  const alg = algorithmOf(privateKey);
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, alg, kid: keyIdOf(publicKey) };
}

/** The public half of a key (or a public key read from a file), with its id. */
export function publicKeyFrom(key: KeyObject): ServiceAccountPublicKey {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return { publicKey, alg: algorithmOf(publicKey), kid: keyIdOf(publicKey) };
}

function algorithmOf(key: KeyObject): SigningAlgorithm {
  const details = key.asymmetricKeyDetails;
  if (key.asymmetricKeyType === 'rsa') {
    // 2048 bits: NIST's minimum, and what kube-apiserver's generated keys have.
    if ((details?.modulusLength ?? 0) < 2048) {
      throw new Error('service account key: RSA keys must have at least 2048 bits');
    }
    return 'RS256';
  }
  if (key.asymmetricKeyType === 'ec' && details?.namedCurve === 'prime256v1') return 'ES256';
  throw new Error(
    `service account key: unsupported key type ${key.asymmetricKeyType ?? 'unknown'} ` +
      '(use RSA of at least 2048 bits or EC P-256)',
  );
}

function generateRsaKey(): ServiceAccountKey {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return serviceAccountKeyFrom(privateKey);
}

let testKey: ServiceAccountKey | undefined;

/**
 * A key that lives only in memory, for tests: made once per process (an RSA key takes tens to
 * hundreds of milliseconds) and shared by every caller.
 */
export function inMemoryServiceAccountKey(): ServiceAccountKey {
  testKey ??= generateRsaKey();
  return testKey;
}

/**
 * Reads `dir/sa.key`, or, when it does not exist, generates an RSA 2048 key and writes it there
 * (PKCS#8 PEM, mode 0600, atomically; `dir` made 0700). Refuses a key file other users can read,
 * as the CA key in `src/security/pki.ts`.
 */
export async function loadOrCreateServiceAccountKey(dir: string): Promise<ServiceAccountKey> {
  await ensurePrivateDir(dir);
  const existing = await readServiceAccountKey(dir);
  if (existing !== undefined) return existing;
  const key = generateRsaKey();
  const pem = key.privateKey.export({ type: 'pkcs8', format: 'pem' });
  await writeFileAtomic(join(dir, SERVICE_ACCOUNT_KEY_FILE), pem, PRIVATE_FILE_MODE);
  return key;
}

/**
 * Reads `dir/sa.key` without ever creating it: for processes that must use the API server's
 * key, not make their own (the token controller). Throws when it is missing.
 */
export async function loadServiceAccountKey(dir: string): Promise<ServiceAccountKey> {
  const key = await readServiceAccountKey(dir);
  if (key === undefined) {
    throw new Error(`no service account signing key (${SERVICE_ACCOUNT_KEY_FILE}) in ${dir} yet`);
  }
  return key;
}

async function readServiceAccountKey(dir: string): Promise<ServiceAccountKey | undefined> {
  const path = join(dir, SERVICE_ACCOUNT_KEY_FILE);
  let pem: string;
  try {
    await assertPrivateFile(path);
    pem = await readFile(path, 'utf8');
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
  return serviceAccountKeyFrom(createPrivateKey(pem));
}
