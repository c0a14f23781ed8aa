/**
 * Printers of custom resources, as upstream apiextensions' `tableconvertor`: a `Name` column,
 * then the version's `additionalPrinterColumns` (each a JSONPath; see
 * `jsonpath/printer-column.ts` for how cells are typed), or a single `Age` column when the
 * version declares none (`serveDefaultColumnsIfEmpty`). The `/scale` subresource has its own
 * columns (`getScaleColumnsForVersion`).
 *
 * @module
 */
import { JsonPathError } from '../jsonpath/index.js';
import type { KubeObject } from '../object.js';
import type { PrinterColumn, ResourceDefinition } from '../resource.js';
import { nameOf } from './access.js';
import { NAME } from './columns.js';
import { FIELD_DOCS } from './descriptions.js';
import { type CompiledPrinterColumn, compilePrinterColumn } from './printer-column.js';
import type { KindPrinter, TableColumnDefinition } from './types.js';

const AGE_COLUMN: PrinterColumn = {
  name: 'Age',
  type: 'date',
  description: FIELD_DOCS['ObjectMeta.creationTimestamp'],
  jsonPath: '.metadata.creationTimestamp',
};

/** A custom resource printer and, when a column's JSONPath did not parse, upstream's error text. */
export interface CustomResourcePrinter extends KindPrinter {
  readonly error?: string;
}

/**
 * Builds the printer of a CRD version's columns. Like upstream, a column that does not parse
 * ends the list there (`Name` and the columns before it remain) and the error is reported,
 * e.g. `unrecognized column definition ".spec["`.
 */
export function customResourcePrinter(columns: readonly PrinterColumn[]): CustomResourcePrinter {
  const cols = columns.length > 0 ? columns : [AGE_COLUMN];
  const definitions: TableColumnDefinition[] = [NAME];
  const compiled: CompiledPrinterColumn[] = [];
  let error: string | undefined;
  for (const col of cols) {
    try {
      compiled.push(compilePrinterColumn(col));
    } catch (e) {
      if (!(e instanceof JsonPathError)) throw e;
      error = e.message;
      break;
    }
    definitions.push({
      name: col.name,
      type: col.type,
      format: col.format ?? '',
      description:
        col.description !== undefined && col.description !== ''
          ? col.description
          : `Custom resource definition column (in JSONPath format): ${col.jsonPath}`,
      priority: col.priority ?? 0,
    });
  }
  return {
    columns: definitions,
    row: (o: KubeObject, now: Date) => ({
      cells: [nameOf(o), ...compiled.map((c) => c.cell(o, now))],
    }),
    ...(error === undefined ? {} : { error }),
  };
}

/** The columns of a custom resource's `/scale` Table: Desired and Available when their paths are set, then Age. */
export function customResourceScaleColumns(def: ResourceDefinition): PrinterColumn[] {
  const cols: PrinterColumn[] = [];
  if (def.scale?.specReplicasPath) {
    cols.push({
      name: 'Desired',
      type: 'integer',
      description: 'Number of desired replicas',
      jsonPath: '.spec.replicas',
    });
  }
  if (def.scale?.statusReplicasPath) {
    cols.push({
      name: 'Available',
      type: 'integer',
      description: 'Number of actual replicas',
      jsonPath: '.status.replicas',
    });
  }
  cols.push(AGE_COLUMN);
  return cols;
}
