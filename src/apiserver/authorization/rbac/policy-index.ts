/**
 * An in-memory index of Roles, ClusterRoles, RoleBindings and ClusterRoleBindings that the RBAC
 * authorizer reads synchronously (upstream reads informer caches, `rbac.New(listers…)`).
 *
 * Bindings are indexed by subject: a User subject under its name, a ServiceAccount subject
 * under its user name (`system:serviceaccount:<ns>:<name>`, its namespace defaulted to the
 * binding's for a RoleBinding, as upstream's `appliesToUser` does), a Group subject under the
 * group. A check looks up the user's name and each of its groups, so it costs
 * O(bindings naming that user or its groups), not O(all bindings): the write path's
 * authorization must stay within 10 % of the unauthorized create rate (issue 18's benchmark).
 *
 * {@link PolicyIndex.fromBackend} lists the rbac.authorization.k8s.io prefix of the storage
 * backend and then watches it from the listed revision, so the index holds every committed
 * change (the backend calls watchers synchronously on commit: there is no lag to bound).
 *
 * @module
 */
import {
  clusterRoleBindingResource,
  clusterRoleResource,
  roleBindingResource,
  roleResource,
} from '../../../api/kinds/rbac.js';
import type { PolicyRule, RbacV1Subject, RoleRef } from '../../../api/model/index.js';
import type { Backend, KeyValue, StorageEvent, Watcher } from '../../../storage/backend.js';
import { serviceAccountUsername, type UserInfo } from '../../authentication/user.js';
import { resourcePrefix } from '../../store/keys.js';
import { parseStoredObject } from '../../store/object-json.js';
import { isRecord, roleRefOf, rulesOf, subjectsOf } from './rbac-objects.js';

export type RbacKind = 'Role' | 'ClusterRole' | 'RoleBinding' | 'ClusterRoleBinding';

/** One binding as the resolver reads it. Never mutated once indexed. */
export interface BindingEntry {
  readonly kind: 'RoleBinding' | 'ClusterRoleBinding';
  readonly name: string;
  /** '' for a ClusterRoleBinding. */
  readonly namespace: string;
  readonly roleRef: RoleRef;
  readonly subjects: readonly RbacV1Subject[];
}

/** What the rule resolver reads. */
export interface PolicyReader {
  role(namespace: string, name: string): readonly PolicyRule[] | undefined;
  clusterRole(name: string): readonly PolicyRule[] | undefined;
  /** ClusterRoleBindings with a subject naming the user or one of its groups, by name. */
  clusterRoleBindingsFor(user: UserInfo): readonly BindingEntry[];
  /** RoleBindings of `namespace` with a subject naming the user or a group of it, by name. */
  roleBindingsFor(user: UserInfo, namespace: string): readonly BindingEntry[];
}

/** Bindings by user name and by group name. */
class SubjectIndex {
  readonly users = new Map<string, Set<BindingEntry>>();
  readonly groups = new Map<string, Set<BindingEntry>>();

  add(b: BindingEntry): void {
    for (const [map, key] of subjectKeys(b, this)) addTo(map, key, b);
  }

  remove(b: BindingEntry): void {
    for (const [map, key] of subjectKeys(b, this)) {
      const set = map.get(key);
      if (set === undefined) continue;
      set.delete(b);
      if (set.size === 0) map.delete(key);
    }
  }

  get empty(): boolean {
    return this.users.size === 0 && this.groups.size === 0;
  }

  /** The bindings naming `user` or one of its groups, each once, by name. */
  lookup(user: UserInfo): BindingEntry[] {
    const found = new Set<BindingEntry>(this.users.get(user.username));
    for (const g of user.groups) for (const b of this.groups.get(g) ?? []) found.add(b);
    return [...found].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}

function addTo(map: Map<string, Set<BindingEntry>>, key: string, b: BindingEntry): void {
  let set = map.get(key);
  if (set === undefined) {
    set = new Set();
    map.set(key, set);
  }
  set.add(b);
}

/** The index keys of a binding's subjects (upstream `appliesToUser`, which ignores apiGroup). */
function subjectKeys(
  b: BindingEntry,
  idx: SubjectIndex,
): [Map<string, Set<BindingEntry>>, string][] {
  const out: [Map<string, Set<BindingEntry>>, string][] = [];
  for (const s of b.subjects) {
    if (s.kind === 'User') out.push([idx.users, s.name]);
    else if (s.kind === 'Group') out.push([idx.groups, s.name]);
    else if (s.kind === 'ServiceAccount') {
      const ns = s.namespace !== undefined && s.namespace !== '' ? s.namespace : b.namespace;
      if (ns !== '') out.push([idx.users, serviceAccountUsername(ns, s.name)]);
    }
  }
  return out;
}

const PREFIXES: Record<RbacKind, string> = {
  Role: resourcePrefix(roleResource),
  ClusterRole: resourcePrefix(clusterRoleResource),
  RoleBinding: resourcePrefix(roleBindingResource),
  ClusterRoleBinding: resourcePrefix(clusterRoleBindingResource),
};

/** The common prefix of the four resources' keys: `/rbac.authorization.k8s.io/`. */
export const RBAC_PREFIX = `/${roleResource.group}/`;

export interface FromBackendOptions {
  /** Decodes a stored value (default: its JSON). For a store that transforms values at rest. */
  readonly decode?: (kv: KeyValue) => unknown;
}

export class PolicyIndex implements PolicyReader {
  readonly #roles = new Map<string, readonly PolicyRule[]>();
  readonly #clusterRoles = new Map<string, readonly PolicyRule[]>();
  readonly #bindings = new Map<string, BindingEntry>();
  readonly #clusterBindings = new SubjectIndex();
  readonly #namespaceBindings = new Map<string, SubjectIndex>();
  #watcher: Watcher | undefined;
  #decodeErrors = 0;

  /**
   * An index of the backend's RBAC objects, kept current by a watch from the listed revision.
   * Call {@link stop} to end the watch.
   */
  static fromBackend(
    backend: Pick<Backend, 'list' | 'watch'>,
    options: FromBackendOptions = {},
  ): PolicyIndex {
    const index = new PolicyIndex();
    const decode = options.decode ?? ((kv: KeyValue) => parseStoredObject(kv.value));
    const listed = backend.list(RBAC_PREFIX);
    for (const kv of listed.items) index.#applyStored(kv, decode);
    index.#watcher = backend.watch(RBAC_PREFIX, listed.revision, (events) => {
      for (const e of events) index.#applyEvent(e, decode);
    });
    return index;
  }

  /** Values that failed to decode (skipped, as an informer would never have seen them). */
  get decodeErrors(): number {
    return this.#decodeErrors;
  }

  stop(): void {
    this.#watcher?.stop();
    this.#watcher = undefined;
  }

  /** Adds or replaces one object of `kind` (a Role, ClusterRole or binding as stored). */
  upsert(kind: RbacKind, obj: unknown): void {
    const o = isRecord(obj) ? obj : {};
    const meta = isRecord(o.metadata) ? o.metadata : {};
    const name = typeof meta.name === 'string' ? meta.name : '';
    const namespace = typeof meta.namespace === 'string' ? meta.namespace : '';
    if (kind === 'Role') this.#roles.set(`${namespace}/${name}`, rulesOf(o.rules));
    else if (kind === 'ClusterRole') this.#clusterRoles.set(name, rulesOf(o.rules));
    else {
      const ns = kind === 'ClusterRoleBinding' ? '' : namespace;
      this.remove(kind, ns, name);
      const entry: BindingEntry = {
        kind,
        name,
        namespace: ns,
        roleRef: roleRefOf(o.roleRef),
        subjects: subjectsOf(o.subjects),
      };
      this.#bindings.set(bindingKey(kind, ns, name), entry);
      this.#subjectIndex(kind, ns, true)?.add(entry);
    }
  }

  remove(kind: RbacKind, namespace: string, name: string): void {
    if (kind === 'Role') this.#roles.delete(`${namespace}/${name}`);
    else if (kind === 'ClusterRole') this.#clusterRoles.delete(name);
    else {
      const key = bindingKey(kind, namespace, name);
      const old = this.#bindings.get(key);
      if (old === undefined) return;
      this.#bindings.delete(key);
      const idx = this.#subjectIndex(kind, namespace, false);
      idx?.remove(old);
      if (kind === 'RoleBinding' && idx?.empty) this.#namespaceBindings.delete(namespace);
    }
  }

  role(namespace: string, name: string): readonly PolicyRule[] | undefined {
    return this.#roles.get(`${namespace}/${name}`);
  }

  clusterRole(name: string): readonly PolicyRule[] | undefined {
    return this.#clusterRoles.get(name);
  }

  clusterRoleBindingsFor(user: UserInfo): readonly BindingEntry[] {
    return this.#clusterBindings.lookup(user);
  }

  roleBindingsFor(user: UserInfo, namespace: string): readonly BindingEntry[] {
    return this.#namespaceBindings.get(namespace)?.lookup(user) ?? [];
  }

  #subjectIndex(kind: RbacKind, namespace: string, create: boolean): SubjectIndex | undefined {
    if (kind === 'ClusterRoleBinding') return this.#clusterBindings;
    let idx = this.#namespaceBindings.get(namespace);
    if (idx === undefined && create) {
      idx = new SubjectIndex();
      this.#namespaceBindings.set(namespace, idx);
    }
    return idx;
  }

  #applyEvent(e: StorageEvent, decode: (kv: KeyValue) => unknown): void {
    if (e.type !== 'delete') {
      this.#applyStored(e.kv, decode);
      return;
    }
    const at = parseKey(e.kv.key);
    if (at !== undefined) this.remove(at.kind, at.namespace, at.name);
  }

  #applyStored(kv: KeyValue, decode: (kv: KeyValue) => unknown): void {
    const at = parseKey(kv.key);
    if (at === undefined) return;
    let obj: unknown;
    try {
      obj = decode(kv);
    } catch {
      this.#decodeErrors++;
      this.remove(at.kind, at.namespace, at.name);
      return;
    }
    // The key, not the stored metadata, says where the object lives.
    const o = isRecord(obj) ? obj : {};
    const meta = { ...(isRecord(o.metadata) ? o.metadata : {}), name: at.name };
    if (at.namespace !== '') Object.assign(meta, { namespace: at.namespace });
    this.upsert(at.kind, { ...o, metadata: meta });
  }
}

function bindingKey(kind: RbacKind, namespace: string, name: string): string {
  return `${kind}/${namespace}/${name}`;
}

/** `{kind, namespace, name}` of a key under one of the four prefixes. */
export function parseKey(
  key: string,
): { kind: RbacKind; namespace: string; name: string } | undefined {
  for (const kind of ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'] as const) {
    const prefix = PREFIXES[kind];
    if (!key.startsWith(prefix)) continue;
    const rest = key.slice(prefix.length).split('/');
    const namespaced = kind === 'Role' || kind === 'RoleBinding';
    if (namespaced && rest.length === 2)
      return { kind, namespace: rest[0] ?? '', name: rest[1] ?? '' };
    if (!namespaced && rest.length === 1) return { kind, namespace: '', name: rest[0] ?? '' };
    return undefined;
  }
  return undefined;
}
