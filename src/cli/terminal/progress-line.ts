/**
 * One progress line on a terminal's stderr, redrawn in place with `\r` and erased at the
 * end: `scenario 2/5 fleet-heal ▕██████░░░░░░░░░░░░░░▏ 3/10 t+1m30s`.
 *
 * Only on a terminal ({@link progressLine} gives none otherwise): a pipe, a file or a test
 * sees not a byte of it. Nothing is timed here; the caller draws when something changed.
 *
 * The cursor is parked at the start of the line after each draw (`…\r`), not at its end:
 * another writer that knows nothing of it (the controller thread's logs, written to fd 2
 * from another thread) then writes over it from column 0 instead of after it, and a human
 * log line erases the rest (log-format.ts `eraseLine`); the next draw is on the new line.
 *
 * @module
 */
import { colorsEnabled, paint } from '../../util/log-format.js';

/** What a progress line shows. */
export interface ProgressState {
  /** What is going on: `scenario 2/5 fleet-heal`, `registering nodes`. */
  readonly label: string;
  readonly done: number;
  readonly total: number;
  /** After the count: `t+1m30s`. */
  readonly detail?: string;
}

/** The bar's cells (each 1/20 of the work). */
const BAR_CELLS = 20;
const ERASE_LINE = '\u001b[K';

/**
 * The line, at most `columns - 1` characters (a line that fills the last column wraps on
 * some terminals, and `\r` then goes back to the wrong row). Only the bar is colored; a
 * line too long for the terminal is cut, uncolored, with `…`.
 */
export function renderProgress(state: ProgressState, columns: number, colors: boolean): string {
  const total = Math.max(state.total, 0);
  const done = Math.min(Math.max(state.done, 0), total);
  const filled = total === 0 ? BAR_CELLS : Math.floor((done / total) * BAR_CELLS);
  const bar = ['█'.repeat(filled), '░'.repeat(BAR_CELLS - filled)];
  const count = `${done}/${total}`;
  const tail = state.detail !== undefined && state.detail !== '' ? ` ${state.detail}` : '';
  const plain = `${state.label} ▕${bar.join('')}▏ ${count}${tail}`;
  const max = Math.max(columns - 1, 1);
  if (plain.length > max) return `${plain.slice(0, max - 1)}…`;
  const painted = `${paint(colors, 'cyan', bar[0] ?? '')}${paint(colors, 'dim', bar[1] ?? '')}`;
  return `${state.label} ▕${painted}▏ ${count}${tail}`;
}

/** The part of a stream a progress line needs (process.stderr is one). */
export interface TerminalStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  /** Its width; 80 when unknown (or 0). */
  readonly columns?: number;
}

/** A progress line drawn on one terminal stream. */
export class ProgressLine {
  readonly #stream: TerminalStream;
  readonly #colors: boolean;
  #state: ProgressState | undefined;
  #shown = false;

  constructor(stream: TerminalStream, colors: boolean) {
    this.#stream = stream;
    this.#colors = colors;
  }

  /** Draws `state` over the line (or the last state again). */
  show(state: ProgressState | undefined = this.#state): void {
    this.#state = state;
    if (state === undefined) return;
    // A terminal without a size (a pty nobody sized, `script`) says 0 columns.
    const columns = this.#stream.columns ?? 0;
    const text = renderProgress(state, columns > 0 ? columns : 80, this.#colors);
    this.#stream.write(`\r${ERASE_LINE}${text}\r`);
    this.#shown = true;
  }

  /** Erases the line, if drawn; the next {@link show} draws it again. */
  clear(): void {
    if (!this.#shown) return;
    this.#stream.write(`\r${ERASE_LINE}`);
    this.#shown = false;
  }

  /**
   * Runs `write` (output to the same terminal: a timeline line on stdout) with the line
   * erased first and drawn again after, so the output is not mixed into it.
   */
  around(write: () => void): void {
    const shown = this.#shown;
    this.clear();
    write();
    if (shown) this.show();
  }

  /** Erases the line and forgets its state: done. */
  end(): void {
    this.clear();
    this.#state = undefined;
  }
}

/** A progress line on `stream` when it is a terminal; none (undefined) otherwise. */
export function progressLine(
  stream: TerminalStream,
  env: NodeJS.ProcessEnv = process.env,
): ProgressLine | undefined {
  if (stream.isTTY !== true) return undefined;
  return new ProgressLine(stream, colorsEnabled(env, true));
}
