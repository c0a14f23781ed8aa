/**
 * A type guard for `metav1.LabelSelector` values read from stored JSON (`spec.selector` of a
 * PodDisruptionBudget, a workload): it checks the shape {@link labelSelectorFromObject} reads,
 * so a caller holding `unknown` can pass the value on typed instead of asserting it. Validation
 * at create and update guarantees the shape for stored objects; a value without it (a map of
 * non-strings, an expression without a string key) answers false.
 *
 * @module
 */
import { isJsonObject } from '../object.js';
import type { LabelSelectorObject, LabelSelectorRequirementObject } from './selector.js';

function isString(v: unknown): v is string {
  return typeof v === 'string';
}

function isStringList(v: unknown): v is readonly string[] {
  return Array.isArray(v) && v.every(isString);
}

function isRequirementObject(v: unknown): v is LabelSelectorRequirementObject {
  if (!isJsonObject(v) || typeof v.key !== 'string' || typeof v.operator !== 'string') return false;
  return v.values === undefined || v.values === null || isStringList(v.values);
}

/** Whether `v` is a label selector object, or a nil one (`null`/absent: it selects nothing). */
export function isLabelSelectorObject(v: unknown): v is LabelSelectorObject | null | undefined {
  if (v === null || v === undefined) return true;
  if (!isJsonObject(v)) return false;
  const { matchLabels, matchExpressions } = v;
  if (
    matchLabels !== undefined &&
    matchLabels !== null &&
    !(isJsonObject(matchLabels) && Object.values(matchLabels).every(isString))
  )
    return false;
  if (matchExpressions === undefined || matchExpressions === null) return true;
  return Array.isArray(matchExpressions) && matchExpressions.every(isRequirementObject);
}
