/**
 * Server-side printing (`meta.k8s.io/v1` Tables) for built-in kinds and custom resources,
 * plus the human-readable ages kubectl shows.
 *
 * @module
 */
export { customResourcePrinter, customResourceScaleColumns } from './custom-resource.js';
export {
  humanDuration,
  parseRfc3339,
  shortHumanDuration,
  translateTimestampSince,
} from './duration.js';
export { builtinPrinter, DEFAULT_PRINTER, hasBuiltinPrinter } from './registry.js';
export {
  printerColumnsError,
  printerFor,
  renderTable,
  scaleTableFor,
  type TableOptions,
  tableFor,
} from './table.js';
export type {
  IncludeObject,
  KindPrinter,
  PrintedRow,
  Table,
  TableColumnDefinition,
  TableMetadata,
  TableRow,
  TableRowCondition,
} from './types.js';
