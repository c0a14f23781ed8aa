/**
 * Storage keys. Every object lives at `/<group or "core">/<plural>/<namespace>/<name>`
 * (cluster-scoped: `/<group>/<plural>/<name>`), so a namespace's objects and a resource's
 * objects are each one prefix: a list is one ordered prefix scan of the in-memory index.
 *
 * @module
 */
import type { ResourceDefinition } from '../../api/resource.js';

type Def = Pick<ResourceDefinition, 'group' | 'plural' | 'namespaced'>;

function groupSegment(def: Def): string {
  return def.group === '' ? 'core' : def.group;
}

/** The prefix of every object of this resource, in all namespaces. */
export function resourcePrefix(def: Def): string {
  return `/${groupSegment(def)}/${def.plural}/`;
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
