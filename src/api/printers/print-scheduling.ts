/**
 * Rows of scheduling.k8s.io PriorityClasses, as upstream `printPriorityClass` (1.33: NAME,
 * VALUE, GLOBAL-DEFAULT, AGE, PREEMPTIONPOLICY; the last column arrived in 1.27).
 *
 * @module
 */
import type { KubeObject } from '../object.js';
import { ageOf, int, nameOf, optStr } from './access.js';
import { AGE, column, NAME } from './columns.js';
import type { PrintedRow, TableColumnDefinition } from './types.js';

const text = (t: string) => ({ text: t });

/** Upstream `priorityClassColumnDefinitions`; descriptions are `PriorityClass{}.SwaggerDoc()`. */
export const PRIORITY_CLASS_COLUMNS: readonly TableColumnDefinition[] = [
  NAME,
  column(
    'Value',
    'integer',
    text(
      'value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.',
    ),
  ),
  column(
    'Global-Default',
    'boolean',
    text(
      'globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.',
    ),
  ),
  AGE,
  column(
    'PreemptionPolicy',
    'string',
    text(
      'preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.',
    ),
  ),
];

export function printPriorityClass(pc: KubeObject, now: Date): PrintedRow {
  return {
    cells: [
      nameOf(pc),
      int(pc.value),
      pc.globalDefault === true,
      ageOf(pc, now),
      // A pointer upstream: unset prints as "" (the server always defaults it).
      optStr(pc.preemptionPolicy) ?? '',
    ],
  };
}
