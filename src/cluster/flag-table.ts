/**
 * A command's flags as data, one row each: what `parseArgs` reads (`type`, `multiple`,
 * `default`), the value's placeholder, the allowed values, a line of help and, where the
 * docs say more, a longer text. From one table come the parser's options (the table is
 * passed to `parseArgs` as is: it ignores the other fields), the defaults, the `--help`
 * text ({@link flagUsage}) and the docs' flag table ({@link flagDocTable}), so a default is
 * written once. Help is written with `code` in backticks: kept in the docs, dropped in the
 * terminal.
 *
 * Here rather than in src/cli/: `fleetyard up`'s table sits beside its parser in
 * src/cluster/, which src/cli/ imports and the test harness uses without the CLI.
 *
 * @module
 */
import type { ParseArgsConfig } from 'node:util';
import { formatGoDuration } from '../sim/kubelet/annotations.js';

type ParseArgsOption = NonNullable<ParseArgsConfig['options']>[string];

/** One flag. The key of its row in a {@link FlagTable} is its name, without `--`. */
export interface FlagSpec extends ParseArgsOption {
  /** The value's placeholder in usage and docs (`N`, `DIR`, `real|virtual`); none: bare. */
  readonly value?: string;
  /** One line: what the flag does. `code` in backticks. */
  readonly help: string;
  /** More, for the docs' table only (after `help`). */
  readonly doc?: string;
  /**
   * The default as shown, when it is not `default` as typed (applied elsewhere, or computed):
   * a value in backticks (`` `10000` ``) or prose (`the current one`).
   */
  readonly defaultText?: string;
  /** The values allowed, in the order the refusal lists them. */
  readonly choices?: readonly string[];
  /** A string flag read as Go's strconv.ParseBool (bare: true); usage shows no default false. */
  readonly goBool?: boolean;
  /** Parsed but not listed (`--help` itself). */
  readonly hidden?: boolean;
}

export type FlagTable = Readonly<Record<string, FlagSpec>>;

/** How the usage text is laid out: help starts at `column`, lines end by `width`. */
export interface UsageLayout {
  readonly column: number;
  readonly width: number;
}

/** The `--flag VALUE` a row documents. */
export function flagSyntax(name: string, spec: FlagSpec): string {
  return spec.value === undefined ? `--${name}` : `--${name} ${spec.value}`;
}

/**
 * The default as the docs show it: `defaultText`; else `default` in backticks; `off` for a
 * boolean that is false; undefined when there is none.
 */
export function shownDefault(spec: FlagSpec): string | undefined {
  if (spec.defaultText !== undefined) return spec.defaultText;
  const value = spec.default;
  if (value === undefined || value === '' || Array.isArray(value)) return undefined;
  if (value === false || (spec.goBool === true && value === 'false')) return 'off';
  if (value === true) return 'on';
  return `\`${value}\``;
}

/**
 * The default as `--help` shows it, after the help, as words to wrap: `(default 6443)` for a
 * value (one word: a line never ends in `(default`), `(default: the current one)` for prose;
 * none for an off switch or no default.
 */
function usageDefault(spec: FlagSpec): string[] {
  const shown = shownDefault(spec);
  if (shown === undefined || shown === 'off') return [];
  if (shown.startsWith('`')) return [`(default ${plain(shown)})`];
  const [first = '', ...rest] = words(`${plain(shown)})`);
  return [`(default: ${first}`, ...rest];
}

/** Backticks dropped: the terminal's form of a help text. */
function plain(text: string): string {
  return text.replaceAll('`', '');
}

/**
 * The options part of a `--help` text: each listed row as `  --flag VALUE` and its help
 * (with the default) wrapped at `layout.width` from `layout.column`; a flag too long for the
 * column has its help on the lines below it. Ends with a newline.
 */
export function flagUsage(table: FlagTable, layout: UsageLayout): string {
  const lines: string[] = [];
  const indent = ' '.repeat(layout.column);
  for (const [name, spec] of Object.entries(table)) {
    if (spec.hidden === true) continue;
    const head = `  ${flagSyntax(name, spec)}`;
    const help = wrap(
      [...words(plain(spec.help)), ...usageDefault(spec)],
      layout.width - layout.column,
    );
    if (head.length + 1 > layout.column) lines.push(head);
    else lines.push(head.padEnd(layout.column) + (help.shift() ?? ''));
    for (const line of help) lines.push(indent + line);
  }
  return `${lines.join('\n')}\n`;
}

function words(text: string): string[] {
  return text.split(/\s+/).filter((w) => w !== '');
}

/** `words` in lines of at most `width` characters (a longer word has a line of its own). */
export function wrap(words: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** The docs' table of the listed rows: Flag, Default, Meaning (GitHub Markdown). */
export function flagDocTable(table: FlagTable): string {
  const rows = ['| Flag | Default | Meaning |', '|---|---|---|'];
  for (const [name, spec] of Object.entries(table)) {
    if (spec.hidden === true) continue;
    const meaning = spec.doc === undefined ? spec.help : `${spec.help}. ${spec.doc}`;
    const cells = [`\`${flagSyntax(name, spec)}\``, shownDefault(spec) ?? '—', meaning];
    rows.push(`| ${cells.map(cell).join(' | ')} |`);
  }
  return `${rows.join('\n')}\n`;
}

/** A table cell: `|` escaped (also inside code spans, as GitHub's tables need). */
function cell(text: string): string {
  return text.replaceAll('|', '\\|');
}

/** Whether `value` is one of `choices`, narrowing it to their type. */
export function isOneOf<T extends string>(choices: readonly T[], value: string): value is T {
  return choices.some((c) => c === value);
}

/** `a, b or c`: the choices as a refusal lists them. */
export function orList(choices: readonly string[]): string {
  if (choices.length < 2) return choices.join('');
  return `${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}`;
}

/** A whole-second Go duration without its zero tail: 600 000 ms is `10m`, 50 000 ms `50s`. */
export function goDurationText(ms: number): string {
  return formatGoDuration(ms)
    .replace(/([hm])0s$/, '$1')
    .replace(/h0m$/, 'h');
}
