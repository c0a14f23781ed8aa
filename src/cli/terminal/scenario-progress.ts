/**
 * `fleetyard scenario run` on a terminal: which file, which step, how far the virtual clock
 * has gone, on one line of stderr (progress-line.ts), e.g.
 * `scenario 2/3 fleet-heal ▕██████░░░░░░░░░░░░░░▏ 3/10 t+1m30s, 1 violation`.
 *
 * A run listener like the timeline: it follows the runner's records (records.ts) and
 * redraws on each. The state is pure ({@link ScenarioProgress.state}); drawing is the line's.
 *
 * @module
 */
import type { RunListener, RunRecord } from '../../sim/scenario/records.js';
import type { ProgressLine, ProgressState } from './progress-line.js';

/** The progress of a run of `files` scenario files, drawn on `line` if given. */
export class ScenarioProgress implements RunListener {
  readonly #files: number;
  readonly #line: ProgressLine | undefined;
  /** 1-based, 0 before the first. */
  #file = 0;
  #name = '';
  #steps = 0;
  #stepsDone = 0;
  #violations = 0;
  /** Virtual ms since the epoch: the scenario's start, the latest record's time. */
  #start: number | undefined;
  #now: number | undefined;

  constructor(files: number, line?: ProgressLine) {
    this.#files = files;
    this.#line = line;
  }

  /** The next file begins: `name` (the scenario's, or the file's) with `steps` steps. */
  startFile(name: string, steps: number): void {
    this.#file += 1;
    this.#name = name;
    this.#steps = steps;
    this.#stepsDone = 0;
    this.#violations = 0;
    this.#start = undefined;
    this.#now = undefined;
    this.#draw();
  }

  record(r: RunRecord): void {
    switch (r.type) {
      case 'scenario-start':
        this.#name = r.scenario.name;
        this.#start = r.startTime;
        this.#now = r.startTime;
        break;
      case 'step-end':
        this.#stepsDone += 1;
        this.#now = r.time;
        break;
      case 'violation':
        this.#violations += 1;
        this.#now = r.violation.time;
        break;
      case 'event':
        this.#now = r.event.time;
        break;
      case 'scenario-end':
        this.#stepsDone = this.#steps;
        break;
      default:
        this.#now = r.time;
    }
    this.#draw();
  }

  /** What the line shows now; undefined before the first file. */
  state(): ProgressState | undefined {
    if (this.#file === 0) return undefined;
    const which = this.#files > 1 ? ` ${this.#file}/${this.#files}` : '';
    const details: string[] = [];
    if (this.#start === undefined) details.push('starting');
    else details.push(`t+${elapsed(Math.max((this.#now ?? this.#start) - this.#start, 0))}`);
    if (this.#violations > 0) {
      details.push(`${this.#violations} violation${this.#violations === 1 ? '' : 's'}`);
    }
    return {
      label: `scenario${which} ${this.#name}`,
      done: this.#stepsDone,
      total: this.#steps,
      detail: details.join(', '),
    };
  }

  #draw(): void {
    this.#line?.show(this.state());
  }
}

/** `1h2m3s`, `4m0s`, `12s`: whole seconds of virtual time, as Go prints a duration. */
export function elapsed(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  return m > 0 ? `${m}m${s}s` : `${s}s`;
}
