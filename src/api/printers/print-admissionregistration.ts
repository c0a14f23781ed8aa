/**
 * admissionregistration.k8s.io/v1 webhook configurations, as upstream `printers.go`
 * `printValidatingWebhook` / `printMutatingWebhook`: the name, how many webhooks, the age.
 *
 * @module
 */
import type { KubeObject } from '../object.js';
import { ageOf, nameOf } from './access.js';
import { AGE, column, NAME } from './columns.js';
import type { PrintedRow, TableColumnDefinition } from './types.js';

export const WEBHOOK_CONFIGURATION_COLUMNS: readonly TableColumnDefinition[] = [
  NAME,
  column('Webhooks', 'integer', { text: 'Webhooks indicates the number of webhooks.' }),
  AGE,
];

export function printWebhookConfiguration(o: KubeObject, now: Date): PrintedRow {
  const hooks = Array.isArray(o.webhooks) ? o.webhooks.length : 0;
  return { cells: [nameOf(o), hooks, ageOf(o, now)] };
}
