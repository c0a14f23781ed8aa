/**
 * A scenario as the runner sees it: the YAML file (`scenario.schema.json`) after parsing and
 * checking, with durations in milliseconds, expressions compiled and manifests decoded, so
 * that nothing in a file that parsed can fail for its syntax once the cluster is running.
 *
 * @module
 */
import type { JsonPathTemplate } from '../../api/jsonpath/index.js';
import type { KubeObject } from '../../api/object.js';
import { CHAOS_SUBCOMMANDS } from '../chaos/chaos.js';
import type { CompiledCel } from './cel.js';

/** Fault verbs: every `fleetyard chaos` subcommand. */
export const FAULT_VERBS = CHAOS_SUBCOMMANDS;
export type FaultVerb = (typeof FAULT_VERBS)[number];

/** A kind, optionally pinned to an apiVersion (else the server's preferred version). */
export interface KindRef {
  readonly kind: string;
  readonly apiVersion?: string;
}

/** Objects of a kind: one by name, or those matching namespace and selector. */
export interface Target extends KindRef {
  readonly name?: string;
  /** Absent: `default` for steps (namespaced kinds), every namespace for invariants. */
  readonly namespace?: string;
  readonly selector?: string;
}

export interface CountBounds {
  readonly equals?: number;
  readonly min?: number;
  readonly max?: number;
  /** Count this JSONPath's values in `{kind: List, items}` instead of the objects. */
  readonly jsonpath?: JsonPathTemplate;
}

/** kubectl wait's `--for`. */
export type WaitFor =
  | { readonly type: 'delete' }
  | { readonly type: 'create' }
  | { readonly type: 'condition'; readonly condition: string; readonly status: string }
  | { readonly type: 'jsonpath'; readonly path: JsonPathTemplate; readonly value?: string };

/** What `wait` waits for and `expect` asserts. */
export type Condition =
  | { readonly form: 'for'; readonly text: string; readonly waitFor: WaitFor }
  | { readonly form: 'cel'; readonly cel: CompiledCel }
  | {
      readonly form: 'jsonpath';
      readonly path: JsonPathTemplate;
      readonly equals?: string;
    }
  | { readonly form: 'count'; readonly count: CountBounds };

export interface Check {
  readonly target: Target;
  readonly condition: Condition;
}

export type StepAction =
  | { readonly action: 'apply'; readonly objects: readonly KubeObject[]; readonly source: string }
  | {
      readonly action: 'wait';
      readonly check: Check;
      readonly timeoutMs: number;
      readonly intervalMs: number;
    }
  | { readonly action: 'expect'; readonly check: Check }
  | {
      readonly action: 'fault';
      readonly verb: FaultVerb;
      readonly target: string;
      readonly namespace: string;
      readonly exitCode?: number;
    }
  | { readonly action: 'advance'; readonly durationMs: number }
  | {
      readonly action: 'patch';
      readonly target: Target & { readonly name: string };
      readonly patchType: 'merge' | 'json' | 'strategic';
      readonly patch: unknown;
      readonly subresource?: 'status' | 'scale';
    }
  | {
      readonly action: 'scale';
      readonly target: Target & { readonly name: string };
      readonly replicas: number;
    }
  | {
      readonly action: 'delete';
      readonly target: Target;
      readonly gracePeriodSeconds?: number;
      readonly propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
    }
  | { readonly action: 'cordon' | 'uncordon'; readonly node: string }
  | {
      readonly action: 'drain';
      readonly node: string;
      readonly timeoutMs: number;
      readonly outcome: 'drained' | 'blocked';
    }
  | { readonly action: 'random-faults'; readonly plan: RandomFaultPlan };

export interface RandomFaultPlan {
  readonly durationMs: number;
  readonly everyMs: number;
  readonly faults: readonly FaultVerb[];
  readonly seed: number;
  readonly namespace?: string;
  readonly selector?: string;
  readonly maxNodesDown?: number;
}

export interface Step {
  /** 1-based, as the timeline and errors count. */
  readonly index: number;
  readonly name?: string;
  /** One line: `advance 15m`, `wait condition=Ready Pod default/web-0 (timeout 5m)`. */
  readonly title: string;
  readonly action: StepAction;
}

export interface Invariant {
  readonly name: string;
  readonly target: Omit<Target, 'name'>;
  readonly rule:
    | { readonly form: 'cel'; readonly cel: CompiledCel }
    | { readonly form: 'count'; readonly count: CountBounds };
  /** The step name after which it is checked; absent: from the start. */
  readonly after?: string;
  /** The rule as written, for messages. */
  readonly text: string;
}

export interface ClusterSpec {
  readonly nodes?: number;
  readonly zones?: readonly string[];
  readonly seed?: number;
  readonly start?: string;
  readonly flags?: readonly string[];
  readonly controllers?: string;
}

export interface Scenario {
  readonly name: string;
  readonly description?: string;
  /** The file it was read from, as given. */
  readonly file: string;
  readonly cluster: ClusterSpec;
  /** Kinds to watch besides the defaults and the invariants'. */
  readonly watch: readonly KindRef[];
  readonly invariants: readonly Invariant[];
  readonly steps: readonly Step[];
}
