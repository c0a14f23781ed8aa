/**
 * Storage keys. Every object lives at `/<group or "core">/<plural>/<namespace>/<name>`
 * (cluster-scoped: `/<group>/<plural>/<name>`), so a namespace's objects and a resource's
 * objects are each one prefix: a list is one ordered prefix scan of the in-memory index.
 *
 * A version served from another's storage (`ResourceDefinition.storage`: autoscaling/v1
 * HPAs in autoscaling/v2's, events.k8s.io events in core's) uses that storage's keys, so
 * reads, lists and watches through any served version see the same objects.
 *
 * @module
 */
import type { ResourceDefinition } from '../../api/resource.js';

type Def = Pick<ResourceDefinition, 'group' | 'plural' | 'namespaced'> & {
  readonly storage?: { readonly group: string; readonly plural: string } | undefined;
};

/** The prefix of every object of this resource, in all namespaces. */
export function resourcePrefix(def: Def): string {
  const group = def.storage?.group ?? def.group;
  const plural = def.storage?.plural ?? def.plural;
  return `/${group === '' ? 'core' : group}/${plural}/`;
}

/** The prefix for a list: one namespace, or all of them when `namespace` is ''. */
export function listPrefix(def: Def, namespace: string): string {
  if (!def.namespaced || namespace === '') return resourcePrefix(def);
  return `${resourcePrefix(def)}${namespace}/`;
}

export function objectKey(def: Def, namespace: string, name: string): string {
  return def.namespaced
    ? `${resourcePrefix(def)}${namespace}/${name}`
    : `${resourcePrefix(def)}${name}`;
}

/** What an object's storage key names; the inverse of {@link objectKey}. */
export interface ObjectKeyParts {
  readonly group: string;
  /** The stored resource's plural. */
  readonly resource: string;
  /** '' for a cluster-scoped object. */
  readonly namespace: string;
  readonly name: string;
}

/**
 * `/<group or core>/<plural>/[<namespace>/]<name>` taken apart; undefined for any other key.
 * Names and namespaces hold no `/`, so the segment count tells the scope.
 */
export function parseObjectKey(key: string): ObjectKeyParts | undefined {
  const parts = key.split('/');
  if (parts.length !== 4 && parts.length !== 5) return undefined;
  if (parts.some((p, i) => i > 0 && p === '')) return undefined;
  const [, group = '', resource = '', a = '', b] = parts;
  // No API group is named `core` (a CRD's group needs a dot), so the name is unambiguous.
  const base = { group: group === 'core' ? '' : group, resource };
  return b === undefined ? { ...base, namespace: '', name: a } : { ...base, namespace: a, name: b };
}
