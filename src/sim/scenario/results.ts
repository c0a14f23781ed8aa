/**
 * What a scenario run produced, in the shape the reports (timeline, JUnit, JSON log) read.
 *
 * @module
 */
import type { ObservedEvent, Violation } from './invariants.js';
import type { Invariant, Step } from './types.js';

export type Status = 'passed' | 'failed' | 'skipped';

export interface StepResult {
  readonly step: Step;
  readonly status: Status;
  /** Why it failed or was skipped; for a passed wait, how long it took. */
  readonly message?: string;
  /** Virtual time at its start, ms since the scenario began. */
  readonly startedAt: number;
  /** Virtual time it took. */
  readonly virtualMs: number;
  /** Wall time it took. */
  readonly wallMs: number;
}

export interface InvariantResult {
  readonly invariant: Invariant;
  readonly status: Status;
  /** Times it was evaluated. */
  readonly checks: number;
  readonly violation?: Violation;
  /** The step running when it was violated (1-based). */
  readonly duringStep?: number;
  /** The events around a violation. */
  readonly history?: {
    readonly before: readonly ObservedEvent[];
    readonly after: readonly ObservedEvent[];
  };
}

export interface ScenarioResult {
  /** The scenario's name, or the file's when it did not parse. */
  readonly name: string;
  readonly file: string;
  readonly passed: boolean;
  /** A failure outside steps and invariants: the file did not parse, the cluster did not start. */
  readonly error?: {
    readonly phase: 'parse' | 'start' | 'watch' | 'stop';
    readonly message: string;
  };
  readonly steps: readonly StepResult[];
  readonly invariants: readonly InvariantResult[];
  /** Virtual time at the start of the first step, ms since the epoch. */
  readonly startTime: number;
  /** Virtual time the run covered. */
  readonly virtualMs: number;
  readonly wallMs: number;
}
