/**
 * The component schemas of a custom resource, as apiextensions-apiserver's OpenAPI builder
 * publishes them (`pkg/controller/openapi/builder`): the version's `openAPIV3Schema` with
 * `apiVersion`, `kind` and `metadata` (a reference to ObjectMeta) set at the top and on every
 * `x-kubernetes-embedded-resource`, `x-kubernetes-int-or-string` unfolded into
 * `anyOf: [integer, string]`, and `x-kubernetes-group-version-kind`; plus the list kind.
 * Named `<reversed group>.<version>.<Kind>` (`com.example.v1.Widget`).
 *
 * A version without a schema is published as a bare `{type: object}`: declaring any property
 * would make clients treat every other field as unknown.
 *
 * @module
 */
import type { ResourceDefinition } from '../../api/resource.js';
import type { Schema } from '../../api/schema/types.js';
import type { ComponentCollector, SchemaRef } from './component-collector.js';
import { customResourceComponentName } from './names.js';

export const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
export const LIST_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta';

const CONVENTIONS =
  'https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md';
const API_VERSION: Schema = {
  description: `APIVersion defines the versioned schema of this representation of an object. More info: ${CONVENTIONS}#resources`,
  type: 'string',
};
const KIND: Schema = {
  description: `Kind is a string value representing the REST resource this object represents. In CamelCase. More info: ${CONVENTIONS}#types-kinds`,
  type: 'string',
};
const METADATA_DESCRIPTION = `Standard object's metadata. More info: ${CONVENTIONS}#metadata`;
const INT_OR_STRING: readonly Schema[] = [{ type: 'integer' }, { type: 'string' }];

export interface CustomResourceRefs {
  readonly kind: SchemaRef;
  readonly list: SchemaRef;
}

/** Adds the kind and list components of a custom resource version to `collector`. */
export function addCustomResourceComponents(
  def: ResourceDefinition,
  collector: ComponentCollector,
): CustomResourceRefs {
  const metaRef = collector.ref(OBJECT_META);
  const metadata: Schema = metaRef
    ? { allOf: [metaRef], description: METADATA_DESCRIPTION }
    : { type: 'object', description: METADATA_DESCRIPTION };
  const name = customResourceComponentName(def.group, def.version, def.kind);
  const user = def.customResource?.schema;
  const kindSchema: Schema = {
    ...(user === undefined ? { type: 'object' } : withTypeMeta(unfold(user, metadata), metadata)),
    'x-kubernetes-group-version-kind': [gvk(def, def.kind)],
  };
  const kind = collector.define(name, kindSchema);
  const listMeta = collector.ref(LIST_META);
  const list = collector.define(customResourceComponentName(def.group, def.version, def.listKind), {
    description: `${def.listKind} is a list of ${def.kind}`,
    properties: {
      apiVersion: API_VERSION,
      items: {
        description: `List of ${def.plural}. More info: ${CONVENTIONS}`,
        items: kind,
        type: 'array',
      },
      kind: KIND,
      metadata: listMeta
        ? { allOf: [listMeta], description: `More info: ${CONVENTIONS}#metadata` }
        : { type: 'object' },
    },
    required: ['items'],
    type: 'object',
    'x-kubernetes-group-version-kind': [gvk(def, def.listKind)],
  });
  return { kind, list };
}

/** `{group, kind, version}`: key order as Go's sorted map encoding writes it. */
function gvk(
  def: ResourceDefinition,
  kind: string,
): { group: string; kind: string; version: string } {
  return { group: def.group, kind, version: def.version };
}

/** The schema with `apiVersion`, `kind` and `metadata` set; properties sorted by name. */
function withTypeMeta(s: Schema, metadata: Schema): Schema {
  const properties: Record<string, Schema> = {
    ...s.properties,
    apiVersion: API_VERSION,
    kind: KIND,
    metadata,
  };
  const sorted = Object.fromEntries(
    Object.keys(properties)
      .sort()
      .map((k) => [k, properties[k]!]),
  );
  return { ...s, properties: sorted };
}

/**
 * A copy of a structural schema with upstream's publishing changes applied below the root:
 * embedded resources get type meta (and require `apiVersion` and `kind`), int-or-string
 * fields get their `anyOf`. The CRD's own schema object is never modified (validation and
 * pruning read it).
 */
function unfold(s: Schema, metadata: Schema): Schema {
  let out: Schema = s;
  const edit = (patch: Partial<Schema>): void => {
    out = { ...out, ...patch };
  };
  if (s.properties) {
    const props = Object.entries(s.properties).map(([k, v]) => [k, unfold(v, metadata)] as const);
    if (props.some(([k, v]) => v !== s.properties![k]))
      edit({ properties: Object.fromEntries(props) });
  }
  if (s.items) {
    const items = unfold(s.items, metadata);
    if (items !== s.items) edit({ items });
  }
  if (typeof s.additionalProperties === 'object') {
    const ap = unfold(s.additionalProperties, metadata);
    if (ap !== s.additionalProperties) edit({ additionalProperties: ap });
  }
  if (s['x-kubernetes-int-or-string']) edit(intOrStringAlternatives(s));
  if (s['x-kubernetes-embedded-resource']) {
    const required = [...(out.required ?? [])];
    for (const r of ['kind', 'apiVersion']) if (!required.includes(r)) required.push(r);
    edit({ ...withTypeMeta(out, metadata), required });
  }
  return out;
}

/** Upstream's `Unfold`: `anyOf: [integer, string]`, or prepended to `allOf` when `anyOf` is taken. */
function intOrStringAlternatives(s: Schema): Partial<Schema> {
  if (s.anyOf === undefined) return { anyOf: INT_OR_STRING };
  if (isIntOrStringPattern(s.anyOf) || isIntOrStringPattern(s.allOf?.[0]?.anyOf)) return {};
  return { allOf: [{ anyOf: INT_OR_STRING }, ...(s.allOf ?? [])] };
}

function isIntOrStringPattern(anyOf: readonly Schema[] | undefined): boolean {
  return anyOf?.length === 2 && anyOf[0]?.type === 'integer' && anyOf[1]?.type === 'string';
}
