/**
 * Kubernetes JSONPath (`k8s.io/client-go/util/jsonpath`): parsing, evaluation, kubectl-style
 * printing and the printer-column cells of custom resources.
 *
 * @module
 */
export {
  evaluateJsonPath,
  executeJsonPath,
  findJsonPathResults,
  type JsonPathOptions,
  type JsonPathTemplate,
  parseJsonPath,
  relaxedJsonPathExpression,
  simpleJsonPathError,
  templateOf,
} from './jsonpath.js';
export { JsonPathError } from './nodes.js';
export { type CompiledPrinterColumn, compilePrinterColumn } from './printer-column.js';
