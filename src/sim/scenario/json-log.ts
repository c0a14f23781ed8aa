/**
 * `--json FILE`: one JSON object per line for every record of every scenario run — each
 * watch event with its whole object, each step's start and end, each note and violation —
 * for tools that replay or diff runs. Every line carries the scenario name, the virtual
 * time (RFC 3339 and ms since the scenario began) and a `record` type.
 *
 * @module
 */
import { stringifyJson } from '../../api/int64-json.js';
import type { RunListener, RunRecord } from './records.js';

export class JsonLog implements RunListener {
  readonly #write: (line: string) => void;
  #scenario = '';
  #t0 = 0;

  constructor(write: (line: string) => void) {
    this.#write = write;
  }

  record(r: RunRecord): void {
    if (r.type === 'scenario-start') {
      this.#scenario = r.scenario.name;
      this.#t0 = r.startTime;
    }
    // Objects may hold int64 values beyond 2^53 as bigints (ControllerRevision revisions).
    this.#write(`${stringifyJson(this.#line(r))}\n`);
  }

  #stamp(time: number): { time: string; elapsedMs: number } {
    return { time: new Date(time).toISOString(), elapsedMs: time - this.#t0 };
  }

  #line(r: RunRecord): Record<string, unknown> {
    const base = { scenario: this.#scenario, record: r.type };
    switch (r.type) {
      case 'scenario-start':
        return {
          ...base,
          ...this.#stamp(r.startTime),
          file: r.scenario.file,
          cluster: r.scenario.cluster,
          steps: r.scenario.steps.length,
          invariants: r.scenario.invariants.map((i) => i.name),
        };
      case 'step-start':
        return {
          ...base,
          ...this.#stamp(r.time),
          step: r.step.index,
          name: r.step.name,
          title: r.step.title,
        };
      case 'note':
        return { ...base, ...this.#stamp(r.time), step: r.step?.index, text: r.text };
      case 'step-end':
        return {
          ...base,
          ...this.#stamp(r.time),
          step: r.result.step.index,
          status: r.result.status,
          message: r.result.message,
          virtualMs: r.result.virtualMs,
          wallMs: Math.round(r.result.wallMs),
        };
      case 'sync':
        return { ...base, ...this.#stamp(r.time), resource: r.key, objects: r.objects };
      case 'event': {
        const e = r.event;
        return {
          ...base,
          ...this.#stamp(e.time),
          seq: e.seq,
          type: e.type,
          kind: e.kind,
          namespace: e.namespace,
          name: e.name,
          resourceVersion: e.resourceVersion,
          summary: e.summary,
          object: e.object,
        };
      }
      case 'violation': {
        const v = r.violation;
        return {
          ...base,
          ...this.#stamp(v.time),
          invariant: v.invariant.name,
          message: v.message,
          error: v.error,
          eventSeq: v.event?.seq,
        };
      }
      case 'scenario-end': {
        const res = r.result;
        return {
          ...base,
          ...this.#stamp(res.startTime + res.virtualMs),
          passed: res.passed,
          error: res.error,
          steps: res.steps.map((s) => ({
            step: s.step.index,
            status: s.status,
            message: s.message,
          })),
          invariants: res.invariants.map((i) => ({
            name: i.invariant.name,
            status: i.status,
            checks: i.checks,
          })),
          virtualMs: res.virtualMs,
          wallMs: Math.round(res.wallMs),
        };
      }
    }
  }
}
