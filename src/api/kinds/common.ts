/**
 * Pieces every built-in kind's strategy shares: the core-only metadata rules, label-selector
 * checks for workloads, and immutable-field checks with upstream's semantic equality.
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors, path } from '../field-error.js';
import {
  type LabelSelector,
  type LabelSelectorObject,
  type LabelSelectorRequirementObject,
  labelSelectorFromObject,
  validateLabelSelectorObject,
} from '../labels/selector.js';
import type { KubeObject } from '../object.js';
import type { KindStrategy } from '../resource.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../validation/messages.js';
import { validateKubeFinalizerNames } from '../validation/metadata-fields.js';
import {
  deepEqualJson,
  get,
  getArr,
  getObj,
  getStringMap,
  isJsonObject,
  type JsonObject,
  semanticNormalize,
} from './json.js';

/** The `spec` field path. */
export const SPEC = path('spec');
/** The `metadata` field path. */
export const METADATA = path('metadata');

/**
 * Adds what upstream's core `ValidateObjectMeta` checks on top of the generic rules the API
 * server runs: finalizer names without a `/` must be standard ones.
 */
export function withBuiltinMetadata(strategy: KindStrategy): KindStrategy {
  const own = strategy.validate;
  return {
    ...strategy,
    validate(obj: KubeObject): FieldError[] {
      const meta = obj.metadata ?? {};
      return [
        ...validateKubeFinalizerNames(meta.finalizers, METADATA.child('finalizers')),
        ...(own?.(obj) ?? []),
      ];
    },
  };
}

/** Upstream `ValidateImmutableField` with `Semantic.DeepEqual` (nil and empty are equal). */
export function immutable(newVal: unknown, oldVal: unknown, fieldPath: FieldPath): FieldError[] {
  if (deepEqualJson(semanticNormalize(newVal), semanticNormalize(oldVal))) return [];
  return [fieldErrors.invalid(fieldPath, newVal ?? null, FIELD_IMMUTABLE_ERROR_MSG)];
}

/** Whether two JSON values are equal under upstream's semantic equality. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  return deepEqualJson(semanticNormalize(a), semanticNormalize(b));
}

function toExpression(v: unknown): LabelSelectorRequirementObject | undefined {
  if (!isJsonObject(v)) return undefined;
  const values = getArr(v, 'values');
  if (values !== undefined && !values.every((x): x is string => typeof x === 'string'))
    return undefined;
  return {
    key: typeof v.key === 'string' ? v.key : '',
    operator: typeof v.operator === 'string' ? v.operator : '',
    values,
  };
}

/**
 * A `metav1.LabelSelector` read from JSON, or an error when its shape is wrong (upstream's
 * decoder would reject those).
 */
export function readSelector(
  v: unknown,
  fieldPath: FieldPath,
): { sel?: LabelSelectorObject; errs: FieldError[] } {
  if (!isJsonObject(v))
    return { errs: [fieldErrors.invalid(fieldPath, v, 'must be a label selector object')] };
  const labels = getObj(v, 'matchLabels');
  const exprs = (getArr(v, 'matchExpressions') ?? []).map(toExpression);
  const badLabels =
    labels !== undefined && Object.values(labels).some((x) => typeof x !== 'string');
  if (badLabels || exprs.some((e) => e === undefined)) {
    return { errs: [fieldErrors.invalid(fieldPath, v, 'must be a label selector object')] };
  }
  const matchExpressions = exprs.filter(
    (e): e is LabelSelectorRequirementObject => e !== undefined,
  );
  return { sel: { matchLabels: getStringMap(v, 'matchLabels'), matchExpressions }, errs: [] };
}

/** Upstream `LabelSelectorAsSelector`, undefined when the selector cannot be converted. */
export function toLabelSelector(sel: LabelSelectorObject | undefined): LabelSelector | undefined {
  try {
    return labelSelectorFromObject(sel);
  } catch {
    return undefined;
  }
}

/** The outcome of {@link checkWorkloadSelector}. */
export interface WorkloadSelectorCheck {
  /** The selector, when it could be read and converted (a nil selector matches nothing). */
  readonly selector?: LabelSelector;
  /** The selector was not even a selector object (upstream's decoder rejects that). */
  readonly badShape?: boolean;
  readonly errs: FieldError[];
}

/**
 * The selector rules of Deployments, ReplicaSets and StatefulSets: required, valid, not empty
 * (`empty selector is invalid for <noun>`).
 */
export function checkWorkloadSelector(
  spec: JsonObject,
  noun: string,
  fieldPath: FieldPath,
): WorkloadSelectorCheck {
  const raw = spec.selector;
  if (raw === undefined || raw === null) {
    return { selector: toLabelSelector(undefined), errs: [fieldErrors.required(fieldPath, '')] };
  }
  const { sel, errs } = readSelector(raw, fieldPath);
  if (sel === undefined) return { badShape: true, errs };
  errs.push(...validateLabelSelectorObject(sel, fieldPath));
  const count = Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length;
  if (count === 0)
    errs.push(fieldErrors.invalid(fieldPath, raw, `empty selector is invalid for ${noun}`));
  return { selector: toLabelSelector(sel), errs };
}

/** Template labels must satisfy the selector (`\`selector\` does not match template \`labels\``). */
export function checkTemplateLabels(
  selector: LabelSelector,
  template: unknown,
  fieldPath: FieldPath,
): FieldError[] {
  if (selector.isEmpty()) return [];
  const labels = getStringMap(getObj(template, 'metadata'), 'labels') ?? {};
  if (selector.matches(labels)) return [];
  const shown = get(getObj(template, 'metadata'), 'labels') ?? null;
  return [fieldErrors.invalid(fieldPath, shown, '`selector` does not match template `labels`')];
}
