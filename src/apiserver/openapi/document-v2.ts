/**
 * A minimal OpenAPI v2 (Swagger 2.0) document, for kubectl 1.27/1.28: their field-validation
 * probe (`query_param_verifier.go`) decodes `/openapi/v2` and looks for the PATCH operation
 * whose `x-kubernetes-group-version-kind` is the object's GVK, then for a `fieldValidation`
 * query parameter on it. So the document has, per resource, only its item path with that
 * PATCH operation (no definitions). With no definitions, kubectl's client-side apply finds no
 * schema for a kind and falls back to its compiled-in types, as it does without OpenAPI.
 *
 * One model, two encodings: JSON (this file) and protobuf (`document-v2-protobuf.ts`).
 *
 * @module
 */
import { getObj } from '../../api/kinds/json.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { OPENAPI_INFO } from './document-v3.js';
import { apiPrefix, operationId, operationTag } from './names.js';
import { ACTION_PARAMETERS } from './parameters.js';
import { patchMediaTypes } from './paths-v3.js';
import type { JsonObject } from './types.js';

export interface V2Parameter {
  readonly name: string;
  readonly in: 'query' | 'path';
  readonly type: string;
  readonly description: string;
}

export interface V2PatchPath {
  readonly path: string;
  /** Path-level parameters: `name`, and `namespace` for namespaced kinds. */
  readonly pathParameters: readonly V2Parameter[];
  readonly operationId: string;
  readonly tag: string;
  readonly consumes: readonly string[];
  readonly parameters: readonly V2Parameter[];
  readonly gvk: { readonly group: string; readonly kind: string; readonly version: string };
}

export interface V2Document {
  readonly info: { readonly title: string; readonly version: string };
  /** Sorted by path. */
  readonly paths: readonly V2PatchPath[];
}

const PATCH_QUERY: readonly V2Parameter[] = ACTION_PARAMETERS.patch.map((p) => ({
  name: String(p.name),
  in: 'query',
  type: String(getObj(p, 'schema')?.type),
  description: String(p.description),
}));

/** The model of the v2 document for every served resource. */
export function buildV2Document(defs: readonly ResourceDefinition[]): V2Document {
  const paths = defs.map((def): V2PatchPath => {
    const ns = def.namespaced ? 'Namespaced' : '';
    const pathParameters: V2Parameter[] = [
      { name: 'name', in: 'path', type: 'string', description: `name of the ${def.kind}` },
    ];
    if (def.namespaced) {
      pathParameters.push({
        name: 'namespace',
        in: 'path',
        type: 'string',
        description: 'object name and auth scope, such as for teams and projects',
      });
    }
    return {
      path: `${apiPrefix(def)}${def.namespaced ? '/namespaces/{namespace}' : ''}/${def.plural}/{name}`,
      pathParameters,
      operationId: operationId(def, 'patch', `${ns}${def.kind}`),
      tag: operationTag(def),
      consumes: patchMediaTypes(def),
      parameters: PATCH_QUERY,
      gvk: { group: def.group, kind: def.kind, version: def.version },
    };
  });
  paths.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { info: OPENAPI_INFO, paths };
}

/** The JSON form, as kube-openapi writes a Swagger 2.0 document. */
export function v2DocumentJson(doc: V2Document): JsonObject {
  const paths: JsonObject = {};
  for (const p of doc.paths) {
    paths[p.path] = {
      parameters: p.pathParameters.map(jsonParameter),
      patch: {
        consumes: p.consumes,
        description: `partially update the specified ${p.gvk.kind}`,
        operationId: p.operationId,
        parameters: p.parameters.map(jsonParameter),
        produces: ['application/json'],
        responses: { '200': { description: 'OK' }, '401': { description: 'Unauthorized' } },
        schemes: ['https'],
        tags: [p.tag],
        'x-kubernetes-action': 'patch',
        'x-kubernetes-group-version-kind': p.gvk,
      },
    };
  }
  return { swagger: '2.0', info: doc.info, paths, definitions: {} };
}

function jsonParameter(p: V2Parameter): JsonObject {
  return {
    uniqueItems: true,
    type: p.type,
    description: p.description,
    name: p.name,
    in: p.in,
    ...(p.in === 'path' ? { required: true } : {}),
  };
}

/**
 * The YAML text gnostic stores for a vendor extension value (`Any.yaml`), as Go's yaml
 * encoder writes a map: sorted keys, one per line, plain scalars unless quoting is needed.
 */
export function gvkYaml(gvk: V2PatchPath['gvk']): string {
  return `group: ${yamlScalar(gvk.group)}\nkind: ${yamlScalar(gvk.kind)}\nversion: ${yamlScalar(gvk.version)}\n`;
}

const YAML_RESERVED = /^(?:y|n|yes|no|on|off|true|false|null|~)$/i;

function yamlScalar(s: string): string {
  if (/^[A-Za-z][A-Za-z0-9._-]*$/.test(s) && !YAML_RESERVED.test(s)) return s;
  return JSON.stringify(s);
}
