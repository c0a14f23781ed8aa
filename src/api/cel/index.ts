/**
 * CEL validation rules for CustomResourceDefinitions (`x-kubernetes-validations`):
 * compile a version's schema once with `compileSchemaValidations` (its errors are the CRD's
 * validation errors), then check objects with `validateWithCel`.
 *
 * @module
 */
export {
  type CompiledNode,
  type CompiledValidations,
  type CompileOptions,
  compileSchemaValidations,
} from './compile.js';
export type { CompiledRule } from './compile-rule.js';
export { PER_CALL_LIMIT, RUNTIME_COST_BUDGET } from './cost.js';
export { escapeProperty, unescapeProperty } from './escaping.js';
export { GoSyntaxValue, validationRuleGoSyntax } from './go-syntax.js';
export { type ValidateOptions, validateWithCel } from './validate.js';
