/**
 * Encryption at rest on by default: the first `fleetyard up` on a data directory writes
 * `encryption-config.yaml` (mode 0600) encrypting Secrets with aescbc under one random 256-bit
 * key, `key1`; later starts reuse it. `--encryption-provider-config FILE` (kube-apiserver's
 * flag) replaces it entirely.
 *
 * The key file sits beside `state.db`, so whoever copies the whole data directory can read the
 * Secrets: the encryption keeps them out of the database file alone (a backup of `state.db`, a
 * file shared for a bug report). Keep the key elsewhere with `--encryption-provider-config`.
 *
 * Rotating the key (upstream's procedure, "Encrypting Confidential Data at Rest"):
 * 1. Add a new key as the second key of the aescbc provider (`key2`, from
 *    `head -c 32 /dev/urandom | base64`) and restart: every key decrypts, `key1` still encrypts.
 *    (With several API servers, all must have `key2` before step 2; fleetyard has one.)
 * 2. Move `key2` first and restart: new writes use `key2`.
 * 3. Rewrite every Secret so it is stored under `key2`:
 *    `kubectl get secrets --all-namespaces -o json | kubectl replace -f -`.
 * 4. Remove `key1` and restart. A Secret still under `key1` now fails to read with
 *    `unable to transform key "…": no matching key was found for the provided AES transformer`.
 * On fleetyard's single server steps 1 and 2 can be one: put `key2` first, `key1` after it.
 * To decrypt everything, put `identity: {}` first, restart and rewrite as in step 3.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, open, readFile, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import {
  ENCRYPTION_CONFIG_API_VERSION,
  ENCRYPTION_CONFIG_KIND,
  type EncryptionConfiguration,
  parseEncryptionConfiguration,
} from './config.js';

/** The generated file's name in the data directory. */
export const DEFAULT_ENCRYPTION_CONFIG_FILE = 'encryption-config.yaml';

/** 256-bit AES: upstream's recommended aescbc key length. */
const KEY_BYTES = 32;

export interface LoadedEncryptionConfig {
  readonly config: EncryptionConfiguration;
  /** The file it came from. */
  readonly path: string;
  /** Whether this call created the file (the first start on this data directory). */
  readonly created: boolean;
}

/** The text of a new default configuration: Secrets under aescbc, one random key. */
export function defaultEncryptionConfigText(key: Buffer = randomBytes(KEY_BYTES)): string {
  return `# Written by fleetyard at first start: Secrets are stored encrypted (aescbc, key1).
# Rotate: add key2 (head -c 32 /dev/urandom | base64) as the FIRST key, keep key1 after it,
# restart, rewrite every Secret
#   kubectl get secrets --all-namespaces -o json | kubectl replace -f -
# then remove key1 and restart. Losing this file makes the stored Secrets unreadable.
apiVersion: ${ENCRYPTION_CONFIG_API_VERSION}
kind: ${ENCRYPTION_CONFIG_KIND}
resources:
  - resources:
      - secrets
    providers:
      - aescbc:
          keys:
            - name: key1
              secret: ${key.toString('base64')}
      - identity: {}
`;
}

/**
 * For `up --ephemeral` without `--encryption-provider-config`: the default configuration with
 * a key that lives only in this process (nothing is on disk to protect, but the server behaves
 * as a persistent one does: same code path, same stored form).
 */
export function ephemeralEncryptionConfig(): EncryptionConfiguration {
  return parseEncryptionConfiguration(defaultEncryptionConfigText(), 'generated');
}

/**
 * The configuration to run with: `userPath` (`--encryption-provider-config`) when given;
 * otherwise the data directory's generated file, created with a fresh key on first start.
 * `dataDir` must exist (up's `ensurePrivateDir`). Throws `EncryptionConfigError` for a file
 * that does not validate, and refuses a generated file others can read (as the token).
 */
export async function loadOrCreateEncryptionConfig(
  dataDir: string,
  userPath?: string,
): Promise<LoadedEncryptionConfig> {
  if (userPath !== undefined) return { ...(await readConfig(userPath)), created: false };
  const path = join(dataDir, DEFAULT_ENCRYPTION_CONFIG_FILE);
  const created = await createIfMissing(path, defaultEncryptionConfigText());
  await assertPrivate(path);
  return { ...(await readConfig(path)), created };
}

async function readConfig(
  path: string,
): Promise<{ config: EncryptionConfiguration; path: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`error opening encryption provider configuration file "${path}": ${reason}`);
  }
  return { config: parseEncryptionConfiguration(text, path), path };
}

/** Key material: owner read/write only. */
const PRIVATE_FILE_MODE = 0o600;
const checksModes = process.platform !== 'win32';

/**
 * Writes `text` at `path` only if nothing is there, atomically: a complete 0600 temp file is
 * hard-linked to `path` (link fails if `path` exists, where a rename would replace it), so two
 * starts racing on one data directory agree on one key instead of one of them encrypting with
 * a key the file no longer holds. Written with node:fs alone: the storage layer may not import
 * `src/security/files.ts` (docs/architecture.md), whose `writeFileAtomic` does the same with a
 * rename.
 */
async function createIfMissing(path: string, text: string): Promise<boolean> {
  const dir = dirname(path);
  try {
    await stat(path);
    return false;
  } catch (err) {
    if (errorCode(err) !== 'ENOENT') throw err;
  }
  const temp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.new`);
  // O_EXCL: never a pre-planted file or symlink; created 0600, so never readable by others.
  const handle = await open(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
    PRIVATE_FILE_MODE,
  );
  try {
    // A umask like 0277 clears owner bits; restore exactly 0600 before the key is written.
    if (checksModes && ((await handle.stat()).mode & 0o777) !== PRIVATE_FILE_MODE) {
      await handle.chmod(PRIVATE_FILE_MODE);
    }
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(temp, path);
  } catch (err) {
    if (errorCode(err) === 'EEXIST') return false;
    throw err;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  await syncDir(dir);
  return true;
}

/** Makes the new link durable across a crash. */
async function syncDir(dir: string): Promise<void> {
  if (!checksModes) return;
  const handle = await open(dir, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Like ssh with a private key (and up's token, `assertPrivateFile`): a key file another user
 * can read or own is refused rather than used.
 */
async function assertPrivate(path: string): Promise<void> {
  const st = await stat(path);
  if (!st.isFile()) throw new Error(`${path} is not a regular file`);
  if (!checksModes) return;
  const me = process.getuid?.();
  if (me !== undefined && st.uid !== me) {
    throw new Error(`${path} is owned by uid ${st.uid}, not by the current user (uid ${me})`);
  }
  const perms = st.mode & 0o777;
  if ((perms & 0o077) !== 0) {
    throw new Error(
      `${path} has mode 0${perms.toString(8)}, readable or writable by other users; ` +
        `run "chmod 600 ${path}"`,
    );
  }
}

function errorCode(err: unknown): unknown {
  return err instanceof Error && 'code' in err ? err.code : undefined;
}
