/**
 * Runs a kind's strategy hooks in the order the API server runs them (defaults, then
 * prepareForCreate, then generic metadata validation plus the kind's own), without storage.
 * For tests and tools that want to see what the server would store or reject.
 *
 * @module
 */
import { type FieldError, fieldErrorText } from '../field-error.js';
import { deepCopy, type KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../validation/object-meta.js';

/** What the server would store, and what it would answer. */
export interface Outcome {
  /** The object as it would be stored (defaults and creation resets applied). */
  readonly object: KubeObject;
  readonly errors: FieldError[];
  /** `<field>: <body>` of each error, as a 422's causes read. */
  readonly messages: string[];
}

function outcome(object: KubeObject, errors: FieldError[]): Outcome {
  return { object, errors, messages: errors.map(fieldErrorText) };
}

/** A create: defaults, prepareForCreate, then metadata and kind validation. */
export function simulateCreate(def: ResourceDefinition, input: KubeObject): Outcome {
  const obj = deepCopy(input);
  def.strategy.defaults?.(obj);
  def.strategy.prepareForCreate?.(obj);
  const errors = [
    ...validateObjectMeta(obj.metadata ?? {}, def),
    ...(def.strategy.validate?.(obj) ?? []),
  ];
  return outcome(obj, errors);
}

/**
 * An update of the main resource: status carried over when the kind has a status subresource,
 * the kind's prepareForUpdate, defaults, then metadata rules, the kind's validation and (if that passed) its update rules.
 */
export function simulateUpdate(
  def: ResourceDefinition,
  input: KubeObject,
  old: KubeObject,
): Outcome {
  const obj = deepCopy(input);
  if (def.statusSubresource) {
    if (old.status === undefined) delete obj.status;
    else obj.status = deepCopy(old.status);
  }
  def.strategy.prepareForUpdate?.(obj, old);
  def.strategy.defaults?.(obj);
  const errors = validateObjectMetaUpdate(obj.metadata ?? {}, old.metadata ?? {});
  const own = def.strategy.validate?.(obj) ?? [];
  errors.push(...own);
  if (own.length === 0) errors.push(...(def.strategy.validateUpdate?.(obj, old) ?? []));
  return outcome(obj, errors);
}
