/**
 * What a terminal's line discipline does for `kubectl exec -it … sh` on a simulated
 * container: echo what is typed, erase on backspace, `^C` drops the line, `^D` on an empty line
 * ends the input, escape sequences (arrow keys) are dropped; a line is handed over when Enter
 * (`\r`, or `\n` without a terminal) completes it. Without a terminal nothing is echoed.
 *
 * @module
 */

/** What one typed character does. */
export type Keystroke = { readonly line: string } | { readonly eof: true } | undefined;

export class LineEditor {
  readonly #echo: (text: string) => void;
  readonly #tty: boolean;
  #line = '';
  #inEscape = false;

  constructor(tty: boolean, echo: (text: string) => void) {
    this.#tty = tty;
    this.#echo = (text) => {
      if (tty) echo(text);
    };
  }

  /** What is typed but not yet entered. */
  get pending(): string {
    return this.#line;
  }

  type(ch: string): Keystroke {
    if (this.#inEscape) {
      // ESC [ … letter: the sequence ends at its final letter (or `~`).
      if (/[A-Za-z~]/.test(ch)) this.#inEscape = false;
      return undefined;
    }
    switch (ch) {
      case '\r':
      case '\n': {
        this.#echo('\n');
        const line = this.#line;
        this.#line = '';
        return { line };
      }
      case '\x7f':
      case '\b':
        if (this.#line !== '') {
          this.#line = this.#line.slice(0, -1);
          this.#echo('\b \b');
        }
        return undefined;
      case '\x03':
        this.#echo('^C\n');
        this.#line = '';
        return this.#tty ? { line: '' } : undefined;
      case '\x04':
        return this.#line === '' ? { eof: true } : undefined;
      case '\x1b':
        this.#inEscape = true;
        return undefined;
      default:
        if (ch >= ' ' || ch === '\t') {
          this.#line += ch;
          this.#echo(ch);
        }
        return undefined;
    }
  }
}
