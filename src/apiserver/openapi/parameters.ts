/**
 * OpenAPI v3 parameter objects, shaped as upstream publishes them (`in`, `name`,
 * `schema: {type, uniqueItems: true}`) with short descriptions of our own. Parameters are
 * written inline in every operation, never as `$ref`: kubectl's field-validation probe
 * (`query_param_verifier_v3.go`) reads each PATCH parameter's `name` directly and would not
 * follow a reference.
 *
 * @module
 */
import type { JsonObject } from './types.js';

type ParamType = 'string' | 'integer' | 'boolean';

function query(name: string, type: ParamType, description: string): JsonObject {
  return { description, in: 'query', name, schema: { type, uniqueItems: true } };
}

function pathParam(name: string, description: string): JsonObject {
  return {
    description,
    in: 'path',
    name,
    required: true,
    schema: { type: 'string', uniqueItems: true },
  };
}

const DRY_RUN = query(
  'dryRun',
  'string',
  'When `All`, the request is validated but not persisted.',
);
const FIELD_MANAGER = query(
  'fieldManager',
  'string',
  'Name of the actor making the change, recorded in managedFields (required for apply).',
);
/** The parameter kubectl 1.27+ looks for before sending `fieldValidation=Strict`. */
export const FIELD_VALIDATION = query(
  'fieldValidation',
  'string',
  'How unknown or duplicate fields in the body are handled: Ignore, Warn (default) or Strict.',
);
const FORCE = query('force', 'boolean', 'Apply only: take over fields owned by other managers.');
const PRETTY = query('pretty', 'string', "If 'true', the output is indented.");
const NAMESPACE = pathParam(
  'namespace',
  'object name and auth scope, such as for teams and projects',
);

const LIST_SELECTION = [
  query('continue', 'string', 'Continue token from a previous paged list.'),
  query('fieldSelector', 'string', 'Restricts the result by fields.'),
  query('labelSelector', 'string', 'Restricts the result by labels.'),
  query('limit', 'integer', 'Maximum number of items per page.'),
  query('resourceVersion', 'string', 'Which version of the collection to read.'),
  query('resourceVersionMatch', 'string', 'How resourceVersion is matched: Exact or NotOlderThan.'),
  query('sendInitialEvents', 'boolean', 'Watch only: start with synthetic ADDED events.'),
  query('timeoutSeconds', 'integer', 'Time limit of the list or watch call.'),
];

const DELETE_OPTIONS = [
  DRY_RUN,
  query('gracePeriodSeconds', 'integer', 'Seconds before the object is deleted.'),
  query(
    'ignoreStoreReadErrorWithClusterBreakingPotential',
    'boolean',
    'Deletes an object that cannot be decoded from storage.',
  ),
  query('orphanDependents', 'boolean', 'Deprecated: use propagationPolicy.'),
  query(
    'propagationPolicy',
    'string',
    'Garbage collection of dependents: Orphan, Background or Foreground.',
  ),
];

function byName(params: readonly JsonObject[]): JsonObject[] {
  return [...params].sort((a, b) => String(a.name).localeCompare(String(b.name)));
}

/** Query parameters of each action, in upstream's (alphabetical) order. */
export const ACTION_PARAMETERS = {
  list: byName([
    ...LIST_SELECTION,
    query('allowWatchBookmarks', 'boolean', 'Watch only: ask for BOOKMARK events.'),
    query('watch', 'boolean', 'Watch for changes instead of listing.'),
  ]),
  post: [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION],
  put: [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION],
  patch: [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION, FORCE],
  delete: DELETE_OPTIONS,
  deletecollection: byName([...LIST_SELECTION, ...DELETE_OPTIONS]),
  get: [],
} as const satisfies Record<string, readonly JsonObject[]>;

/** Parameters every operation of a path shares (`name`, `namespace`, `pretty`). */
export function pathParameters(kind: string, item: boolean, namespaced: boolean): JsonObject[] {
  const out: JsonObject[] = [];
  if (item) out.push(pathParam('name', `name of the ${kind}`));
  if (namespaced) out.push(NAMESPACE);
  out.push(PRETTY);
  return out;
}
