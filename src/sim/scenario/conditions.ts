/**
 * What `wait` waits for and `expect` asserts, as pure functions of the objects fetched for a
 * check: kubectl wait's `--for` (`delete`, `create`, `condition=NAME[=VALUE]`,
 * `jsonpath={PATH}[=VALUE]`), a CEL expression, a JSONPath value, or a count.
 *
 * kubectl semantics kept (`kubectl/pkg/cmd/wait`):
 * - `condition=Ready` compares type and status case-insensitively, the status defaulting to
 *   `True`, and is not met while the condition's `observedGeneration` (else
 *   `status.observedGeneration`) is behind `metadata.generation`.
 * - `jsonpath` must find exactly one value (more is an error, a map or list with a value is
 *   an error); it is compared as Go's `%v` prints it, trimmed. Without a value, finding one
 *   is enough (kubectl ≥ 1.31). Missing fields are "not yet", not an error.
 * - `delete` is met when the object is gone or replaced (another uid under the name).
 *
 * One difference: kubectl fails at once on a named object that does not exist; a scenario
 * waits for it (the StatefulSet has not created `web-2` yet), so "not found" is "not yet".
 * With a selector or no name, every matching object must meet the condition and at least
 * one must exist (kubectl: "no matching resources found").
 *
 * @module
 */

import { goFormatV } from '../../api/jsonpath/go-format.js';
import {
  findJsonPathResults,
  type JsonPathTemplate,
  parseJsonPath,
  relaxedJsonPathExpression,
} from '../../api/jsonpath/index.js';
import type { KubeObject } from '../../api/object.js';
import type { Condition, CountBounds, WaitFor } from './types.js';

/** Parses kubectl wait's `--for` value; throws an Error saying what is wrong. */
export function parseWaitFor(text: string): WaitFor {
  if (text === 'delete' || text === 'create') return { type: text };
  if (text.startsWith('condition='))
    return parseConditionFor(text, text.slice('condition='.length));
  if (text.startsWith('jsonpath=')) return parseJsonPathFor(text, text.slice('jsonpath='.length));
  throw new Error(
    `unrecognized condition "${text}": want delete, create, condition=NAME[=VALUE] or jsonpath={PATH}[=VALUE]`,
  );
}

function parseConditionFor(text: string, rest: string): WaitFor {
  const eq = rest.indexOf('=');
  const condition = eq < 0 ? rest : rest.slice(0, eq);
  const status = eq < 0 ? 'True' : rest.slice(eq + 1);
  if (condition === '') throw new Error(`${text}: the condition name is empty`);
  if (status === '') throw new Error(`${text}: the condition value is empty`);
  return { type: 'condition', condition, status };
}

/**
 * `{.status.phase}=Running`, `'{.status.phase}'=Running` (shell quotes copied into YAML), or
 * a relaxed `.status.phase=Running`; without `=VALUE`, the path must find something.
 */
function parseJsonPathFor(text: string, rest: string): WaitFor {
  const close = rest.lastIndexOf('}');
  let expr: string;
  let value: string | undefined;
  if (close >= 0) {
    expr = rest.slice(0, close + 1);
    let tail = rest.slice(close + 1);
    if (expr.startsWith("'") && tail.startsWith("'")) {
      expr = expr.slice(1);
      tail = tail.slice(1);
    }
    if (tail !== '' && !tail.startsWith('=')) throw new Error(`${text}: junk after the path`);
    value = tail === '' ? undefined : tail.slice(1);
  } else {
    const eq = rest.indexOf('=');
    expr = eq < 0 ? rest : rest.slice(0, eq);
    value = eq < 0 ? undefined : rest.slice(eq + 1);
  }
  const path = parseJsonPath(relaxedJsonPathExpression(expr));
  return value === undefined ? { type: 'jsonpath', path } : { type: 'jsonpath', path, value };
}

/** The objects a check looked at: the one named object (maybe absent), or a list. */
export type CheckView =
  | {
      readonly mode: 'one';
      readonly object: KubeObject | undefined;
      /** `for: delete`: the uid the object had when the wait began. */
      readonly baselineUid?: string;
    }
  | {
      readonly mode: 'list';
      readonly objects: readonly KubeObject[];
      /** `for: delete`: the uids that matched when the wait began. */
      readonly baselineUids?: ReadonlySet<string>;
    };

export interface Outcome {
  readonly ok: boolean;
  /** Why not, or what held: "Pod default/web-0: condition Ready is False". */
  readonly detail: string;
  /** Set when the check could not be evaluated (a wait keeps trying; an expect fails). */
  readonly error?: boolean;
}

export interface ConditionInputs {
  /** Virtual time, ms. */
  readonly now: number;
}

/** Evaluates `condition` against `view`. Never throws: evaluation errors are outcomes. */
export function evaluateCondition(
  condition: Condition,
  view: CheckView,
  inputs: ConditionInputs,
): Outcome {
  try {
    return evaluate(condition, view, inputs);
  } catch (err) {
    return { ok: false, error: true, detail: err instanceof Error ? err.message : String(err) };
  }
}

function evaluate(condition: Condition, view: CheckView, inputs: ConditionInputs): Outcome {
  switch (condition.form) {
    case 'for':
      return evaluateWaitFor(condition.waitFor, view);
    case 'jsonpath':
      return eachObject(view, (o) => jsonPathMet(condition.path, condition.equals, o));
    case 'cel':
      if (view.mode === 'one') {
        if (view.object === undefined) return { ok: false, detail: 'not found' };
        const ok = condition.cel.evaluate({ object: view.object, now: inputs.now });
        return { ok, detail: `${condition.cel.source} is ${ok}` };
      } else {
        const ok = condition.cel.evaluate({ objects: view.objects, now: inputs.now });
        return { ok, detail: `${condition.cel.source} is ${ok} (${view.objects.length} objects)` };
      }
    case 'count': {
      const objects = view.mode === 'one' ? (view.object ? [view.object] : []) : view.objects;
      const n = countOf(condition.count, objects);
      const ok = countMet(condition.count, n);
      return { ok, detail: `count is ${n}, want ${describeBounds(condition.count)}` };
    }
  }
}

function evaluateWaitFor(waitFor: WaitFor, view: CheckView): Outcome {
  switch (waitFor.type) {
    case 'delete':
      if (view.mode === 'one') {
        const o = view.object;
        const gone =
          o === undefined || (view.baselineUid !== undefined && uid(o) !== view.baselineUid);
        return { ok: gone, detail: gone ? 'deleted' : `${describe(o)} still exists` };
      } else {
        const base = view.baselineUids;
        const left = view.objects.filter((o) => base === undefined || base.has(uid(o)));
        const names = left.map(describe).join(', ');
        return { ok: left.length === 0, detail: left.length === 0 ? 'deleted' : `left: ${names}` };
      }
    case 'create': {
      const n = view.mode === 'one' ? (view.object ? 1 : 0) : view.objects.length;
      return { ok: n > 0, detail: n > 0 ? 'exists' : 'not found' };
    }
    case 'condition':
      return eachObject(view, (o) => conditionMet(waitFor.condition, waitFor.status, o));
    case 'jsonpath':
      return eachObject(view, (o) => jsonPathMet(waitFor.path, waitFor.value, o));
  }
}

/** Every object must pass, and there must be one. */
function eachObject(view: CheckView, test: (o: KubeObject) => Outcome): Outcome {
  const objects = view.mode === 'one' ? (view.object ? [view.object] : []) : view.objects;
  if (objects.length === 0) {
    return { ok: false, detail: view.mode === 'one' ? 'not found' : 'no matching objects' };
  }
  for (const o of objects) {
    const r = test(o);
    if (!r.ok) return { ...r, detail: `${describe(o)}: ${r.detail}` };
  }
  const only =
    objects.length === 1 && objects[0] ? describe(objects[0]) : `${objects.length} objects`;
  return { ok: true, detail: `${only}: ${test(objects[0] ?? {}).detail}` };
}

interface ConditionEntry {
  type?: unknown;
  status?: unknown;
  observedGeneration?: unknown;
}

/** kubectl's `ConditionalWait.checkCondition`. */
export function conditionMet(name: string, status: string, obj: KubeObject): Outcome {
  const st = record(obj.status);
  const conditions: ConditionEntry[] = Array.isArray(st?.conditions)
    ? st.conditions.map((c: unknown) => record(c) ?? {})
    : [];
  for (const c of conditions) {
    if (typeof c?.type !== 'string' || !equalFold(c.type, name)) continue;
    if (typeof c.status !== 'string') continue;
    const generation = obj.metadata?.generation;
    const observed =
      typeof c.observedGeneration === 'number' ? c.observedGeneration : st?.observedGeneration;
    if (typeof generation === 'number' && typeof observed === 'number' && observed < generation) {
      return {
        ok: false,
        detail: `condition ${c.type} is for generation ${observed} of ${generation}`,
      };
    }
    return { ok: equalFold(c.status, status), detail: `condition ${c.type} is ${c.status}` };
  }
  return { ok: false, detail: `no condition ${name}` };
}

/** kubectl's `JSONPathWait.checkCondition` (value absent: the path must find something). */
export function jsonPathMet(
  path: JsonPathTemplate,
  value: string | undefined,
  obj: KubeObject,
): Outcome {
  const results = findJsonPathResults(path, obj, { allowMissingKeys: true });
  const first = results[0]?.filter((v) => v !== undefined) ?? [];
  if (first.length === 0) return { ok: false, detail: `${path.source} is not set` };
  if (results.length > 1) throw new Error(`${path.source} matches more than one list`);
  if (first.length > 1) throw new Error(`${path.source} matches more than one value`);
  const found = first[0];
  if (value === undefined) return { ok: true, detail: `${path.source} is set` };
  if (typeof found === 'object' && found !== null) {
    throw new Error(`${path.source} leads to a nested object or list, which cannot be compared`);
  }
  const text = goFormatV(found).trim();
  return { ok: text === value.trim(), detail: `${path.source} is ${JSON.stringify(text)}` };
}

/** The objects, or the number of values `bounds.jsonpath` finds in `{kind: List, items}`. */
export function countOf(bounds: CountBounds, objects: readonly KubeObject[]): number {
  if (bounds.jsonpath === undefined) return objects.length;
  const list = { apiVersion: 'v1', kind: 'List', items: objects };
  const results = findJsonPathResults(bounds.jsonpath, list, { allowMissingKeys: true });
  return results.reduce((n, r) => n + r.filter((v) => v !== undefined).length, 0);
}

export function countMet(bounds: CountBounds, n: number): boolean {
  if (bounds.equals !== undefined && n !== bounds.equals) return false;
  if (bounds.min !== undefined && n < bounds.min) return false;
  return bounds.max === undefined || n <= bounds.max;
}

export function describeBounds(bounds: CountBounds): string {
  const parts: string[] = [];
  if (bounds.equals !== undefined) parts.push(`exactly ${bounds.equals}`);
  if (bounds.min !== undefined) parts.push(`at least ${bounds.min}`);
  if (bounds.max !== undefined) parts.push(`at most ${bounds.max}`);
  return parts.join(' and ');
}

/** `Pod default/web-0`, `Node fleetyard-node-1`. */
export function describe(o: KubeObject): string {
  const ns = o.metadata?.namespace;
  return `${o.kind ?? 'object'} ${ns ? `${ns}/` : ''}${o.metadata?.name ?? '?'}`;
}

function uid(o: KubeObject): string {
  return o.metadata?.uid ?? '';
}

function equalFold(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function record(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v))
    : undefined;
}
