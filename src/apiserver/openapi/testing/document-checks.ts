/**
 * Test helpers: reading built documents the way their clients do (kubectl's field-validation
 * probes for v3 and v2, explain's component lookup) and a custom resource definition fixture.
 *
 * @module
 */
import type { ResourceDefinition } from '../../../api/resource.js';
import type { Schema } from '../../../api/schema/types.js';

export type Json = Record<string, unknown>;
export type Gvk = { group: string; version: string; kind: string };

/** Every `$ref` string anywhere in a JSON value. */
export function allRefs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) allRefs(v, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else allRefs(v, out);
    }
  }
  return out;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Every operation of a v3 document, with its path and method. */
export function operations(doc: Json): { path: string; method: string; op: Json }[] {
  const out: { path: string; method: string; op: Json }[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (op) out.push({ path, method, op });
    }
  }
  return out;
}

function sameGvk(a: unknown, b: Gvk): boolean {
  const x = a as Partial<Gvk> | undefined;
  return x?.group === b.group && x.version === b.version && x.kind === b.kind;
}

/**
 * kubectl 1.29+'s `supportsQueryParamV3`, in every path order: true only if every PATCH
 * operation tagged with `gvk` lists the parameter (kubectl stops at whichever it meets first,
 * and Go map order is random), and there is at least one.
 */
export function v3SupportsParam(doc: Json, gvk: Gvk, param: string): boolean {
  const patches = operations(doc).filter(
    (o) => o.method === 'patch' && sameGvk(o.op['x-kubernetes-group-version-kind'], gvk),
  );
  return (
    patches.length > 0 &&
    patches.every((p) => ((p.op.parameters ?? []) as Json[]).some((q) => q.name === param))
  );
}

/** kubectl explain's lookup: the component whose `x-kubernetes-group-version-kind` has `gvk`. */
export function explainComponent(doc: Json, gvk: Gvk): Schema | undefined {
  const schemas = (doc.components as { schemas: Record<string, Schema> }).schemas;
  return Object.values(schemas).find((s) =>
    (s['x-kubernetes-group-version-kind'] ?? []).some((g) => sameGvk(g, gvk)),
  );
}

/** A custom resource version as the CRD controller would register it. */
export function widgetDefinition(
  overrides: Partial<ResourceDefinition> & { schema?: Schema | undefined } = {},
): ResourceDefinition {
  const { schema, ...rest } = overrides;
  const hasSchema = 'schema' in overrides;
  return {
    group: 'example.com',
    version: 'v1',
    kind: 'Widget',
    listKind: 'WidgetList',
    plural: 'widgets',
    singular: 'widget',
    namespaced: true,
    nameValidation: 'dns-subdomain',
    generation: 'spec',
    statusSubresource: true,
    scale: { specReplicasPath: 'spec.replicas', statusReplicasPath: 'status.replicas' },
    strategy: {},
    customResource: {
      crdName: 'widgets.example.com',
      schema: hasSchema
        ? schema
        : {
            type: 'object',
            properties: {
              spec: { type: 'object', properties: { color: { type: 'string' } } },
              status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            },
          },
      printerColumns: [],
      selectableFields: [],
    },
    ...rest,
  };
}
