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
