/**
 * The part of cel-go's type checking that cel-js cannot do here: objects are declared to cel-js
 * as `map<string, dyn>`, so this pass follows `self`, `oldSelf`, macro variables and
 * `cel.bind` names through the schema and reports a select of a field the schema does not
 * declare (`undefined field 'foo'`), as cel-go does, including inside `has()`. It also infers
 * the schema-level result type where it can, for the bool / string result checks.
 *
 * @module
 */
import type { ASTNode } from '@marcbachmann/cel-js';
import type { Schema } from '../schema/types.js';
import { celTypeOf, mapValueSchema, objectFields, viewOf } from './decl-schema.js';
import { OLD_SELF, SELF } from './environment.js';

/** What is statically known of a value: its schema, or an optional of something known. */
export type Shape =
  | { readonly schema: Schema; readonly isRoot: boolean }
  | { readonly optionalOf: Shape };

/** A problem at a character offset of the expression. */
export interface LocatedIssue {
  readonly offset: number;
  readonly message: string;
}

const MACROS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);

export function shapeOf(schema: Schema): Shape {
  return { schema, isRoot: schema['x-kubernetes-embedded-resource'] === true };
}

/** The CEL type name of a shape (`undefined`: unknown). */
export function shapeType(shape: Shape | undefined): string | undefined {
  if (!shape) return undefined;
  if ('optionalOf' in shape) {
    const inner = shapeType(shape.optionalOf);
    return inner === undefined ? undefined : `optional<${inner}>`;
  }
  return celTypeOf(shape.schema);
}

type Scope = ReadonlyMap<string, Shape | undefined>;

class FieldChecker {
  readonly issues: LocatedIssue[] = [];
  readonly #input: string;

  constructor(input: string) {
    this.#input = input;
  }

  infer(node: ASTNode, scope: Scope): Shape | undefined {
    switch (node.op) {
      case 'id':
        return scope.get(node.args);
      case '.':
      case '.?':
        return this.#select(node.args[0], node.args[1], node.pos, scope, node.op === '.?');
      case '[]':
      case '[?]':
        return this.#index(node.args[0], node.args[1], scope);
      case 'call':
        return this.#call(node.args[0], node.args[1], node.pos, scope);
      case 'rcall':
        return this.#receiverCall(node.args[0], node.args[1], node.args[2], scope);
      default:
        this.#visitChildren(node, scope);
        return undefined;
    }
  }

  #visitChildren(node: ASTNode, scope: Scope): void {
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) for (const c of v) walk(c);
      else if (isNode(v)) this.infer(v, scope);
    };
    walk(node.args);
  }

  #select(operand: ASTNode, field: string, pos: number, scope: Scope, optional: boolean) {
    const base = this.infer(operand, scope);
    const unwrapped = base && 'optionalOf' in base ? base.optionalOf : base;
    const result = this.#field(unwrapped, field, this.#input.lastIndexOf('.', pos - 1));
    return result && (optional || unwrapped !== base) ? { optionalOf: result } : result;
  }

  #field(base: Shape | undefined, field: string, offset: number): Shape | undefined {
    if (!base || 'optionalOf' in base) return undefined;
    const schema = base.schema;
    if (schema['x-kubernetes-int-or-string']) return undefined;
    const values = mapValueSchema(schema);
    if (schema.type !== 'object') return undefined;
    if (values) return shapeOf(values);
    const found = objectFields(viewOf(schema, base.isRoot)).get(field);
    if (!found) {
      this.issues.push({ offset, message: `undefined field '${field}'` });
      return undefined;
    }
    return shapeOf(found.schema);
  }

  #index(operand: ASTNode, index: ASTNode, scope: Scope): Shape | undefined {
    const base = this.infer(operand, scope);
    this.infer(index, scope);
    if (!base || 'optionalOf' in base) return undefined;
    const s = base.schema;
    if (s.type === 'array' && s.items) return shapeOf(s.items);
    const values = s.type === 'object' ? mapValueSchema(s) : undefined;
    return values ? shapeOf(values) : undefined;
  }

  #call(name: string, args: readonly ASTNode[], pos: number, scope: Scope): Shape | undefined {
    const arg = args[0];
    if (name === 'has' && args.length === 1 && arg && arg.op === '.') {
      const base = this.infer(arg.args[0], scope);
      const unwrapped = base && 'optionalOf' in base ? undefined : base;
      this.#field(unwrapped, arg.args[1], this.#input.indexOf('(', pos));
      return undefined;
    }
    for (const a of args) this.infer(a, scope);
    return undefined;
  }

  #receiverCall(name: string, receiver: ASTNode, args: readonly ASTNode[], scope: Scope) {
    const [first, second, third] = args;
    if (receiver.op === 'id' && receiver.args === 'cel' && name === 'bind' && first?.op === 'id') {
      const bound = second ? this.infer(second, scope) : undefined;
      return third ? this.infer(third, new Map([...scope, [first.args, bound]])) : undefined;
    }
    const base = this.infer(receiver, scope);
    if (MACROS.has(name) && first?.op === 'id') {
      const inner = new Map([...scope, [first.args, elementShape(base)]]);
      for (const a of args.slice(1)) this.infer(a, inner);
      return name === 'filter' ? base : undefined;
    }
    for (const a of args) this.infer(a, scope);
    if (base && 'optionalOf' in base && (name === 'value' || name === 'orValue')) {
      return base.optionalOf;
    }
    return undefined;
  }
}

function elementShape(base: Shape | undefined): Shape | undefined {
  if (!base || 'optionalOf' in base) return undefined;
  const s = base.schema;
  if (s.type === 'array' && s.items) return shapeOf(s.items);
  if (s.type === 'object') return { schema: { type: 'string' }, isRoot: false };
  return undefined;
}

/** A cel-js AST node: an object with a string `op` (what every node has, and nothing else). */
export function isNode(v: unknown): v is ASTNode {
  return typeof v === 'object' && v !== null && 'op' in v && typeof v.op === 'string';
}

/** Field issues of a parsed rule, and the inferred shape of its result. */
export function checkFields(
  ast: ASTNode,
  self: Shape,
  oldSelf: Shape,
): { issues: LocatedIssue[]; result: Shape | undefined } {
  const checker = new FieldChecker(ast.input);
  const scope: Scope = new Map([
    [SELF, self],
    [OLD_SELF, oldSelf],
  ]);
  const result = checker.infer(ast, scope);
  return { issues: checker.issues, result };
}
