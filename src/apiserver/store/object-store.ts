/**
 * The generic registry store: every kind's create, update, delete and read-modify-write go
 * through here, on top of the revisioned {@link Backend}. Mirrors upstream's
 * `genericregistry.Store`: metadata rules, validation, admission, optimistic concurrency,
 * finalizers and graceful deletion, and no write that would change nothing.
 *
 * Objects are stored as their JSON text with `metadata.resourceVersion` already set to the
 * write's revision, so reads, lists and watch events are served without re-encoding.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import {
  alreadyExists,
  conflict,
  generateNameConflict,
  invalid,
  notFound,
  optimisticLockConflict,
} from '../../api/errors.js';
import type { FieldError } from '../../api/field-error.js';
import { stringifyJson } from '../../api/int64-json.js';
import type { KubeObject } from '../../api/object.js';
import { groupResource, type Requester, type ResourceDefinition } from '../../api/resource.js';
import type { Backend, KeyValue } from '../../storage/backend.js';
import { KeyExistsError, KeyNotFoundError, RevisionMismatchError } from '../../storage/backend.js';
import { type Clock, realClock } from '../../util/clock.js';
import {
  bumpForStoredSpec,
  decodeServed,
  servedJson,
  servedKeyValue,
  storedEncoder,
} from './conversion.js';
import { type DeleteOptions, planDeletion } from './deletion.js';
import { generateName } from './generate-name.js';
import { objectKey } from './keys.js';
import {
  metaOf,
  prepareCreateMeta,
  prepareUpdateMeta,
  readyToRemove,
  sameStoredObject,
  setTypeMeta,
} from './metadata.js';
import { decodeObjectJson } from './object-json.js';
import { reportStorageHealth } from './storage-events.js';
import { validateForCreate, validateForUpdate } from './validate.js';

/** What a plugin knows of the request besides the object. */
export interface AdmissionAttributes {
  /** A server-side dry run (`dryRun=All`): check, but leave no trace (no quota charge). */
  readonly dryRun: boolean;
}

/** Checks writes against cluster state (namespace lifecycle); throws a StatusError. */
export interface Admission {
  admitCreate?(
    def: ResourceDefinition,
    namespace: string,
    obj: KubeObject,
    attributes?: AdmissionAttributes,
  ): void;
  admitDelete?(def: ResourceDefinition, namespace: string, name: string): void;
  /**
   * Fills server-allocated fields (a Service's cluster IP) of a valid new object; returns
   * the release of what it reserved, called once the write is settled either way.
   */
  allocate?(def: ResourceDefinition, obj: KubeObject): (() => void) | undefined;
  /** Carries allocated fields over an update that omitted them (and checks the update). */
  preserve?(
    def: ResourceDefinition,
    next: KubeObject,
    current: KubeObject,
    attributes?: AdmissionAttributes,
  ): void;
}

export interface ObjectStoreOptions {
  readonly backend: Backend;
  readonly clock?: Clock;
  /** Source of `metadata.uid` (tests make it deterministic). */
  readonly uid?: () => string;
  /** Source of randomness for generateName (tests make it deterministic). */
  readonly random?: () => number;
  readonly admission?: Admission;
}

export interface WriteOptions {
  readonly dryRun?: boolean;
  /**
   * Records who changed what (`metadata.managedFields`) once the object is final: after
   * defaults and validation, and only when the write changes something, so a no-op stays a
   * no-op. Gets the new object and the stored one (absent on create).
   */
  readonly track?: (next: KubeObject, current: KubeObject | undefined) => KubeObject;
  /** Admission outside the store (webhooks, policies, RBAC's escalation check); see below. */
  readonly admit?: ExternalAdmission;
  /** The user making a create, for kinds that record it (CertificateSigningRequests). */
  readonly requester?: Requester;
}

/**
 * Admission that is asynchronous or needs the requesting user, called where upstream's
 * registry calls admission: `mutate` on the object a write proposes (a create before its name,
 * UID and timestamps are filled, an update after the caller's change and the kind's defaults,
 * once per conflict retry as upstream's GuaranteedUpdate re-runs it), `validate` on the final
 * object right before it is written (`next` is undefined for a delete, `current` for a
 * create). Either may throw a StatusError to refuse the write.
 */
export interface ExternalAdmission {
  mutate?(next: KubeObject, current: KubeObject | undefined): Promise<KubeObject>;
  validate?(next: KubeObject | undefined, current: KubeObject | undefined): Promise<void>;
}

/** The result of a write: the stored JSON, and the object it encodes. */
export interface WriteResult {
  readonly json: string;
  readonly object: KubeObject;
}

/** Computes the new object from the current one; may throw a StatusError. */
export type UpdateFn = (current: KubeObject) => KubeObject;

export interface UpdateOptions extends WriteOptions {
  /** Runs the object through create-time validation only on create; `status` skips spec rules. */
  readonly subresource?: string;
}

export interface DeleteResult extends WriteResult {
  /** True when the object is gone; false when it was only marked for deletion. */
  readonly removed: boolean;
}

/** A conflicting write is retried this many times before reporting 409 (upstream loops). */
const MAX_UPDATE_ATTEMPTS = 16;
/** generateName collisions are retried this many times (upstream KEP-4420 retries 7). */
const GENERATE_NAME_ATTEMPTS = 8;

export class ObjectStore {
  readonly backend: Backend;
  readonly #clock: Clock;
  readonly #uid: () => string;
  readonly #random: () => number;
  readonly #admission: Admission | undefined;

  constructor(options: ObjectStoreOptions) {
    this.backend = options.backend;
    this.#clock = options.clock ?? realClock;
    this.#uid = options.uid ?? randomUUID;
    this.#random = options.random ?? Math.random;
    this.#admission = options.admission;
    // The store's own outages (a full disk) become Events once writes resume.
    reportStorageHealth(
      this.backend,
      (def, namespace, obj) => this.create(def, namespace, obj),
      this.#random,
    );
  }

  /** The stored JSON of one object, or a 404 StatusError. */
  getJson(def: ResourceDefinition, namespace: string, name: string): KeyValue {
    const kv = this.backend.get(objectKey(def, namespace, name));
    if (kv === undefined) throw notFound(groupResource(def), name);
    return servedKeyValue(def, kv);
  }

  get(def: ResourceDefinition, namespace: string, name: string): KubeObject {
    return decodeObjectJson(def, this.getJson(def, namespace, name).value);
  }

  /** Creates `obj` (already decoded from the request and owned by the caller). */
  async create(
    def: ResourceDefinition,
    namespace: string,
    obj: KubeObject,
    options: WriteOptions = {},
  ): Promise<WriteResult> {
    const placed = (o: KubeObject): void => {
      setTypeMeta(o, def);
      if (def.namespaced) metaOf(o).namespace = namespace;
      else delete metaOf(o).namespace;
    };
    placed(obj);
    def.strategy.defaults?.(obj);
    if (options.admit?.mutate !== undefined) {
      obj = await options.admit.mutate(obj, undefined);
      placed(obj);
    }
    const meta = metaOf(obj);
    def.strategy.prepareForCreate?.(obj, options.requester);
    prepareCreateMeta(obj, def, this.#clock.now(), this.#uid());
    // The prefix a name is generated from (none when the object is named).
    const prefix =
      !meta.name && typeof meta.generateName === 'string' && meta.generateName !== ''
        ? meta.generateName
        : undefined;
    const generated = prefix !== undefined;
    for (let attempt = 1; ; attempt++) {
      if (prefix !== undefined) meta.name = generateName(prefix, this.#random);
      const created = await this.#tryCreate(def, namespace, obj, options);
      if (created !== undefined) return created;
      if (!generated) throw alreadyExists(groupResource(def), meta.name!);
      if (attempt >= GENERATE_NAME_ATTEMPTS) {
        throw generateNameConflict(groupResource(def), meta.name!, 1);
      }
    }
  }

  /** One create attempt; undefined when the name is taken. */
  async #tryCreate(
    def: ResourceDefinition,
    namespace: string,
    obj: KubeObject,
    options: WriteOptions,
  ): Promise<WriteResult | undefined> {
    const name = metaOf(obj).name!;
    this.#check(def, obj, validateForCreate(def, obj));
    this.#admission?.admitCreate?.(def, namespace, obj, { dryRun: options.dryRun === true });
    await options.admit?.validate?.(obj, undefined);
    const release = this.#admission?.allocate?.(def, obj);
    try {
      const tracked = options.track ? options.track(obj, undefined) : obj;
      if (options.dryRun) return { json: stringifyJson(tracked), object: tracked };
      const kv = await this.backend.create(
        objectKey(def, namespace, name),
        storedEncoder(def, tracked),
      );
      return { json: servedJson(def, kv.value), object: tracked };
    } catch (e) {
      if (e instanceof KeyExistsError) return undefined;
      throw e;
    } finally {
      release?.();
    }
  }

  /**
   * Read-modify-write with retry on conflict (upstream `GuaranteedUpdate`): `update` gets the
   * newest object and returns the desired one. A user's resourceVersion precondition is
   * checked inside `update`, so a concurrent write turns into 409 rather than a lost update.
   */
  async update(
    def: ResourceDefinition,
    namespace: string,
    name: string,
    update: UpdateFn,
    options: UpdateOptions = {},
  ): Promise<WriteResult> {
    const key = objectKey(def, namespace, name);
    for (let attempt = 1; ; attempt++) {
      const currentKv = this.backend.getLatest(key);
      if (currentKv === undefined) throw notFound(groupResource(def), name);
      const current = decodeServed(def, currentKv.value);
      const proposed = await proposeUpdate(def, update, currentKv.value, current, options);
      const prepared = this.#prepareUpdate(def, namespace, name, proposed, current, options);
      // Before the no-op check: upstream validates inside the update function, then skips the
      // write of an unchanged object.
      await options.admit?.validate?.(prepared, current);
      if (sameStoredObject(prepared, current)) {
        return { json: servedJson(def, currentKv.value), object: current };
      }
      const next = options.track ? options.track(prepared, current) : prepared;
      if (options.dryRun) return { json: stringifyJson(next), object: next };
      const remove = readyToRemove(next, def);
      const written = await this.#write(
        def,
        name,
        key,
        currentKv,
        next,
        remove ? 'delete' : 'update',
      );
      if (written !== undefined) return written;
      if (attempt >= MAX_UPDATE_ATTEMPTS) throw optimisticLockConflict(groupResource(def), name);
    }
  }

  /** Applies the generic rules and validation to the caller's proposed object. */
  #prepareUpdate(
    def: ResourceDefinition,
    namespace: string,
    name: string,
    next: KubeObject,
    current: KubeObject,
    options: UpdateOptions,
  ): KubeObject {
    const sub = options.subresource ?? '';
    if (sub === '') {
      // The main resource cannot change status when the kind has a /status subresource.
      if (def.statusSubresource) keepStatus(next, current);
      def.strategy.prepareForUpdate?.(next, current);
      this.#admission?.preserve?.(def, next, current, { dryRun: options.dryRun === true });
    }
    setTypeMeta(next, def);
    const meta = metaOf(next);
    meta.name = name;
    if (def.namespaced) meta.namespace = namespace;
    if (sub !== 'status') def.strategy.defaults?.(next);
    prepareUpdateMeta(next, current, def);
    if (sub !== 'status') bumpForStoredSpec(def, next, current);
    // A status write never bumps generation, even when it changes annotations (Deployments
    // count annotations in their generation; their status strategy does not).
    if (sub === 'status') {
      if (current.metadata?.generation === undefined) delete meta.generation;
      else meta.generation = current.metadata.generation;
    }
    this.#check(def, next, validateForUpdate(def, next, current, sub));
    return next;
  }

  /**
   * Writes `next` over `current` (or deletes the key) if nothing was written since it was
   * read. Returns undefined when another write got there first: the caller reads again.
   */
  async #write(
    def: ResourceDefinition,
    name: string,
    key: string,
    currentKv: KeyValue,
    next: KubeObject,
    op: 'update' | 'delete',
  ): Promise<WriteResult | undefined> {
    try {
      const kv =
        op === 'delete'
          ? await this.backend.delete(key, currentKv.modRevision, storedEncoder(def, next))
          : await this.backend.update(key, storedEncoder(def, next), currentKv.modRevision);
      return { json: servedJson(def, kv.value), object: next };
    } catch (e) {
      if (e instanceof KeyNotFoundError) throw notFound(groupResource(def), name);
      if (e instanceof RevisionMismatchError) return undefined;
      throw e;
    }
  }

  /** DELETE: removes, marks for deletion, or (already marked) leaves the object as it is. */
  async delete(
    def: ResourceDefinition,
    namespace: string,
    name: string,
    options: DeleteOptions,
    writeOptions: WriteOptions = {},
  ): Promise<DeleteResult> {
    const key = objectKey(def, namespace, name);
    for (let attempt = 1; ; attempt++) {
      const currentKv = this.backend.getLatest(key);
      if (currentKv === undefined) throw notFound(groupResource(def), name);
      this.#admission?.admitDelete?.(def, namespace, name);
      const current = decodeServed(def, currentKv.value);
      checkPreconditions(def, name, current, options);
      const plan = planDeletion(def, current, options, this.#clock.now());
      if (plan.action === 'none') {
        return { json: servedJson(def, currentKv.value), object: current, removed: false };
      }
      const removed = plan.action === 'remove';
      const final = plan.action === 'mark' ? plan.next : current;
      await writeOptions.admit?.validate?.(undefined, current);
      if (writeOptions.dryRun) return { json: stringifyJson(final), object: final, removed };
      const written = await this.#write(
        def,
        name,
        key,
        currentKv,
        final,
        removed ? 'delete' : 'update',
      );
      if (written !== undefined) return { ...written, removed };
      if (attempt >= MAX_UPDATE_ATTEMPTS) throw optimisticLockConflict(groupResource(def), name);
    }
  }

  #check(def: ResourceDefinition, obj: KubeObject, errors: FieldError[]): void {
    if (errors.length > 0)
      throw invalid({ group: def.group, kind: def.kind }, obj.metadata?.name ?? '', errors);
  }
}

/** The caller's change to the newest object, then mutating admission (with the kind's defaults). */
async function proposeUpdate(
  def: ResourceDefinition,
  update: UpdateFn,
  currentJson: string,
  current: KubeObject,
  options: UpdateOptions,
): Promise<KubeObject> {
  // A fresh decode of the stored text is the caller's private copy to change.
  const proposed = update(decodeServed(def, currentJson));
  const mutate = options.admit?.mutate;
  if (mutate === undefined) return proposed;
  if ((options.subresource ?? '') !== 'status') def.strategy.defaults?.(proposed);
  return mutate(proposed, current);
}

function keepStatus(next: KubeObject, current: KubeObject): void {
  if (current.status === undefined) delete next.status;
  else next.status = current.status;
}

/**
 * Stamps the write's revision into the object, then encodes it once for storage, with
 * `kind`, `apiVersion` and `metadata` first as upstream serialises them.
 */
export function storedObjectEncoder(obj: KubeObject): (revision: number) => string {
  return (revision) => {
    metaOf(obj).resourceVersion = String(revision);
    const { kind, apiVersion, metadata, ...rest } = obj;
    return stringifyJson({ kind, apiVersion, metadata, ...rest });
  };
}

/** DeleteOptions.preconditions (upstream `storage.Preconditions.Check`). */
function checkPreconditions(
  def: ResourceDefinition,
  name: string,
  obj: KubeObject,
  options: DeleteOptions,
): void {
  const pre = options.preconditions;
  if (pre === undefined) return;
  const meta = obj.metadata ?? {};
  if (pre.uid !== undefined && pre.uid !== null && pre.uid !== meta.uid) {
    throw conflict(
      groupResource(def),
      name,
      `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${meta.uid ?? ''}`,
    );
  }
  const rv = pre.resourceVersion;
  if (rv !== undefined && rv !== null && rv !== meta.resourceVersion) {
    throw conflict(
      groupResource(def),
      name,
      `Precondition failed: ResourceVersion in precondition: ${rv}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`,
    );
  }
}
