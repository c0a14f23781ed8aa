/**
 * OpenAPI v3 documents: one per served group-version (`/openapi/v3/apis/apps/v1`), and the
 * root (`/openapi/v3`) that lists them with a content hash in each URL, after kube-openapi's
 * `handler3`. A group-version document has the paths of its resources and, in
 * `components.schemas`, exactly the closure of the schemas those paths refer to.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import type { ResourceDefinition } from '../../api/resource.js';
import type { Schema } from '../../api/schema/types.js';
import { KUBERNETES_MINOR } from '../../api/version.js';
import { ComponentCollector, type SchemaRef } from './component-collector.js';
import { addCustomResourceComponents } from './crd-component.js';
import { groupVersionKey } from './names.js';
import { addResourcePaths, type ResourceRefs } from './paths-v3.js';
import type { BuiltinSchemaSet, JsonObject } from './types.js';

/** `info` of every document: the Kubernetes version this server implements. */
export const OPENAPI_INFO = { title: 'Kubernetes', version: `v1.${KUBERNETES_MINOR}.0` } as const;

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
/** Upstream's Patch schema is just an object too; used when the built-in set lacks it. */
const PATCH_SCHEMA: Schema = {
  description: 'The body of a PATCH request; its format is given by the request Content-Type.',
  type: 'object',
};
const SECURITY_SCHEMES = {
  BearerToken: {
    description: 'Bearer Token authentication',
    in: 'header',
    name: 'authorization',
    type: 'apiKey',
  },
};

export interface GroupVersionDocument {
  readonly document: JsonObject;
  /** `$ref` targets missing from the built-in set (should be empty). */
  readonly missingRefs: readonly string[];
}

/** The document of one group-version, from its resources (all in that group-version). */
export function buildGroupVersionDocument(
  defs: readonly ResourceDefinition[],
  schemas: BuiltinSchemaSet,
): GroupVersionDocument {
  const collector = new ComponentCollector(schemas.components);
  const shared = {
    status: collector.ref(`${META}Status`),
    deleteOptions: collector.ref(`${META}DeleteOptions`),
    patch: collector.ref(`${META}Patch`) ?? collector.define(`${META}Patch`, PATCH_SCHEMA),
  };
  const paths: Record<string, JsonObject> = {};
  for (const def of defs) {
    addResourcePaths(def, { ...shared, ...kindRefs(def, schemas, collector) }, paths);
  }
  const document = {
    openapi: '3.0.0',
    info: OPENAPI_INFO,
    paths: sortedRecord(paths),
    components: { schemas: collector.components(), securitySchemes: SECURITY_SCHEMES },
    security: [{ BearerToken: [] }],
  };
  return { document, missingRefs: [...collector.missing].sort() };
}

function kindRefs(
  def: ResourceDefinition,
  schemas: BuiltinSchemaSet,
  collector: ComponentCollector,
): Pick<ResourceRefs, 'kind' | 'list' | 'scale'> {
  const scale = def.scale ? scaleRef(schemas, collector) : undefined;
  if (def.customResource !== undefined) {
    return { ...addCustomResourceComponents(def, collector), scale };
  }
  const { group, version } = def;
  return {
    kind: collector.ref(schemas.nameOf({ group, version, kind: def.kind })),
    list: collector.ref(schemas.nameOf({ group, version, kind: def.listKind })),
    scale,
  };
}

function scaleRef(schemas: BuiltinSchemaSet, collector: ComponentCollector): SchemaRef | undefined {
  const gvk = { group: 'autoscaling', version: 'v1', kind: 'Scale' };
  return collector.ref(schemas.nameOf(gvk) ?? 'io.k8s.api.autoscaling.v1.Scale');
}

function sortedRecord<T>(rec: Record<string, T>): Record<string, T> {
  return Object.fromEntries(
    Object.keys(rec)
      .sort()
      .map((k) => [k, rec[k]!]),
  );
}

/** Upstream's document hash and ETag: SHA-512 of the bytes, upper-case hex. */
export function contentHash(bytes: Uint8Array): string {
  return createHash('sha512').update(bytes).digest('hex').toUpperCase();
}

/** The URL of a group-version document at hash `hash`, as the root lists it. */
export function serverRelativeUrl(key: string, hash: string): string {
  return `/openapi/v3/${key}?hash=${hash}`;
}

/** `/openapi/v3`: every group-version key (`api/v1`, `apis/apps/v1`) with its document's URL. */
export function buildRootDocument(hashes: ReadonlyMap<string, string>): JsonObject {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const key of [...hashes.keys()].sort()) {
    paths[key] = { serverRelativeURL: serverRelativeUrl(key, hashes.get(key)!) };
  }
  return { paths };
}

/** Served resources grouped by document key, in registration order. */
export function groupByVersion(
  defs: readonly ResourceDefinition[],
): Map<string, ResourceDefinition[]> {
  const out = new Map<string, ResourceDefinition[]>();
  for (const d of defs) {
    const key = groupVersionKey(d.group, d.version);
    const list = out.get(key);
    if (list) list.push(d);
    else out.set(key, [d]);
  }
  return out;
}
