/**
 * `validateWithCel`: runs the compiled rules over an object (and its old version on update),
 * walking value and schema together as upstream's `Validator.validate` does: the node's own
 * rules, then `allOf` rules, then list items (correlated with old items only in map-type lists,
 * by their keys) or object fields and map entries (correlated by name). Never throws: every
 * failure, including a rule erroring or running out of budget, is a field error.
 *
 * @module
 */
import { type FieldError, fieldErrors } from '../field-error.js';
import type { Schema } from '../schema/types.js';
import type { CompiledNode, CompiledValidations } from './compile.js';
import { PER_CALL_LIMIT, RUNTIME_COST_BUDGET } from './cost.js';
import {
  childPath,
  type EvalState,
  evaluateNodeRules,
  indexPath,
  type PathText,
} from './evaluate-rules.js';
import { type Correlation, descend, rootCorrelation } from './ratchet.js';
import { isPlainObject } from './values.js';

export interface ValidateOptions {
  /** Field path of the validated value; absent: upstream's nil root (root errors at `<nil>`). */
  readonly basePath?: string;
  /** Cost all rules may use together (upstream `RuntimeCELCostBudget`, 10,000,000). */
  readonly costBudget?: number;
  /** Cost one evaluation may use (upstream `PerCallLimit`, 1,000,000). */
  readonly perCallLimit?: number;
  /** Wall-clock bound for the whole call, in milliseconds (default 2,000). */
  readonly timeoutMs?: number;
  /** Turn errors on unchanged values into warnings (upstream's default since 1.30). Default true. */
  readonly ratcheting?: boolean;
  /** Receives ratcheted errors as warning text (`<field>: <body>`). */
  readonly onWarning?: (text: string) => void;
}

const DEFAULT_TIMEOUT_MS = 2_000;

/** Field errors of `obj` (an update when `oldObj` is given) against the compiled rules. */
export function validateWithCel(
  compiled: CompiledValidations,
  obj: unknown,
  oldObj: unknown,
  options: ValidateOptions = {},
): FieldError[] {
  const root = compiled.root;
  if (!root) return [];
  const state: EvalState = {
    remaining: options.costBudget ?? RUNTIME_COST_BUDGET,
    perCallLimit: options.perCallLimit ?? PER_CALL_LIMIT,
    deadline: performance.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    ratcheting: options.ratcheting ?? true,
    onWarning: options.onWarning,
  };
  try {
    return validateNode(root, options.basePath, obj, oldObj, rootCorrelation(obj, oldObj), state);
  } catch (err) {
    // A bug here must not become a 500 with a stack; upstream reports internal errors likewise.
    return [
      fieldErrors.internal(options.basePath ?? '<nil>', `CEL validation failed: ${String(err)}`),
    ];
  }
}

function validateNode(
  node: CompiledNode,
  path: PathText,
  value: unknown,
  old: unknown,
  correlation: Correlation,
  state: EvalState,
): FieldError[] {
  if (value === null || value === undefined) return [];
  const errs = evaluateNodeRules(node, path, value, old, correlation, state);
  if (state.remaining < 0) return errs;
  for (const entry of node.allOf) {
    const parentOnly: Correlation = { parentUnchanged: correlation.parentUnchanged };
    errs.push(...validateNode(entry, path, value, old, parentOnly, state));
    if (state.remaining < 0) return errs;
  }
  if (Array.isArray(value)) errs.push(...validateItems(node, path, value, old, correlation, state));
  else if (isPlainObject(value))
    errs.push(...validateFields(node, path, value, old, correlation, state));
  return errs;
}

function validateItems(
  node: CompiledNode,
  path: PathText,
  items: readonly unknown[],
  old: unknown,
  correlation: Correlation,
  state: EvalState,
): FieldError[] {
  const sub = node.items;
  if (!sub) return [];
  const errs: FieldError[] = [];
  const oldItems = Array.isArray(old) ? old : undefined;
  for (const [i, item] of items.entries()) {
    const oldItem = mapListMatch(node.schema, oldItems, item);
    const c = descend(correlation, item, oldItem);
    errs.push(...validateNode(sub, indexPath(path, i), item, oldItem, c, state));
    if (state.remaining < 0) break;
  }
  return errs;
}

/** The old element with the same map keys, for map-type lists only (upstream `makeMapList`). */
function mapListMatch(schema: Schema, oldItems: readonly unknown[] | undefined, item: unknown) {
  const keys = schema['x-kubernetes-list-map-keys'];
  if (!oldItems || schema['x-kubernetes-list-type'] !== 'map' || !keys?.length) return undefined;
  if (!isPlainObject(item)) return undefined;
  return oldItems.find(
    (o) => isPlainObject(o) && keys.every((k) => o[k] !== undefined && o[k] === item[k]),
  );
}

function validateFields(
  node: CompiledNode,
  path: PathText,
  obj: Readonly<Record<string, unknown>>,
  old: unknown,
  correlation: Correlation,
  state: EvalState,
): FieldError[] {
  const errs: FieldError[] = [];
  const oldObj = isPlainObject(old) ? old : undefined;
  const visit = (sub: CompiledNode, p: string, k: string): boolean => {
    const v = obj[k];
    const o = oldObj?.[k];
    errs.push(...validateNode(sub, p, v, o, descend(correlation, v, o), state));
    return state.remaining >= 0;
  };
  if (node.additionalProperties) {
    for (const k of Object.keys(obj)) {
      if (!visit(node.additionalProperties, indexPath(path, k), k)) return errs;
    }
  }
  for (const k of Object.keys(obj)) {
    const sub = node.properties.get(k);
    if (sub && !visit(sub, childPath(path, k), k)) return errs;
  }
  return errs;
}
