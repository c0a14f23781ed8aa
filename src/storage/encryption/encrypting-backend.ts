/**
 * Encryption at rest as a {@link Backend} wrapper: values of the resources an
 * `EncryptionConfiguration` names are encrypted on every write and decrypted on every read
 * (get, getLatest, list and its filter, watch events and their prevKv, the values writes
 * return), so the inner backend, its journal and its database file only ever hold ciphertext,
 * while everything above sees plaintext. Upstream does the same in the etcd3 store's
 * `transformer` (k8s.io/apiserver/pkg/storage/etcd3/store.go).
 *
 * Cost:
 * - A value of a resource no rule names is passed through as the same object, after one
 *   8-character prefix comparison (upstream's identity "encrypt check": an encrypted value under
 *   a resource the configuration no longer names fails to read instead of reaching the JSON
 *   decoder). Keys `resourceOfKey` does not map are passed through without any check.
 * - Each stored version is decrypted once: the plaintext version is cached per inner
 *   {@link KeyValue} object (a WeakMap, so it lives exactly as long as the inner store keeps
 *   that version), and so is each event. Every watcher, get and list sees the same objects,
 *   which also keeps the API server's per-object line cache (`handlers/watch.ts`) working.
 *
 * A value that cannot be read (a key removed from the configuration, a corrupt value) fails
 * that read with {@link DecryptError} (500 `Internal error occurred: unable to transform key
 * "…": …`, upstream's answer for that object) instead of crashing anything. A list fails as a
 * whole, as upstream's. A watch whose replayed history holds such a value throws from
 * `watch()`; a live event that cannot be read (it cannot come from a write through this
 * wrapper, which always writes with a key it holds) is left out and reported to
 * `onWatchError`: the Backend contract gives a watch no error channel, unlike upstream's,
 * which ends the watch with an error event.
 *
 * @module
 */
import {
  type Backend,
  type Encoder,
  type KeyValue,
  type ListOptions,
  type ListResult,
  StorageError,
  type StorageEvent,
  type Watcher,
  type WatchListener,
} from '../backend.js';
import type { EncryptionConfiguration, GroupResource } from './config.js';
import {
  buildTransformers,
  ENCRYPTED_PREFIX,
  type ResourceTransformers,
  type Transformer,
} from './providers.js';

/** A stored value that cannot be decrypted with the configured providers and keys. */
export class DecryptError extends StorageError {
  readonly key: string;
  constructor(key: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super('Decrypt', `unable to transform key "${key}": ${reason}`);
    this.key = key;
    this.cause = cause;
  }
}

/**
 * The resource a storage key belongs to, or `undefined` for a key outside any resource (passed
 * through). Also called with list and watch prefixes that end in `/`: it must then answer only
 * when every key under the prefix belongs to that one resource (else `undefined`, and each
 * item is looked up by its own key).
 */
export type ResourceOfKey = (key: string) => GroupResource | undefined;

export interface EncryptingBackendOptions {
  /** A live watch event that could not be decrypted and was left out. Must not throw. */
  readonly onWatchError?: ((error: DecryptError) => void) | undefined;
}

/** How one key's values are read: decrypted, checked for stray ciphertext, or untouched. */
type Mode = Transformer | 'check' | 'pass';

/**
 * Wraps `inner` so the resources `config` names are stored encrypted.
 *
 * @example
 * ```ts
 * const config = await loadOrCreateEncryptionConfig(dataDir);
 * const backend = encryptingBackend(await openBackend(opts), config.config, resourceOfStorageKey);
 * ```
 */
export function encryptingBackend(
  inner: Backend,
  config: EncryptionConfiguration | ResourceTransformers,
  resourceOfKey: ResourceOfKey,
  options: EncryptingBackendOptions = {},
): Backend {
  return new EncryptingBackend(
    inner,
    'forResource' in config ? config : buildTransformers(config),
    resourceOfKey,
    options,
  );
}

class EncryptingBackend implements Backend {
  readonly #inner: Backend;
  readonly #transformers: ResourceTransformers;
  readonly #resourceOfKey: ResourceOfKey;
  readonly #onWatchError: ((error: DecryptError) => void) | undefined;
  /** The plaintext version of each inner version read or written so far. */
  readonly #plain = new WeakMap<KeyValue, KeyValue>();
  readonly #events = new WeakMap<StorageEvent, StorageEvent>();
  /**
   * Ciphertext → plaintext of this wrapper's writes until they settle, so the watchers they
   * reach first do not decrypt what was just encrypted (the random IV makes each unique).
   */
  readonly #written = new Map<string, string>();
  /** Mode per `group/resource`: the lookup walks up to three maps; this is one. */
  readonly #modes = new Map<string, Transformer | 'check'>();

  constructor(
    inner: Backend,
    transformers: ResourceTransformers,
    resourceOfKey: ResourceOfKey,
    options: EncryptingBackendOptions,
  ) {
    this.#inner = inner;
    this.#transformers = transformers;
    this.#resourceOfKey = resourceOfKey;
    this.#onWatchError = options.onWatchError;
  }

  get name(): string {
    return this.#inner.name;
  }

  currentRevision(): number {
    return this.#inner.currentRevision();
  }

  compactedRevision(): number {
    return this.#inner.compactedRevision();
  }

  get(key: string): KeyValue | undefined {
    const kv = this.#inner.get(key);
    return kv && this.#read(kv, this.#mode(key));
  }

  getLatest(key: string): KeyValue | undefined {
    const kv = this.#inner.getLatest(key);
    return kv && this.#read(kv, this.#mode(key));
  }

  list(prefix: string, options?: ListOptions): ListResult {
    const whole = this.#prefixMode(prefix);
    const modeOf = whole ? () => whole : (kv: KeyValue) => this.#mode(kv.key);
    if (whole === 'pass') return this.#inner.list(prefix, options);
    const filter = options?.filter;
    const result = this.#inner.list(
      prefix,
      filter ? { ...options, filter: (kv) => filter(this.#read(kv, modeOf(kv))) } : options,
    );
    if (whole === 'check') {
      for (const kv of result.items) this.#read(kv, 'check');
      return result;
    }
    return { ...result, items: result.items.map((kv) => this.#read(kv, modeOf(kv))) };
  }

  count(prefix: string): number {
    return this.#inner.count(prefix);
  }

  create(key: string, encode: Encoder): Promise<KeyValue> {
    const mode = this.#mode(key);
    if (typeof mode === 'string') return this.#inner.create(key, encode);
    return this.#write(key, mode, encode, (enc) => this.#inner.create(key, enc));
  }

  update(key: string, encode: Encoder, expectedRevision: number): Promise<KeyValue> {
    const mode = this.#mode(key);
    if (typeof mode === 'string') return this.#inner.update(key, encode, expectedRevision);
    return this.#write(key, mode, encode, (enc) => this.#inner.update(key, enc, expectedRevision));
  }

  async delete(key: string, expectedRevision: number, encode?: Encoder): Promise<KeyValue> {
    const mode = this.#mode(key);
    if (typeof mode === 'string') return this.#inner.delete(key, expectedRevision, encode);
    if (encode === undefined) {
      // The result carries the previous (stored) value: read it back. Callers read the key
      // before deleting it (the object store's getLatest), so a value this wrapper cannot
      // read fails there, before anything is deleted.
      return this.#read(await this.#inner.delete(key, expectedRevision), mode);
    }
    return this.#write(key, mode, encode, (enc) => this.#inner.delete(key, expectedRevision, enc));
  }

  watch(prefix: string, afterRevision: number, listener: WatchListener): Watcher {
    const whole = this.#prefixMode(prefix);
    if (whole === 'pass') return this.#inner.watch(prefix, afterRevision, listener);
    // History arrives synchronously inside inner.watch: hold it, so a value that cannot be
    // read fails the watch before the listener saw any of it.
    let replay: StorageEvent[][] | undefined = [];
    let replayError: DecryptError | undefined;
    const watcher = this.#inner.watch(prefix, afterRevision, (events) => {
      if (replay !== undefined) {
        try {
          replay.push(events.map((e) => this.#event(e, whole)));
        } catch (err) {
          replayError ??= asDecryptError(err);
        }
        return;
      }
      const live = this.#liveEvents(events, whole);
      if (live.length > 0) listener(live);
    });
    const history = replay;
    replay = undefined;
    if (replayError !== undefined) {
      watcher.stop();
      throw replayError;
    }
    for (const batch of history) listener(batch);
    return watcher;
  }

  compact(revision: number): Promise<void> {
    return this.#inner.compact(revision);
  }

  stats() {
    return this.#inner.stats();
  }

  health() {
    return this.#inner.health();
  }

  onHealthChange(listener: Parameters<Backend['onHealthChange']>[0]): () => void {
    return this.#inner.onHealthChange(listener);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  /** Encrypts what `encode` returns; the result and later reads get the plaintext back. */
  async #write(
    key: string,
    transformer: Transformer,
    encode: Encoder,
    write: (encode: Encoder) => Promise<KeyValue>,
  ): Promise<KeyValue> {
    let plain = '';
    let sealed = '';
    try {
      const stored = await write((revision) => {
        plain = encode(revision);
        sealed = transformer.toStorage(plain, key);
        this.#written.set(sealed, plain);
        return sealed;
      });
      // A watcher may have read this version already (events go out before the write's
      // promise settles): hand out the same object.
      const cached = this.#plain.get(stored);
      if (cached !== undefined) return cached;
      const kv = stored.value === plain ? stored : { ...stored, value: plain };
      this.#plain.set(stored, kv);
      return kv;
    } finally {
      this.#written.delete(sealed);
    }
  }

  #mode(key: string): Mode {
    const gr = this.#resourceOfKey(key);
    if (gr === undefined) return 'pass';
    const id = `${gr.group}/${gr.resource}`;
    let mode = this.#modes.get(id);
    if (mode === undefined) {
      mode = this.#transformers.forResource(gr) ?? 'check';
      this.#modes.set(id, mode);
    }
    return mode;
  }

  /** One mode for every key under `prefix`, or `undefined` when each key needs its own. */
  #prefixMode(prefix: string): Mode | undefined {
    if (!prefix.endsWith('/') || this.#resourceOfKey(prefix) === undefined) return undefined;
    return this.#mode(prefix);
  }

  #read(kv: KeyValue, mode: Mode): KeyValue {
    if (mode === 'pass') return kv;
    if (mode === 'check') {
      if (kv.value.startsWith(ENCRYPTED_PREFIX)) {
        throw new DecryptError(
          kv.key,
          new Error('identity transformer tried to read encrypted data'),
        );
      }
      return kv;
    }
    const cached = this.#plain.get(kv);
    if (cached !== undefined) return cached;
    let value = this.#written.get(kv.value);
    try {
      value ??= mode.fromStorage(kv.value, kv.key);
    } catch (err) {
      throw new DecryptError(kv.key, err);
    }
    const plain = value === kv.value ? kv : { ...kv, value };
    this.#plain.set(kv, plain);
    return plain;
  }

  #event(e: StorageEvent, whole: Mode | undefined): StorageEvent {
    const mode = whole ?? this.#mode(e.kv.key);
    if (mode === 'pass') return e;
    if (mode === 'check') {
      this.#read(e.kv, mode);
      if (e.prevKv) this.#read(e.prevKv, mode);
      return e;
    }
    const cached = this.#events.get(e);
    if (cached !== undefined) return cached;
    const kv = this.#read(e.kv, mode);
    const prevKv = e.prevKv && this.#read(e.prevKv, mode);
    const plain = kv === e.kv && prevKv === e.prevKv ? e : { ...e, kv, ...(prevKv && { prevKv }) };
    this.#events.set(e, plain);
    return plain;
  }

  #liveEvents(events: readonly StorageEvent[], whole: Mode | undefined): StorageEvent[] {
    const out: StorageEvent[] = [];
    for (const e of events) {
      try {
        out.push(this.#event(e, whole));
      } catch (err) {
        this.#onWatchError?.(asDecryptError(err));
      }
    }
    return out;
  }
}

function asDecryptError(err: unknown): DecryptError {
  if (err instanceof DecryptError) return err;
  return new DecryptError('?', err);
}
