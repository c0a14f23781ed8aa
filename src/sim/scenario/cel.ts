/**
 * CEL for scenario checks and invariants, on the project's CEL environment (the Kubernetes
 * libraries: strings, lists, regex, quantity, sets, optionals), so an expression that works
 * in a CRD validation rule works here. Three scopes, each declaring only its variables, so a
 * misspelt or misplaced variable is a parse-time error rather than a failure in the middle of
 * a 24-hour run:
 *
 * | scope       | variables                                                     |
 * |-------------|---------------------------------------------------------------|
 * | `object`    | `object` (the named object), `now`                            |
 * | `objects`   | `objects` (the matching objects), `now`                       |
 * | `invariant` | `objects`, `event` (`{type, object, oldObject}`), `now`       |
 *
 * Objects are untyped JSON (`dyn`): integers become CEL ints, absent fields are absent, so
 * `has(p.status.conditions)` or `p.status.?conditions.orValue([])` guard optional fields (a
 * plain access of an absent field is an evaluation error, as in Kubernetes). `now` is the
 * cluster's virtual time as a timestamp.
 *
 * @module
 */
import type { Environment } from '@marcbachmann/cel-js';
import { baseEnvironment } from '../../api/cel/environment.js';
import { untypedValue } from '../../api/cel/values.js';

export type CelScope = 'object' | 'objects' | 'invariant';

export interface CelInputs {
  readonly object?: unknown;
  readonly objects?: readonly unknown[];
  readonly event?: {
    readonly type: string;
    readonly object?: unknown;
    readonly oldObject?: unknown;
  };
  /** Virtual time, ms since the epoch. */
  readonly now: number;
}

export interface CompiledCel {
  readonly source: string;
  readonly scope: CelScope;
  /** True or false; throws {@link CelEvaluationError} when the expression cannot be evaluated. */
  evaluate(inputs: CelInputs): boolean;
}

export class CelCompileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CelCompileError';
  }
}

export class CelEvaluationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CelEvaluationError';
  }
}

const VARIABLES: Readonly<Record<CelScope, readonly [string, string][]>> = {
  object: [
    ['object', 'dyn'],
    ['now', 'google.protobuf.Timestamp'],
  ],
  objects: [
    ['objects', 'list<dyn>'],
    ['now', 'google.protobuf.Timestamp'],
  ],
  invariant: [
    ['objects', 'list<dyn>'],
    ['event', 'dyn'],
    ['now', 'google.protobuf.Timestamp'],
  ],
};

const environments = new Map<CelScope, Environment>();

function environment(scope: CelScope): Environment {
  let env = environments.get(scope);
  if (env === undefined) {
    env = baseEnvironment().clone();
    for (const [name, type] of VARIABLES[scope]) env = env.registerVariable(name, type);
    environments.set(scope, env);
  }
  return env;
}

/** Parses and type-checks `source`; throws {@link CelCompileError} with cel-js's message. */
export function compileCel(source: string, scope: CelScope): CompiledCel {
  const env = environment(scope);
  let program: ReturnType<Environment['parse']>;
  try {
    program = env.parse(source);
  } catch (err) {
    throw new CelCompileError(firstLine(err));
  }
  const checked = program.check();
  if (!checked.valid) throw new CelCompileError(firstLine(checked.error));
  if (checked.type !== 'bool' && checked.type !== 'dyn') {
    throw new CelCompileError(`must evaluate to bool, not ${checked.type}`);
  }
  return {
    source,
    scope,
    evaluate(inputs: CelInputs): boolean {
      let result: unknown;
      try {
        result = program(context(scope, inputs));
      } catch (err) {
        throw new CelEvaluationError(firstLine(err));
      }
      if (typeof result !== 'boolean') {
        throw new CelEvaluationError(`evaluated to ${typeof result}, not bool`);
      }
      return result;
    },
  };
}

function context(scope: CelScope, inputs: CelInputs): Record<string, unknown> {
  const vars: Record<string, unknown> = { now: new Date(inputs.now) };
  if (scope === 'object') vars.object = untypedValue(inputs.object ?? null);
  if (scope !== 'object') vars.objects = untypedValue(inputs.objects ?? []);
  if (scope === 'invariant') {
    const e = inputs.event ?? { type: 'SYNC' };
    vars.event = untypedValue({ type: e.type, object: e.object, oldObject: e.oldObject });
  }
  return vars;
}

/** cel-js messages carry a source excerpt with a caret on later lines; the first says it all. */
function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n')[0] ?? text;
}
