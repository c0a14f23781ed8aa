/**
 * The dashboard's copy of the cluster: every object the stream (or a history replay) has
 * delivered, keyed by group/resource, then namespace/name. It is mutable on purpose: the
 * stream applies thousands of frames per second during a 1,000-replica rollout, and copying a
 * 6,000-object map per frame would cost more than the page's whole 16 ms frame budget.
 * Views never see it change under them: they read it through a version number that bumps
 * once per batch of frames (see `stream-client.ts`).
 *
 * `list()` returns an array cached per resource until that resource changes, so derived
 * models can skip work by comparing array identity.
 *
 * @module
 */
import type { Change, KubeObject } from './json.js';

/** Where a kind lives in the API, learned from the frames (owner links need it). */
export interface ResourceRef {
  readonly group: string;
  readonly resource: string;
}

export function resourceKey(group: string, resource: string): string {
  return `${group}/${resource}`;
}

export function objectKey(namespace: string | undefined, name: string): string {
  return `${namespace ?? ''}/${name}`;
}

export class ObjectStore {
  private readonly byResource: Map<string, Map<string, KubeObject>>;
  private readonly lists = new Map<string, readonly KubeObject[]>();
  /** uid → where the object is, for ownerReferences. */
  private readonly byUid: Map<string, { readonly rk: string; readonly key: string }>;
  /** kind → resource, learned from the objects seen. */
  readonly kinds: Map<string, ResourceRef>;
  /** Highest seq applied. */
  seq = 0;

  constructor(from?: ObjectStore) {
    this.byResource = new Map();
    this.byUid = new Map(from?.byUid);
    this.kinds = new Map(from?.kinds);
    if (from !== undefined) {
      for (const [rk, objects] of from.byResource) this.byResource.set(rk, new Map(objects));
      this.seq = from.seq;
    }
  }

  /** A copy that later changes to either do not affect the other (objects are shared: they are never mutated). */
  clone(): ObjectStore {
    return new ObjectStore(this);
  }

  apply(change: Change): void {
    const rk = resourceKey(change.group, change.resource);
    const meta = change.object.metadata;
    const key = objectKey(meta.namespace, meta.name);
    let objects = this.byResource.get(rk);
    if (objects === undefined) {
      objects = new Map();
      this.byResource.set(rk, objects);
    }
    const previous = objects.get(key);
    if (previous?.metadata.uid !== undefined) this.byUid.delete(previous.metadata.uid);
    if (change.type === 'DELETED') {
      objects.delete(key);
    } else {
      objects.set(key, change.object);
      if (meta.uid !== undefined) this.byUid.set(meta.uid, { rk, key });
      const kind = change.object.kind;
      if (kind !== undefined && !this.kinds.has(kind)) {
        this.kinds.set(kind, { group: change.group, resource: change.resource });
      }
    }
    this.lists.delete(rk);
    if (change.seq > this.seq) this.seq = change.seq;
  }

  get(
    group: string,
    resource: string,
    namespace: string | undefined,
    name: string,
  ): KubeObject | undefined {
    return this.byResource.get(resourceKey(group, resource))?.get(objectKey(namespace, name));
  }

  byUidOf(uid: string): { readonly object: KubeObject; readonly ref: ResourceRef } | undefined {
    const where = this.byUid.get(uid);
    if (where === undefined) return undefined;
    const object = this.byResource.get(where.rk)?.get(where.key);
    if (object === undefined) return undefined;
    const slash = where.rk.indexOf('/');
    return {
      object,
      ref: { group: where.rk.slice(0, slash), resource: where.rk.slice(slash + 1) },
    };
  }

  /** The objects of one resource, in no particular order; the same array until it changes. */
  list(group: string, resource: string): readonly KubeObject[] {
    const rk = resourceKey(group, resource);
    let cached = this.lists.get(rk);
    if (cached === undefined) {
      cached = [...(this.byResource.get(rk)?.values() ?? [])];
      this.lists.set(rk, cached);
    }
    return cached;
  }

  /** Every resource that has at least one object. */
  resources(): ResourceRef[] {
    const out: ResourceRef[] = [];
    for (const [rk, objects] of this.byResource) {
      if (objects.size === 0) continue;
      const slash = rk.indexOf('/');
      out.push({ group: rk.slice(0, slash), resource: rk.slice(slash + 1) });
    }
    return out;
  }

  get size(): number {
    let n = 0;
    for (const objects of this.byResource.values()) n += objects.size;
    return n;
  }
}
