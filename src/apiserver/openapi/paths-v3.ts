/**
 * The OpenAPI v3 `paths` of one resource, as the apiserver's installer lays them out: the
 * collection (list, create, deletecollection), the item (read, replace, patch, delete), the
 * all-namespaces list of a namespaced kind, and the `/status`, `/scale` and (Namespaces)
 * `/finalize` subresources this server serves. Every operation carries `operationId`, `tags`,
 * `x-kubernetes-action` and `x-kubernetes-group-version-kind`; every PATCH lists
 * `fieldValidation`, which is how kubectl 1.29+ decides to validate on the server.
 *
 * Watching is `?watch=true` on the list operation; the deprecated `/watch/` paths are not
 * served, so they are not published.
 *
 * @module
 */
import type { ResourceDefinition } from '../../api/resource.js';
import { PATCH_TYPES } from '../http/media.js';
import type { SchemaRef } from './component-collector.js';
import { apiPrefix, operationId, operationTag } from './names.js';
import { ACTION_PARAMETERS, pathParameters } from './parameters.js';
import type { JsonObject } from './types.js';

/** Component references the operations of one resource use (absent: not in the schema set). */
export interface ResourceRefs {
  readonly kind?: SchemaRef;
  readonly list?: SchemaRef;
  readonly status?: SchemaRef;
  readonly deleteOptions?: SchemaRef;
  readonly patch?: SchemaRef;
  readonly scale?: SchemaRef;
}

type Action = keyof typeof ACTION_PARAMETERS;
type Gvk = { group: string; kind: string; version: string };

interface OperationSpec {
  readonly verb: string;
  /** The installer's operation name after the verb: `NamespacedDeploymentStatus`. */
  readonly rest: string;
  readonly action: Action;
  readonly description: string;
  readonly gvk: Gvk;
  readonly body?: JsonObject;
  /** Status code → description; every one answers `schema`. */
  readonly codes: Readonly<Record<string, string>>;
  readonly schema: SchemaRef | undefined;
}

const OK = { '200': 'OK' };
const WRITE = { '200': 'OK', '201': 'Created' };
const CREATE = { '200': 'OK', '201': 'Created', '202': 'Accepted' };
const DELETE = { '200': 'OK', '202': 'Accepted' };
const SCALE_GVK: Gvk = { group: 'autoscaling', kind: 'Scale', version: 'v1' };

/** Adds the path items of `def` to `paths`. */
export function addResourcePaths(
  def: ResourceDefinition,
  refs: ResourceRefs,
  paths: Record<string, JsonObject>,
): void {
  const ns = def.namespaced ? 'Namespaced' : '';
  const collection = `${apiPrefix(def)}${def.namespaced ? '/namespaces/{namespace}' : ''}/${def.plural}`;
  const item = `${collection}/{name}`;
  const gvk: Gvk = { group: def.group, kind: def.kind, version: def.version };
  const op = (spec: OperationSpec): JsonObject => operation(def, spec);
  const kindBody = requestBody(refs.kind, true);
  const deleteBody = requestBody(refs.deleteOptions, false);

  if (def.namespaced) {
    paths[`${apiPrefix(def)}/${def.plural}`] = {
      get: op({
        verb: 'list',
        rest: `${def.kind}ForAllNamespaces`,
        action: 'list',
        description: `list or watch objects of kind ${def.kind}`,
        gvk,
        codes: OK,
        schema: refs.list,
      }),
      parameters: pathParameters(def.kind, false, false),
    };
  }
  paths[collection] = {
    delete: op({
      verb: 'delete',
      rest: `Collection${ns}${def.kind}`,
      action: 'deletecollection',
      description: `delete collection of ${def.kind}`,
      gvk,
      body: deleteBody,
      codes: OK,
      schema: refs.status,
    }),
    get: op({
      verb: 'list',
      rest: `${ns}${def.kind}`,
      action: 'list',
      description: `list or watch objects of kind ${def.kind}`,
      gvk,
      codes: OK,
      schema: refs.list,
    }),
    parameters: pathParameters(def.kind, false, def.namespaced),
    post: op({
      verb: 'create',
      rest: `${ns}${def.kind}`,
      action: 'post',
      description: `create ${article(def.kind)}${def.kind}`,
      gvk,
      body: kindBody,
      codes: CREATE,
      schema: refs.kind,
    }),
  };
  paths[item] = {
    delete: op({
      verb: 'delete',
      rest: `${ns}${def.kind}`,
      action: 'delete',
      description: `delete ${article(def.kind)}${def.kind}`,
      gvk,
      body: deleteBody,
      codes: DELETE,
      schema: def.returnsDeletedObject ? refs.kind : refs.status,
    }),
    ...readWritePatch(def, '', gvk, refs.kind, refs),
  };
  if (def.statusSubresource)
    paths[`${item}/status`] = readWritePatch(def, 'Status', gvk, refs.kind, refs);
  if (def.scale) paths[`${item}/scale`] = readWritePatch(def, 'Scale', SCALE_GVK, refs.scale, refs);
  if (def.group === '' && def.plural === 'namespaces') {
    paths[`${item}/finalize`] = {
      parameters: pathParameters(def.kind, true, false),
      put: op({
        verb: 'replace',
        rest: `${def.kind}Finalize`,
        action: 'put',
        description: `replace finalize of the specified ${def.kind}`,
        gvk,
        body: kindBody,
        codes: WRITE,
        schema: refs.kind,
      }),
    };
  }
}

/** get + parameters + patch + put of the item or one of its subresources. */
function readWritePatch(
  def: ResourceDefinition,
  sub: '' | 'Status' | 'Scale',
  gvk: Gvk,
  schema: SchemaRef | undefined,
  refs: ResourceRefs,
): JsonObject {
  const ns = def.namespaced ? 'Namespaced' : '';
  const rest = `${ns}${def.kind}${sub}`;
  const of = sub === '' ? '' : `${sub.toLowerCase()} of `;
  return {
    get: operation(def, {
      verb: 'read',
      rest,
      action: 'get',
      description: `read ${of}the specified ${def.kind}`,
      gvk,
      codes: OK,
      schema,
    }),
    parameters: pathParameters(def.kind, true, def.namespaced),
    patch: operation(def, {
      verb: 'patch',
      rest,
      action: 'patch',
      description: `partially update ${of}the specified ${def.kind}`,
      gvk,
      body: patchBody(def, refs.patch),
      codes: WRITE,
      schema,
    }),
    put: operation(def, {
      verb: 'replace',
      rest,
      action: 'put',
      description: `replace ${of}the specified ${def.kind}`,
      gvk,
      body: requestBody(schema, true),
      codes: WRITE,
      schema,
    }),
  };
}

function operation(def: ResourceDefinition, spec: OperationSpec): JsonObject {
  const params = ACTION_PARAMETERS[spec.action];
  const responses: JsonObject = {};
  for (const [code, description] of Object.entries(spec.codes)) {
    responses[code] = spec.schema
      ? { content: { 'application/json': { schema: spec.schema } }, description }
      : { description };
  }
  responses['401'] = { description: 'Unauthorized' };
  return {
    description: spec.description,
    operationId: operationId(def, spec.verb, spec.rest),
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(spec.body ? { requestBody: spec.body } : {}),
    responses,
    tags: [operationTag(def)],
    'x-kubernetes-action': spec.action,
    'x-kubernetes-group-version-kind': spec.gvk,
  };
}

function requestBody(schema: SchemaRef | undefined, required: boolean): JsonObject {
  return {
    content: { '*/*': { schema: schema ?? { type: 'object' } } },
    ...(required ? { required: true } : {}),
  };
}

/**
 * The patch media types this server accepts for `def`: strategic merge patch only for
 * built-in kinds (a custom resource answers 415 to it, as upstream).
 */
export function patchMediaTypes(def: Pick<ResourceDefinition, 'customResource'>): string[] {
  const types: string[] = [PATCH_TYPES.apply, PATCH_TYPES.json, PATCH_TYPES.merge];
  if (def.customResource === undefined) types.push(PATCH_TYPES.strategic);
  return types;
}

function patchBody(def: ResourceDefinition, patch: SchemaRef | undefined): JsonObject {
  const schema = patch ?? { type: 'object' };
  const content: JsonObject = {};
  for (const t of patchMediaTypes(def)) content[t] = { schema };
  return { content, required: true };
}

/** `a ` or `an `, as upstream's `GetArticleForNoun` (by the first letter's sound, roughly). */
function article(noun: string): string {
  return /^[AEIOU]/.test(noun) ? 'an ' : 'a ';
}
