/**
 * The parts of steps that name objects and say what must hold of them: targets (kind,
 * name or selector, namespace), the four condition forms of `wait` and `expect` (kubectl's
 * `for`, CEL, a JSONPath value, a count), and count bounds (also used by invariants).
 *
 * @module
 */
import {
  type JsonPathTemplate,
  parseJsonPath,
  relaxedJsonPathExpression,
} from '../../api/jsonpath/index.js';
import { CelCompileError, compileCel } from './cel.js';
import { parseWaitFor } from './conditions.js';
import type { Fields } from './parse-support.js';
import type { Check, Condition, CountBounds, Target } from './types.js';

export function target(f: Fields): Target {
  return {
    kind: f.string('kind'),
    apiVersion: f.optString('apiVersion'),
    name: f.optString('name'),
    namespace: f.optString('namespace'),
    selector: f.selector('selector'),
  };
}

export function namedTarget(f: Fields): Target & { readonly name: string } {
  return { ...target(f), name: f.string('name') };
}

export function parseCheck(f: Fields): Check | undefined {
  const t = target(f);
  if (t.name !== undefined && t.selector !== undefined) {
    f.problem('selector', 'name and selector exclude each other');
  }
  const named = t.name !== undefined;
  // The schema allows exactly one of the four forms.
  const condition = f.has('for')
    ? parseFor(f)
    : f.has('cel')
      ? parseCel(f, named)
      : f.has('jsonpath')
        ? parseJsonPathCondition(f)
        : parseCountCondition(f);
  return condition && { target: t, condition };
}

function parseFor(f: Fields): Condition | undefined {
  const text = f.string('for');
  try {
    return { form: 'for', text, waitFor: parseWaitFor(text) };
  } catch (err) {
    f.problem('for', err instanceof Error ? err.message : String(err));
    return undefined;
  }
}

function parseCel(f: Fields, named: boolean): Condition | undefined {
  try {
    return { form: 'cel', cel: compileCel(f.string('cel'), named ? 'object' : 'objects') };
  } catch (err) {
    if (!(err instanceof CelCompileError)) throw err;
    const hint = named ? ' (with a name, the variable is object)' : ' (without a name, objects)';
    f.problem('cel', `invalid CEL: ${err.message}${/variable/i.test(err.message) ? hint : ''}`);
    return undefined;
  }
}

function parseJsonPathCondition(f: Fields): Condition | undefined {
  const path = parsePath(f, 'jsonpath', f.string('jsonpath'));
  const equals = f.value('equals');
  return (
    path && { form: 'jsonpath', path, equals: equals === undefined ? undefined : String(equals) }
  );
}

function parseCountCondition(f: Fields): Condition | undefined {
  const count = f.optObject('count');
  return count && { form: 'count', count: parseCount(count) };
}

export function parseCount(f: Fields): CountBounds {
  const min = f.optNumber('min');
  const max = f.optNumber('max');
  if (min !== undefined && max !== undefined && min > max) {
    f.problem('min', `is more than max (${min} > ${max})`);
  }
  const text = f.optString('jsonpath');
  const jsonpath = text === undefined ? undefined : parsePath(f, 'jsonpath', text);
  return { equals: f.optNumber('equals'), min, max, jsonpath };
}

/** A template (`{.status.phase}`) or a relaxed path (`.status.phase`). */
function parsePath(f: Fields, key: string, text: string): JsonPathTemplate | undefined {
  try {
    return parseJsonPath(text.includes('{') ? text : relaxedJsonPathExpression(text));
  } catch (err) {
    f.problem(key, `invalid JSONPath: ${err instanceof Error ? err.message : err}`);
    return undefined;
  }
}
