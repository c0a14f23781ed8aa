/**
 * Container `resources` validation (upstream `ValidateContainerResourceRequirements`,
 * `validateContainerResourceName`, `ValidateResourceQuantityValue`): names, non-negative
 * quantities, integer-only resources, and requests not above limits.
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors } from '../field-error.js';
import { isQualifiedName } from '../validation/label-names.js';
import { IS_NEGATIVE_ERROR_MSG, IS_NOT_INTEGER_ERROR_MSG } from '../validation/messages.js';
import {
  compareQuantities,
  formatQuantity,
  parseQuantity,
  type Quantity,
} from '../validation/quantity.js';
import { getObj, isJsonObject, type JsonObject } from './json.js';

const STANDARD_CONTAINER_RESOURCES = ['cpu', 'memory', 'ephemeral-storage'];

function isHugePages(name: string): boolean {
  return name.startsWith('hugepages-');
}

/** Upstream `IsNativeResource`: no domain, or a `kubernetes.io` one. */
function isNative(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

/** Upstream `IsExtendedResourceName`. */
function isExtended(name: string): boolean {
  return !isNative(name) && !name.startsWith('requests.');
}

/** Upstream `IsOvercommitAllowed`: native resources other than hugepages. */
export function isOvercommitAllowed(name: string): boolean {
  return isNative(name) && !isHugePages(name);
}

function validateResourceName(name: string, fieldPath: FieldPath): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => fieldErrors.invalid(fieldPath, name, msg));
  if (errs.length > 0) return errs;
  if (!name.includes('/')) {
    if (!STANDARD_CONTAINER_RESOURCES.includes(name) && !isHugePages(name)) {
      errs.push(fieldErrors.invalid(fieldPath, name, 'must be a standard resource for containers'));
    }
  } else if (!isNative(name) && !isExtended(name)) {
    errs.push(
      fieldErrors.invalid(fieldPath, name, "doesn't follow extended resource name standard"),
    );
  }
  return errs;
}

/** Parses a quantity field, or returns the error upstream's decoder would give. */
export function quantityAt(v: unknown, fieldPath: FieldPath): { q?: Quantity; errs: FieldError[] } {
  if (typeof v !== 'string' && typeof v !== 'number') {
    return { errs: [fieldErrors.invalid(fieldPath, v ?? null, 'must be a quantity')] };
  }
  const r = parseQuantity(v);
  return r.ok
    ? { q: r.quantity, errs: [] }
    : { errs: [fieldErrors.invalid(fieldPath, v, r.error)] };
}

/** Upstream `ValidateResourceQuantityValue`. */
export function validateQuantityValue(
  name: string,
  q: Quantity,
  fieldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  if (q.nanos < 0n)
    errs.push(fieldErrors.invalid(fieldPath, formatQuantity(q), IS_NEGATIVE_ERROR_MSG));
  if ((isHugePages(name) || isExtended(name)) && q.nanos % 1_000_000_000n !== 0n) {
    errs.push(fieldErrors.invalid(fieldPath, formatQuantity(q), IS_NOT_INTEGER_ERROR_MSG));
  }
  return errs;
}

function readList(
  list: JsonObject | undefined,
  listPath: FieldPath,
  errs: FieldError[],
): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  for (const [name, v] of Object.entries(list ?? {})) {
    const p = listPath.key(name);
    errs.push(...validateResourceName(name, p));
    const { q, errs: parseErrs } = quantityAt(v, p);
    errs.push(...parseErrs);
    if (q === undefined) continue;
    errs.push(...validateQuantityValue(name, q, p));
    out.set(name, q);
  }
  return out;
}

/** Upstream `ValidateContainerResourceRequirements` (without the claims and hugepages details). */
export function validateResources(resources: unknown, fieldPath: FieldPath): FieldError[] {
  if (resources === undefined || resources === null) return [];
  if (!isJsonObject(resources))
    return [fieldErrors.invalid(fieldPath, resources, 'must be an object')];
  const errs: FieldError[] = [];
  const limPath = fieldPath.child('limits');
  const reqPath = fieldPath.child('requests');
  const limits = readList(getObj(resources, 'limits'), limPath, errs);
  const requests = readList(getObj(resources, 'requests'), reqPath, errs);
  for (const [name, req] of requests) {
    const limit = limits.get(name);
    if (limit !== undefined) {
      const cmp = compareQuantities(req, limit);
      if (cmp !== 0 && !isOvercommitAllowed(name)) {
        errs.push(
          fieldErrors.invalid(
            reqPath,
            formatQuantity(req),
            `must be equal to ${name} limit of ${formatQuantity(limit)}`,
          ),
        );
      } else if (cmp > 0) {
        errs.push(
          fieldErrors.invalid(
            reqPath,
            formatQuantity(req),
            `must be less than or equal to ${name} limit of ${formatQuantity(limit)}`,
          ),
        );
      }
    } else if (!isOvercommitAllowed(name)) {
      errs.push(
        fieldErrors.required(limPath, 'Limit must be set for non overcommitable resources'),
      );
    }
  }
  return errs;
}
