/**
 * Kubernetes JSONPath (`k8s.io/client-go/util/jsonpath`): parsing, evaluation, kubectl-style
 * printing (the printer-column cells of custom resources build on it: `printers/printer-column.ts`).
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
