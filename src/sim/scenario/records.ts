/**
 * What the runner reports as a run goes, in order: the timeline prints these, the JSON log
 * writes one line per record. Times are virtual, ms since the epoch.
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import type { ObservedEvent, Violation } from './invariants.js';
import type { ScenarioResult, StepResult } from './results.js';
import type { Scenario, Step } from './types.js';

export type RunRecord =
  | { readonly type: 'scenario-start'; readonly scenario: Scenario; readonly startTime: number }
  | { readonly type: 'step-start'; readonly step: Step; readonly time: number }
  /** What a step did: `pod/web-0 deleted`, `fault node-down fleetyard-node-2`. */
  | { readonly type: 'note'; readonly step?: Step; readonly time: number; readonly text: string }
  | { readonly type: 'step-end'; readonly result: StepResult; readonly time: number }
  /** A kind's first list: the objects there when the run began watching it. */
  | {
      readonly type: 'sync';
      readonly key: string;
      readonly objects: readonly KubeObject[];
      readonly time: number;
    }
  | { readonly type: 'event'; readonly event: ObservedEvent }
  | { readonly type: 'violation'; readonly violation: Violation }
  | { readonly type: 'scenario-end'; readonly result: ScenarioResult };

export interface RunListener {
  record(r: RunRecord): void;
}

/** Fans records out to several listeners. */
export function listeners(...all: readonly RunListener[]): RunListener {
  return {
    record: (r) => {
      for (const l of all) l.record(r);
    },
  };
}
