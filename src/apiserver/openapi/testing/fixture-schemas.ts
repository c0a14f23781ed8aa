/**
 * Test fixture: a small built-in schema set shaped like upstream's (ObjectMeta and friends,
 * Status, DeleteOptions, Scale, a Pod spec that a Deployment's template refers to across
 * group-versions), plus a generic schema for every other served kind, so documents can be
 * built and checked before (and independently of) the real generated set.
 *
 * @module
 */
import type { ResourceDefinition } from '../../../api/resource.js';
import type { GroupVersionKind, Schema, SchemaComponents } from '../../../api/schema/types.js';
import type { BuiltinSchemaSet } from '../types.js';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const wrap = (name: string, description?: string): Schema => ({
  allOf: [ref(name)],
  ...(description ? { description } : {}),
});
const str: Schema = { type: 'string' };

const META_SCHEMAS: SchemaComponents = {
  [`${META}ObjectMeta`]: {
    type: 'object',
    description: 'ObjectMeta is metadata that all persisted resources must have.',
    properties: {
      name: str,
      namespace: str,
      labels: { type: 'object', additionalProperties: str },
      creationTimestamp: wrap(`${META}Time`),
      ownerReferences: {
        type: 'array',
        items: wrap(`${META}OwnerReference`),
        'x-kubernetes-patch-merge-key': 'uid',
        'x-kubernetes-patch-strategy': 'merge',
      },
      managedFields: { type: 'array', items: wrap(`${META}ManagedFieldsEntry`) },
    },
  },
  [`${META}OwnerReference`]: { type: 'object', properties: { uid: str, kind: str, name: str } },
  [`${META}ManagedFieldsEntry`]: {
    type: 'object',
    properties: { manager: str, time: wrap(`${META}Time`), fieldsV1: wrap(`${META}FieldsV1`) },
  },
  [`${META}Time`]: { type: 'string', format: 'date-time' },
  [`${META}FieldsV1`]: { type: 'object' },
  [`${META}ListMeta`]: { type: 'object', properties: { resourceVersion: str, continue: str } },
  [`${META}Status`]: {
    type: 'object',
    properties: { metadata: wrap(`${META}ListMeta`), details: wrap(`${META}StatusDetails`) },
  },
  [`${META}StatusDetails`]: { type: 'object', properties: { name: str } },
  [`${META}DeleteOptions`]: {
    type: 'object',
    properties: { propagationPolicy: str, preconditions: wrap(`${META}Preconditions`) },
  },
  [`${META}Preconditions`]: { type: 'object', properties: { uid: str } },
  [`${META}Patch`]: { type: 'object' },
  'io.k8s.api.autoscaling.v1.Scale': {
    type: 'object',
    properties: { metadata: wrap(`${META}ObjectMeta`), spec: { type: 'object' } },
    'x-kubernetes-group-version-kind': [{ group: 'autoscaling', kind: 'Scale', version: 'v1' }],
  },
  'io.k8s.api.core.v1.PodSpec': {
    type: 'object',
    properties: {
      containers: {
        type: 'array',
        items: wrap('io.k8s.api.core.v1.Container'),
        'x-kubernetes-patch-merge-key': 'name',
        'x-kubernetes-patch-strategy': 'merge',
      },
    },
  },
  'io.k8s.api.core.v1.Container': { type: 'object', properties: { name: str, image: str } },
  'io.k8s.api.core.v1.PodTemplateSpec': {
    type: 'object',
    properties: { metadata: wrap(`${META}ObjectMeta`), spec: wrap('io.k8s.api.core.v1.PodSpec') },
  },
};

/** `io.k8s.api.<package>.<version>.` for a group: `apps`, `core`, `events` (events.k8s.io). */
function packagePrefix(group: string, version: string): string {
  const pkg = group === '' ? 'core' : group.replace(/\.k8s\.io$/, '').split('.')[0];
  return `io.k8s.api.${pkg}.${version}.`;
}

/** The spec a fixture kind has: Pods and workload templates refer to the shared PodSpec. */
function specOf(kind: string): Schema {
  if (kind === 'Pod') return wrap('io.k8s.api.core.v1.PodSpec', 'Spec of the pod.');
  if (['Deployment', 'ReplicaSet', 'StatefulSet'].includes(kind)) {
    return {
      type: 'object',
      properties: {
        replicas: { type: 'integer' },
        template: wrap('io.k8s.api.core.v1.PodTemplateSpec'),
      },
    };
  }
  return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
}

/** A built-in schema set with a kind and a list component for every built-in definition. */
export function fixtureSchemas(defs: readonly ResourceDefinition[]): BuiltinSchemaSet {
  const components: Record<string, Schema> = { ...META_SCHEMAS };
  for (const d of defs) {
    if (d.customResource) continue;
    const prefix = packagePrefix(d.group, d.version);
    const gvk = (kind: string) => [{ group: d.group, kind, version: d.version }];
    components[prefix + d.kind] = {
      type: 'object',
      description: `${d.kind} (fixture).`,
      properties: {
        apiVersion: str,
        kind: str,
        metadata: wrap(`${META}ObjectMeta`),
        spec: specOf(d.kind),
      },
      'x-kubernetes-group-version-kind': gvk(d.kind),
    };
    components[prefix + d.listKind] = {
      type: 'object',
      properties: {
        items: { type: 'array', items: ref(prefix + d.kind) },
        metadata: wrap(`${META}ListMeta`),
      },
      'x-kubernetes-group-version-kind': gvk(d.listKind),
    };
  }
  return schemaSet(components);
}

/** A schema set over `components`, finding kinds by their `x-kubernetes-group-version-kind`. */
export function schemaSet(components: SchemaComponents): BuiltinSchemaSet {
  const byGvk = new Map<string, string>();
  const key = (g: GroupVersionKind) => `${g.group}/${g.version}/${g.kind}`;
  for (const [name, s] of Object.entries(components)) {
    for (const g of s['x-kubernetes-group-version-kind'] ?? []) byGvk.set(key(g), name);
  }
  return { components, nameOf: (gvk) => byGvk.get(key(gvk)) };
}
