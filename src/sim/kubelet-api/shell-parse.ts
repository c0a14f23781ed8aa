/**
 * The grammar of the simulated containers' `sh`: words with single and double quotes,
 * backslash escapes, `$VAR`, `${VAR}` and `$?`; pipelines (`|`); lists (`;`, `&&`, `||`,
 * newlines); redirections (`>`, `>>`, `<`, `2>`, `2>>`, `2>&1`); `#` comments. No globs, no
 * subshells, no functions: enough for what people type into `kubectl exec` and what kubectl
 * itself runs (`tar cf - x | tail -c+1`).
 *
 * @module
 */

/** A piece of a word: literal text, or a variable expanded when the command runs. */
export type Segment = { readonly text: string } | { readonly variable: string };
export type Word = readonly Segment[];

export interface Redirect {
  readonly fd: 0 | 1 | 2;
  readonly op: '>' | '>>' | '<' | '>&1';
  readonly target: Word;
}

export interface SimpleCommand {
  readonly words: readonly Word[];
  readonly redirects: readonly Redirect[];
}

/** Commands joined by `|`. */
export type Pipeline = readonly SimpleCommand[];

/** A pipeline and how it joins the one before it. */
export interface ListItem {
  readonly join: ';' | '&&' | '||';
  readonly pipeline: Pipeline;
}

type Token = { readonly word: Word } | { readonly op: string };

export class ShellSyntaxError extends Error {}

const OPERATORS = ['2>&1', '2>>', '&&', '||', '>>', '2>', ';', '|', '>', '<', '\n'];

/** Splits a script into words and operators, one character class at a time. */
class Tokenizer {
  readonly #s: string;
  #i = 0;
  #word: Segment[] | undefined;
  readonly tokens: Token[] = [];

  constructor(script: string) {
    this.#s = script;
  }

  run(): Token[] {
    while (this.#i < this.#s.length) this.#step(this.#s[this.#i]!);
    this.#endWord();
    return this.tokens;
  }

  #step(c: string): void {
    if (c === ' ' || c === '\t') {
      this.#endWord();
      this.#i++;
    } else if (c === '#' && this.#word === undefined) {
      const end = this.#s.indexOf('\n', this.#i);
      this.#i = end < 0 ? this.#s.length : end;
    } else if (c === "'") this.#singleQuoted();
    else if (c === '"') this.#doubleQuoted();
    else if (c === '\\') {
      const next = this.#s[this.#i + 1];
      if (next !== undefined && next !== '\n') this.#text(next);
      this.#i += 2;
    } else if (c === '$') this.#variable();
    else this.#operatorOrText(c);
  }

  #text(t: string): void {
    this.#word ??= [];
    const last = this.#word[this.#word.length - 1];
    if (last !== undefined && 'text' in last)
      this.#word[this.#word.length - 1] = { text: last.text + t };
    else this.#word.push({ text: t });
  }

  #endWord(): void {
    if (this.#word !== undefined) this.tokens.push({ word: this.#word });
    this.#word = undefined;
  }

  #singleQuoted(): void {
    const end = this.#s.indexOf("'", this.#i + 1);
    if (end < 0) throw new ShellSyntaxError('Unterminated quoted string');
    this.#text(this.#s.slice(this.#i + 1, end));
    this.#i = end + 1;
  }

  /** `"…"`: `$` expands; a backslash escapes only `"`, `\\`, `$` and a backquote. */
  #doubleQuoted(): void {
    this.#i++;
    this.#text('');
    while (this.#i < this.#s.length && this.#s[this.#i] !== '"') {
      const d = this.#s[this.#i]!;
      const next = this.#s[this.#i + 1];
      if (d === '\\' && next !== undefined && '"\\$`'.includes(next)) {
        this.#text(next);
        this.#i += 2;
      } else if (d === '$') this.#variable();
      else {
        this.#text(d);
        this.#i++;
      }
    }
    if (this.#i >= this.#s.length) throw new ShellSyntaxError('Unterminated quoted string');
    this.#i++;
  }

  #variable(): void {
    const m = /^(\?|[A-Za-z_][A-Za-z0-9_]*|\{[A-Za-z_][A-Za-z0-9_]*\})/.exec(
      this.#s.slice(this.#i + 1),
    );
    if (m === null) {
      this.#text('$');
      this.#i++;
      return;
    }
    this.#word ??= [];
    this.#word.push({ variable: m[1]!.replace(/^\{|\}$/g, '') });
    this.#i += 1 + m[1]!.length;
  }

  /** An operator, unless it is a `2` inside a word (`a2>x` is the word `a2`, then `>`). */
  #operatorOrText(c: string): void {
    const inWord = this.#word !== undefined;
    const op =
      inWord && c === '2' ? undefined : OPERATORS.find((o) => this.#s.startsWith(o, this.#i));
    if (op === undefined) {
      this.#text(c);
      this.#i++;
      return;
    }
    this.#endWord();
    this.tokens.push({ op });
    this.#i += op.length;
  }
}

function tokenize(script: string): Token[] {
  return new Tokenizer(script).run();
}

/** A redirection operator and the word after it. */
function redirectOf(op: string, target: Token | undefined): Redirect {
  if (target === undefined || !('word' in target)) {
    throw new ShellSyntaxError('syntax error: unexpected newline');
  }
  const fd = op.startsWith('2') ? 2 : op === '<' ? 0 : 1;
  return { fd, op: op.endsWith('>>') ? '>>' : op === '<' ? '<' : '>', target: target.word };
}

/** Builds the list as tokens arrive: words into commands, commands into pipelines. */
class ListBuilder {
  readonly items: ListItem[] = [];
  #join: ListItem['join'] = ';';
  #pipeline: SimpleCommand[] = [];
  words: Word[] = [];
  redirects: Redirect[] = [];

  endCommand(op: string): void {
    if (this.words.length === 0 && this.redirects.length === 0) {
      if (op === ';' || op === '\n') return;
      throw new ShellSyntaxError(`syntax error: unexpected "${op}"`);
    }
    this.#pipeline.push({ words: this.words, redirects: this.redirects });
    this.words = [];
    this.redirects = [];
  }

  endPipeline(op: string, next: ListItem['join']): void {
    this.endCommand(op);
    if (this.#pipeline.length > 0) this.items.push({ join: this.#join, pipeline: this.#pipeline });
    else if (op !== ';' && op !== '\n')
      throw new ShellSyntaxError(`syntax error: unexpected "${op}"`);
    this.#pipeline = [];
    this.#join = next;
  }

  /** A list cannot end after `&&` or `||`. */
  finish(): ListItem[] {
    if (this.#join !== ';' && this.words.length === 0 && this.#pipeline.length === 0) {
      throw new ShellSyntaxError('syntax error: unexpected end of file');
    }
    this.endPipeline(';', ';');
    return this.items;
  }
}

/** Parses a script into its list; throws {@link ShellSyntaxError}. */
export function parseScript(script: string): ListItem[] {
  const tokens = tokenize(script);
  const list = new ListBuilder();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if ('word' in t) list.words.push(t.word);
    else if (t.op === ';' || t.op === '\n') list.endPipeline(t.op, ';');
    else if (t.op === '&&' || t.op === '||') list.endPipeline(t.op, t.op);
    else if (t.op === '|') list.endCommand('|');
    else if (t.op === '2>&1') list.redirects.push({ fd: 2, op: '>&1', target: [] });
    else list.redirects.push(redirectOf(t.op, tokens[++i]));
  }
  return list.finish();
}

/** A word's text, variables looked up in `lookup`. */
export function expandWord(word: Word, lookup: (name: string) => string): string {
  return word.map((s) => ('text' in s ? s.text : lookup(s.variable))).join('');
}
