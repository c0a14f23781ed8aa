/**
 * Validation of a custom resource against its version's `openAPIV3Schema`, as the upstream
 * custom-resource strategy does it (`registry/customresource/strategy.go` `Validate`):
 *
 * 1. the schema (kube-openapi validator; `spec.replicas: Invalid value: "string":
 *    spec.replicas in body must be of type integer: "string"`),
 * 2. embedded resources' `apiVersion`/`kind`/`metadata`,
 * 3. duplicates in `x-kubernetes-list-type: set|map` lists (`Duplicate value`).
 *
 * The caller passes the object after pruning and defaulting (upstream validates the decoded,
 * pruned, defaulted object). The root's TypeMeta/ObjectMeta, `/scale` paths and CEL rules are
 * checked elsewhere; {@link validateScaleReplicas} is offered for the scale paths.
 *
 * @module
 */
import { type FieldError, fieldErrors } from '../../api/field-error.js';
import { isJsonObject, type KubeObject } from '../../api/object.js';
import type { ScaleSpec } from '../../api/resource.js';
import type { Schema } from '../../api/schema/types.js';
import { validateEmbeddedResources } from './embedded-resource.js';
import { resultToFieldErrors } from './field-errors.js';
import { validateListSetsAndMaps } from './list-type.js';
import { validateAgainstSchema } from './openapi-validator.js';

/**
 * All schema errors of `obj`, in upstream's order. Never throws, whatever the JSON; an absent
 * schema accepts everything.
 */
export function validateCustomObject(obj: unknown, schema: Schema | undefined): FieldError[] {
  if (!schema) return [];
  return [
    ...validateValue(obj, schema),
    ...validateEmbeddedResources(obj, schema),
    ...validateListSetsAndMaps(obj, schema),
  ];
}

/**
 * Upstream `ValidateCustomResource(fldPath, value, validator)`: only the schema keywords, with
 * errors placed under `fieldPath` (used for defaults: `…properties[a].default`).
 */
export function validateValue(value: unknown, schema: Schema, fieldPath?: string): FieldError[] {
  return resultToFieldErrors(fieldPath, validateAgainstSchema(schema, value, ''));
}

/** Go's `%v` of a decoded JSON value in an accessor error. */
function goV(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

function goTypeName(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  if (v === null || v === undefined) return '<nil>';
  return 'map[string]interface {}';
}

/** Go's `unstructured.NestedInt64`: the value, its error text, or undefined when absent. */
function nestedInt(
  obj: KubeObject,
  fields: readonly string[],
): { value: number; error?: string } | undefined {
  let cur: unknown = obj;
  for (const [i, part] of fields.entries()) {
    if (!isJsonObject(cur)) {
      const at = `.${fields.slice(0, i).join('.')}`;
      return {
        value: 0,
        error: `${at} accessor error: ${goV(cur)} is of the type ${goTypeName(cur)}, expected map[string]interface{}`,
      };
    }
    if (!Object.hasOwn(cur, part)) return undefined;
    cur = cur[part];
  }
  if (typeof cur === 'number' && Number.isInteger(cur)) return { value: cur };
  return {
    value: 0,
    error: `.${fields.join('.')} accessor error: ${goV(cur)} is of the type ${goTypeName(cur)}, expected int64`,
  };
}

const MAX_INT32 = 2147483647;

/**
 * Upstream `ValidateScaleSpec`/`ValidateScaleStatus`: the replica counts at the scale paths are
 * non-negative int32s. The field path is the JSON path itself (`.spec.replicas`), as upstream.
 */
export function validateScaleReplicas(
  obj: KubeObject,
  scale: ScaleSpec,
  which: 'spec' | 'status' | 'both' = 'both',
): FieldError[] {
  const paths: string[] = [];
  if (which !== 'status') paths.push(scale.specReplicasPath);
  if (which !== 'spec') paths.push(scale.statusReplicasPath);
  const errs: FieldError[] = [];
  for (const dotted of paths) {
    const p = dotted.startsWith('.') ? dotted : `.${dotted}`;
    const found = nestedInt(obj, p.slice(1).split('.'));
    if (!found) continue;
    if (found.error) errs.push(fieldErrors.invalid(p, found.value, found.error));
    else if (found.value < 0) {
      errs.push(fieldErrors.invalid(p, found.value, 'should be a non-negative integer'));
    } else if (found.value > MAX_INT32) {
      errs.push(
        fieldErrors.invalid(p, found.value, `should be less than or equal to ${MAX_INT32}`),
      );
    }
  }
  return errs;
}
