/**
 * Encryption at rest (kube-apiserver's `--encryption-provider-config`): parse an
 * `EncryptionConfiguration`, load or create the data directory's default one, and wrap a
 * `Backend` so the resources it names are stored encrypted.
 *
 * @example
 * ```ts
 * const { config } = await loadOrCreateEncryptionConfig(dataDir, flags.encryptionProviderConfig);
 * const backend = encryptingBackend(await openBackend(opts), config, resourceOfStorageKey);
 * ```
 *
 * @module
 */
export {
  EncryptionConfigError,
  type EncryptionConfiguration,
  type GroupResource,
  parseEncryptionConfiguration,
} from './config.js';
export {
  DEFAULT_ENCRYPTION_CONFIG_FILE,
  defaultEncryptionConfigText,
  ephemeralEncryptionConfig,
  type LoadedEncryptionConfig,
  loadOrCreateEncryptionConfig,
} from './default-key.js';
export {
  DecryptError,
  type EncryptingBackendOptions,
  encryptingBackend,
  type ResourceOfKey,
} from './encrypting-backend.js';
export { resourceOfStorageKey } from './storage-keys.js';
