/**
 * How objects relate: owners (`metadata.ownerReferences`, resolved by uid in the store),
 * dependents (objects whose ownerReferences name this uid) and Events (core Events whose
 * `involvedObject` is the object: by uid, or by kind/namespace/name when the uid is absent).
 *
 * @module
 */
import { at, type KubeObject, num, str } from './json.js';
import type { ObjectStore, ResourceRef } from './store.js';

export interface Link {
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
  /** Where the object is (to link to its view); undefined when it is not in the store. */
  readonly ref: ResourceRef | undefined;
}

export interface EventRow {
  readonly key: string;
  readonly type: string;
  readonly reason: string;
  readonly message: string;
  readonly count: number;
  readonly time: string;
  readonly source: string;
}

/** `#/object/<group or core>/<resource>/<namespace or _>/<name>` */
export function objectHref(ref: ResourceRef, namespace: string | undefined, name: string): string {
  const ns = namespace === undefined || namespace === '' ? '_' : namespace;
  return `#/object/${ref.group === '' ? 'core' : ref.group}/${ref.resource}/${encodeURIComponent(ns)}/${encodeURIComponent(name)}`;
}

export function owners(store: ObjectStore, object: KubeObject): Link[] {
  return (object.metadata.ownerReferences ?? []).map((r) => {
    const found = r.uid === undefined ? undefined : store.byUidOf(r.uid);
    return {
      kind: r.kind ?? '',
      name: r.name ?? '',
      namespace: found?.object.metadata.namespace ?? object.metadata.namespace ?? '',
      ref: found?.ref ?? (r.kind === undefined ? undefined : store.kinds.get(r.kind)),
    };
  });
}

export function dependents(store: ObjectStore, object: KubeObject): Link[] {
  const uid = object.metadata.uid;
  if (uid === undefined) return [];
  const out: Link[] = [];
  for (const ref of store.resources()) {
    for (const o of store.list(ref.group, ref.resource)) {
      if (o.metadata.ownerReferences?.some((r) => r.uid === uid) === true) {
        out.push({
          kind: o.kind ?? ref.resource,
          name: o.metadata.name,
          namespace: o.metadata.namespace ?? '',
          ref,
        });
      }
    }
  }
  return out.sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name));
}

function eventTime(e: KubeObject): string {
  return (
    str(e, 'lastTimestamp') ??
    str(e, 'eventTime') ??
    str(e, 'series', 'lastObservedTime') ??
    str(e, 'firstTimestamp') ??
    e.metadata.creationTimestamp ??
    ''
  );
}

export function eventRow(e: KubeObject): EventRow {
  return {
    key: `${e.metadata.namespace ?? ''}/${e.metadata.name}`,
    type: str(e, 'type') ?? 'Normal',
    reason: str(e, 'reason') ?? '',
    message: str(e, 'message') ?? str(e, 'note') ?? '',
    count: num(e, 'count') ?? num(e, 'series', 'count') ?? 1,
    time: eventTime(e),
    source: str(e, 'source', 'component') ?? str(e, 'reportingComponent') ?? '',
  };
}

/** Whether Event `e` is about `object`. */
export function involves(e: KubeObject, object: KubeObject): boolean {
  const inv = at(e, 'involvedObject') ?? at(e, 'regarding');
  const uid = str(inv, 'uid');
  if (uid !== undefined && uid !== '' && object.metadata.uid !== undefined)
    return uid === object.metadata.uid;
  return (
    str(inv, 'kind') === object.kind &&
    str(inv, 'name') === object.metadata.name &&
    (str(inv, 'namespace') ?? '') === (object.metadata.namespace ?? '')
  );
}

export function eventsFor(store: ObjectStore, object: KubeObject): EventRow[] {
  return store
    .list('', 'events')
    .filter((e) => involves(e, object))
    .map(eventRow)
    .sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0));
}
