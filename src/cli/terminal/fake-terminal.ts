/**
 * A terminal screen for tests: what a person would see after the writes, with `\r`, `\n`,
 * erase-to-end-of-line (`ESC[K`) and colors (dropped) applied. Tests assert the screen, not
 * the bytes: a progress line erased at the end leaves nothing, however it was drawn.
 *
 * @module
 */
import type { TerminalStream } from './progress-line.js';

/** A terminal as a stream (isTTY) whose screen can be read. */
export class FakeTerminal implements TerminalStream {
  readonly isTTY = true;
  readonly columns: number;
  readonly #rows: string[] = [''];
  #row = 0;
  #col = 0;

  constructor(columns = 80) {
    this.columns = columns;
  }

  write(text: string): boolean {
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (c === '\r') this.#col = 0;
      else if (c === '\n') {
        this.#row += 1;
        this.#col = 0;
        if (this.#rows.length <= this.#row) this.#rows.push('');
      } else if (c === '\u001b' && text[i + 1] === '[') {
        const end = text.slice(i + 2).search(/[A-Za-z]/);
        const command = text[i + 2 + end];
        if (command === 'K') this.#rows[this.#row] = this.#line().slice(0, this.#col);
        i += 2 + end;
      } else {
        const line = this.#line().padEnd(this.#col);
        this.#rows[this.#row] = `${line.slice(0, this.#col)}${c}${line.slice(this.#col + 1)}`;
        this.#col += 1;
      }
    }
    return true;
  }

  /** The screen's lines, the trailing empty ones left out. */
  screen(): string[] {
    const rows = this.#rows.map((r) => r.trimEnd());
    while (rows.length > 0 && rows.at(-1) === '') rows.pop();
    return rows;
  }

  #line(): string {
    return this.#rows[this.#row] ?? '';
  }
}
