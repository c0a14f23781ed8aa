/**
 * `compileSchemaValidations`: walks a CRD's structural `openAPIV3Schema` (properties, items,
 * additionalProperties, and `allOf` entries as upstream's validator does), compiles every
 * `x-kubernetes-validations` rule against the node it sits on, and reports what upstream's CRD
 * validation reports, with paths relative to the schema (`properties[spec].x-kubernetes-
 * validations[0].rule`) unless a base path is given. Results are cached per schema object.
 *
 * @module
 */
import { type FieldError, fieldErrors } from '../field-error.js';
import type { Schema } from '../schema/types.js';
import { type CompiledRule, compileRule, type NodeTypes, nodeTypes } from './compile-rule.js';
import { mapValueSchema } from './decl-schema.js';
import { validationRuleGoSyntax } from './go-syntax.js';
import { validateRuleShape } from './rule-shape.js';

/** The compiled rules of one schema node and of the nodes below it that have rules. */
export interface CompiledNode {
  /** The node's schema (its `type` is the bad value of errors at the node). */
  readonly schema: Schema;
  readonly isResourceRoot: boolean;
  readonly rules: readonly CompiledRule[];
  readonly properties: ReadonlyMap<string, CompiledNode>;
  readonly items?: CompiledNode;
  readonly additionalProperties?: CompiledNode;
  readonly allOf: readonly CompiledNode[];
}

/** Everything `validateWithCel` needs; `root` is absent when the schema has no rules. */
export interface CompiledValidations {
  readonly root?: CompiledNode;
}

export interface CompileOptions {
  /** Prefix for error paths (and for the path named in `oldSelf` errors), e.g. `spec.validation.openAPIV3Schema`. */
  readonly basePath?: string;
}

interface Walk {
  readonly errors: FieldError[];
  readonly base: string;
}

function join(base: string, rel: string): string {
  if (base === '') return rel;
  if (rel === '') return base;
  return rel.startsWith('[') ? `${base}${rel}` : `${base}.${rel}`;
}

function hasRules(s: Schema | undefined): boolean {
  if (!s) return false;
  if ((s['x-kubernetes-validations']?.length ?? 0) > 0) return true;
  if (hasRules(s.items) || hasRules(mapValueSchema(s))) return true;
  if (Object.values(s.properties ?? {}).some(hasRules)) return true;
  return (s.allOf ?? []).some(hasRules);
}

/**
 * Compiles one node. `rules` come from `ruleSchema` (the node itself, or an `allOf` entry) and
 * types from `nodeSchema`; `path` is where errors are reported, `uncorrelatable` the highest
 * list above (not keyed by map keys) that makes `oldSelf` meaningless here.
 */
function compileNode(
  ruleSchema: Schema,
  nodeSchema: Schema,
  isRoot: boolean,
  path: string | undefined,
  uncorrelatable: string | undefined,
  walk: Walk,
): CompiledNode | undefined {
  if (!hasRules(ruleSchema)) return undefined;
  const types = nodeTypes(nodeSchema, isRoot);
  const rules = (ruleSchema['x-kubernetes-validations'] ?? []).map((rule, i) => {
    const rulePath = path === undefined ? undefined : join(path, `x-kubernetes-validations[${i}]`);
    const compiled = compileOne(rule, nodeSchema, types);
    if (rulePath !== undefined) reportRule(compiled, nodeSchema, rulePath, uncorrelatable, walk);
    return compiled;
  });
  const properties = new Map<string, CompiledNode>();
  for (const [name, prop] of Object.entries(ruleSchema.properties ?? {})) {
    const nodeProp = nodeSchema.properties?.[name];
    if (!nodeProp) continue;
    const sub = path === undefined ? undefined : join(path, `properties[${name}]`);
    const c = compileNode(prop, nodeProp, embedded(nodeProp), sub, uncorrelatable, walk);
    if (c) properties.set(name, c);
  }
  const items = compileItems(ruleSchema, nodeSchema, path, uncorrelatable, walk);
  const additionalProperties = compileValues(ruleSchema, nodeSchema, path, uncorrelatable, walk);
  // Upstream's CRD validation does not compile rules inside allOf (no type context there), so
  // their compile errors only show when objects are validated.
  const allOf = (ruleSchema.allOf ?? [])
    .map((entry) => compileNode(entry, nodeSchema, isRoot, undefined, uncorrelatable, walk))
    .filter((c): c is CompiledNode => c !== undefined);
  return {
    schema: nodeSchema,
    isResourceRoot: isRoot,
    rules,
    properties,
    items,
    additionalProperties,
    allOf,
  };
}

function compileItems(
  ruleSchema: Schema,
  nodeSchema: Schema,
  path: string | undefined,
  uncorrelatable: string | undefined,
  walk: Walk,
): CompiledNode | undefined {
  if (!ruleSchema.items || !nodeSchema.items) return undefined;
  // Only map-type lists correlate items with old items, so below any other list oldSelf is
  // meaningless; upstream names the highest such list.
  const listPath = path === undefined ? undefined : join(walk.base, path);
  const below =
    uncorrelatable ?? (nodeSchema['x-kubernetes-list-type'] === 'map' ? undefined : listPath);
  const sub = path === undefined ? undefined : join(path, 'items');
  return compileNode(
    ruleSchema.items,
    nodeSchema.items,
    embedded(nodeSchema.items),
    sub,
    below,
    walk,
  );
}

function compileValues(
  ruleSchema: Schema,
  nodeSchema: Schema,
  path: string | undefined,
  uncorrelatable: string | undefined,
  walk: Walk,
): CompiledNode | undefined {
  const ruleValues = mapValueSchema(ruleSchema);
  const nodeValues = mapValueSchema(nodeSchema);
  if (!ruleValues || !nodeValues) return undefined;
  const sub = path === undefined ? undefined : join(path, 'additionalProperties');
  return compileNode(ruleValues, nodeValues, embedded(nodeValues), sub, uncorrelatable, walk);
}

function embedded(s: Schema): boolean {
  return s['x-kubernetes-embedded-resource'] === true;
}

function compileOne(
  rule: CompiledRule['rule'],
  schema: Schema,
  types: NodeTypes | undefined,
): CompiledRule {
  if (types) return compileRule(rule, schema, types);
  const error = `rule declared on schema that does not support validation rules type: '${schema.type ?? ''}' x-kubernetes-preserve-unknown-fields: '${schema['x-kubernetes-preserve-unknown-fields'] === true}'`;
  return { rule, error, usesOldSelf: false };
}

function reportRule(
  c: CompiledRule,
  schema: Schema,
  rulePath: string,
  uncorrelatable: string | undefined,
  walk: Walk,
): void {
  const at = (rel: string) => join(walk.base, join(rulePath, rel));
  const shapeErrors = validateRuleShape(c.rule, schema, (rel) => at(rel));
  walk.errors.push(...shapeErrors);
  if (shapeErrors.length > 0 || c.rule.rule.trim() === '') return;
  if (c.error !== undefined) {
    walk.errors.push(fieldErrors.invalid(at('rule'), validationRuleGoSyntax(c.rule), c.error));
  }
  if (c.messageError !== undefined) {
    walk.errors.push(
      fieldErrors.invalid(at('messageExpression'), validationRuleGoSyntax(c.rule), c.messageError),
    );
  }
  if (c.usesOldSelf && uncorrelatable !== undefined) {
    const detail = `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`;
    walk.errors.push(fieldErrors.invalid(at('rule'), c.rule.rule, detail));
  } else if (!c.usesOldSelf && c.program && c.rule.optionalOldSelf !== undefined) {
    walk.errors.push(
      fieldErrors.invalid(
        at('optionalOldSelf'),
        c.rule.optionalOldSelf,
        'may not be set if oldSelf is not used in rule',
      ),
    );
  }
}

interface CacheEntry {
  readonly compiled: CompiledValidations;
  readonly errors: readonly FieldError[];
}

const cache = new WeakMap<Schema, Map<string, CacheEntry>>();

/** Compiles every rule of a CRD version's `openAPIV3Schema`; errors as upstream's CRD validation. */
export function compileSchemaValidations(
  schema: Schema,
  options: CompileOptions = {},
): { compiled: CompiledValidations; errors: FieldError[] } {
  const base = options.basePath ?? '';
  const hit = cache.get(schema)?.get(base);
  if (hit) return { compiled: hit.compiled, errors: [...hit.errors] };
  const walk: Walk = { errors: [], base };
  const root = compileNode(schema, schema, true, '', undefined, walk);
  const entry: CacheEntry = { compiled: { root }, errors: walk.errors };
  let byBase = cache.get(schema);
  if (!byBase) {
    byBase = new Map();
    cache.set(schema, byBase);
  }
  byBase.set(base, entry);
  return { compiled: entry.compiled, errors: [...walk.errors] };
}
