/**
 * A ValidatingAdmissionPolicy's expressions compiled once per version of the policy (keyed by
 * uid and resourceVersion, as upstream recompiles on each informer update): match conditions,
 * variables, validations with their message expressions, and audit annotation values. An
 * expression that does not compile (possible for policies stored before a rule tightened, or
 * written straight to storage) keeps its error, which upstream reports at evaluation as
 * `compilation error: …` under the policy's failurePolicy.
 *
 * @module
 */
import {
  type CompiledExpression,
  compilePolicyExpression,
  type PolicyDeclarations,
} from '../../../api/cel/admission-policy/environment.js';
import type { ValidatingAdmissionPolicy, Validation } from '../../../api/model/index.js';

export interface NamedExpression {
  readonly name: string;
  readonly text: string;
  readonly compiled: CompiledExpression;
}

export interface CompiledValidation {
  readonly validation: Validation;
  readonly compiled: CompiledExpression;
  readonly message?: CompiledExpression;
}

export interface CompiledPolicy {
  readonly name: string;
  readonly failurePolicy: 'Fail' | 'Ignore';
  readonly hasParams: boolean;
  readonly matchConditions: readonly NamedExpression[];
  readonly variables: readonly NamedExpression[];
  readonly validations: readonly CompiledValidation[];
  /** `name` is the annotation key, `text` the value expression. */
  readonly auditAnnotations: readonly NamedExpression[];
}

/** Compiles a policy's expressions (no caching; see {@link PolicyCompiler}). */
export function compilePolicy(policy: ValidatingAdmissionPolicy): CompiledPolicy {
  const spec = policy.spec ?? {};
  const variables = (spec.variables ?? []).map((v) => v.name);
  const decl: PolicyDeclarations = {
    hasParams: spec.paramKind !== undefined && spec.paramKind !== null,
    hasAuthorizer: true,
    variables,
  };
  const named = (name: string, text: string, want: 'bool' | 'any' | 'string-or-null') => ({
    name,
    text,
    compiled: compilePolicyExpression(text, want, decl),
  });
  return {
    name: policy.metadata?.name ?? '',
    failurePolicy: spec.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail',
    hasParams: decl.hasParams,
    matchConditions: (spec.matchConditions ?? []).map((c) => named(c.name, c.expression, 'bool')),
    variables: (spec.variables ?? []).map((v) => named(v.name, v.expression, 'any')),
    validations: (spec.validations ?? []).map((v) => {
      const message =
        v.messageExpression !== undefined && v.messageExpression.trim() !== ''
          ? compilePolicyExpression(v.messageExpression, 'string', {
              ...decl,
              hasAuthorizer: false,
            })
          : undefined;
      return {
        validation: v,
        compiled: compilePolicyExpression(v.expression, 'bool', decl),
        message,
      };
    }),
    auditAnnotations: (spec.auditAnnotations ?? []).map((a) =>
      named(a.key, a.valueExpression.trim(), 'string-or-null'),
    ),
  };
}

/** Compiled policies cached by uid and resourceVersion. */
export class PolicyCompiler {
  readonly #cache = new Map<string, CompiledPolicy>();
  /** Enough for every policy of a large cluster; past it the cache starts over. */
  static readonly LIMIT = 1024;

  compile(policy: ValidatingAdmissionPolicy): CompiledPolicy {
    const meta = policy.metadata ?? {};
    const uid = meta.uid ?? '';
    const rv = meta.resourceVersion ?? '';
    // Without a uid (an object not from the store) the policy is compiled every time.
    if (uid === '') return compilePolicy(policy);
    const key = `${uid}/${rv}`;
    const hit = this.#cache.get(key);
    if (hit) return hit;
    const compiled = compilePolicy(policy);
    if (this.#cache.size >= PolicyCompiler.LIMIT) this.#cache.clear();
    this.#cache.set(key, compiled);
    return compiled;
  }

  /** How many compiled policies are cached (for tests). */
  get size(): number {
    return this.#cache.size;
  }
}
