/**
 * Log lines for people: pino's JSON record as
 * `HH:MM:SS.mmm LEVEL component message key=value key=value`, the level colored, the
 * component bold, the keys dimmed, an error's stack below the line, indented.
 *
 * Colors come from Node's own `util.styleText` (Node ≥ 20.12), not pino-pretty: pino-pretty
 * pulls 13 packages into the CLI bundle, whose cold-start target is 250 ms, for what is ~150
 * lines here. Whether to color is decided once per logger ({@link colorsEnabled}: NO_COLOR,
 * FORCE_COLOR, a terminal), never by styleText itself (it would check stdout, and the logs
 * are on stderr).
 *
 * A human line costs ~7 µs more than the JSON line it is made from (~12 µs colored: formatted
 * twice, see below), measured over 50,000 access-log lines at debug level on a loaded 2-core
 * machine: the JSON line is parsed back, which pino's own formatting avoids.
 *
 * Every line still goes through the log redaction (util/log.ts): {@link humanStream} redacts
 * the JSON record before formatting it, then checks the finished text again, uncolored, so a
 * secret the JSON form hid (written with escapes) cannot surface once unescaped.
 *
 * @module
 */
import { styleText } from 'node:util';

export type LogFormat = 'json' | 'text';

/** How a human line looks. */
export interface LogStyle {
  /** ANSI colors (see {@link colorsEnabled}). */
  readonly colors: boolean;
  /** The clock shown: the machine's time zone (people) or UTC (tests). @default 'local' */
  readonly timeZone?: 'local' | 'utc';
  /**
   * Start each line by erasing the terminal line it lands on (`ESC[K`): a progress line
   * parked there (src/cli/terminal/progress-line.ts) is wiped rather than left behind the
   * end of a shorter log line. Only for a terminal.
   */
  readonly eraseLine?: boolean;
}

type Format = Parameters<typeof styleText>[0];

/** pino's numeric levels: the name shown (5 wide) and its color. */
const LEVELS: readonly (readonly [number, string, Format])[] = [
  [60, 'FATAL', ['bgRed', 'white', 'bold']],
  [50, 'ERROR', 'red'],
  [40, 'WARN ', 'yellow'],
  [30, 'INFO ', 'green'],
  [20, 'DEBUG', 'blue'],
  [10, 'TRACE', 'gray'],
];

/**
 * The fields shown before the message rather than as `key=value`: the logger's `component`
 * (createLogger's base), then the child bindings that narrow it (src/controller/manager.ts:
 * `controller`, `events`, `informers`, each a controller's name).
 */
const SCOPE_KEYS = ['controller', 'events', 'informers'] as const;
/** Written by pino itself, shown in their own place. */
const RECORD_KEYS = new Set(['level', 'time', 'msg', 'component', ...SCOPE_KEYS]);

/** Indent of a stack's and a multi-line message's further lines. */
const INDENT = '    ';
const ERASE_LINE = '\u001b[K';

/**
 * Whether to color, as Node decides for its own output (`tty.WriteStream.getColorDepth`):
 * `FORCE_COLOR` wins (`0`/`false`: off, anything else: on), then `NO_COLOR` (any non-empty
 * value, no-color.org) or `NODE_DISABLE_COLORS` turn colors off, as does `TERM=dumb`; else
 * colors exactly when the stream is a terminal.
 */
export function colorsEnabled(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if ((env.NO_COLOR ?? '') !== '' || env.NODE_DISABLE_COLORS !== undefined) return false;
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

/** `text` styled, or as is without colors. */
export function paint(colors: boolean, format: Format, text: string): string {
  // validateStream off: the caller has decided (styleText would look at stdout).
  return colors && text !== '' ? styleText(format, text, { validateStream: false }) : text;
}

/** One pino record (a parsed JSON line) as one human line, ending in `\n`. */
export function formatLogRecord(
  record: Readonly<Record<string, unknown>>,
  style: LogStyle,
): string {
  const { colors } = style;
  const head = [
    paint(colors, 'dim', timeOf(record.time, style.timeZone ?? 'local')),
    levelOf(record.level, colors),
  ];
  const scope = scopeOf(record);
  if (scope !== '') head.push(paint(colors, 'bold', scope));
  const [firstLine = '', ...moreLines] =
    typeof record.msg === 'string' ? record.msg.split('\n') : [];
  if (firstLine !== '') head.push(firstLine);
  const stacks: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (RECORD_KEYS.has(key) || value === undefined) continue;
    head.push(...fieldTexts(key, value, colors, stacks));
  }
  const below = [...moreLines, ...stacks.flatMap((s) => s.split('\n'))].map(
    (line) => `${INDENT}${paint(colors, 'dim', line.trimStart())}`,
  );
  const erase = style.eraseLine === true ? ERASE_LINE : '';
  return `${erase}${[head.join(' '), ...below].join('\n')}\n`;
}

/** `12:04:05.123`; dashes when pino's `time` is missing. */
function timeOf(time: unknown, zone: 'local' | 'utc'): string {
  if (typeof time !== 'number' && typeof time !== 'string') return '--:--:--.---';
  const d = new Date(time);
  if (Number.isNaN(d.getTime())) return String(time);
  const [h, m, s, ms] =
    zone === 'utc'
      ? [d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()]
      : [d.getHours(), d.getMinutes(), d.getSeconds(), d.getMilliseconds()];
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(h)}:${two(m)}:${two(s)}.${String(ms).padStart(3, '0')}`;
}

function levelOf(level: unknown, colors: boolean): string {
  const found = typeof level === 'number' ? LEVELS.find(([n]) => level >= n) : undefined;
  if (found === undefined) return String(level).toUpperCase().padEnd(5).slice(0, 5);
  return paint(colors, found[2], found[1]);
}

/**
 * `controller-manager/statefulset`: the component, then the controller the child logger is
 * for; `…/statefulset:events` for its event recorder, `…/informers` for the shared
 * informers (`…/name:informers` for a controller's own).
 */
function scopeOf(record: Readonly<Record<string, unknown>>): string {
  const parts = typeof record.component === 'string' ? [record.component] : [];
  for (const key of SCOPE_KEYS) {
    const value = record[key];
    if (typeof value !== 'string') continue;
    parts.push(key === 'controller' || value === key ? value : `${value}:${key}`);
  }
  return parts.join('/');
}

/**
 * `key=value` texts of one field; a serialized error (pino's `err`: type, message, stack)
 * is `key=message` plus its other fields as `key.code=…`, its stack pushed onto `stacks`.
 */
function fieldTexts(key: string, value: unknown, colors: boolean, stacks: string[]): string[] {
  const pair = (k: string, v: unknown): string => `${paint(colors, 'dim', `${k}=`)}${valueText(v)}`;
  if (!isSerializedError(value)) return [pair(key, value)];
  stacks.push(value.stack);
  const extra = Object.entries(value).filter(
    ([k, v]) => k !== 'type' && k !== 'message' && k !== 'stack' && v !== undefined,
  );
  return [pair(key, value.message), ...extra.map(([k, v]) => pair(`${key}.${k}`, v))];
}

interface SerializedError {
  readonly message: string;
  readonly stack: string;
}

function isSerializedError(value: unknown): value is SerializedError & Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    'message' in value &&
    typeof value.message === 'string' &&
    'stack' in value &&
    typeof value.stack === 'string'
  );
}

/** A value as `key=` shows it: a plain word as is, other strings quoted, the rest as JSON. */
function valueText(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=\\]+$/.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

/** What {@link humanStream} writes to and passes flushes through to (a pino destination). */
export interface LineSink {
  write(line: string): unknown;
  flush?(cb?: (err?: Error) => void): void;
  flushSync?(): void;
}

/**
 * A pino destination that writes each JSON line as a human line to `sink`. `redact` is the
 * log redaction (util/log.ts): applied to the JSON line first (its credential-shaped
 * `"token":"…"` rules), then to the finished text without colors; should that second pass
 * change anything, the redacted uncolored text is what is written.
 */
export function humanStream(
  sink: LineSink,
  style: LogStyle,
  redact: (text: string) => string,
): Required<LineSink> {
  return {
    write: (line: string) => sink.write(humanLine(line, style, redact)),
    flush: (cb?: (err?: Error) => void) => (sink.flush ? sink.flush(cb) : cb?.()),
    flushSync: () => sink.flushSync?.(),
  };
}

/** One JSON line (or several, should pino ever batch) as human lines, redacted. */
export function humanLine(line: string, style: LogStyle, redact: (text: string) => string): string {
  let out = '';
  for (const json of line.split('\n')) {
    if (json === '') continue;
    const safe = redact(json);
    const record = parseRecord(safe);
    if (record === undefined) {
      out += `${safe}\n`;
      continue;
    }
    const plain = formatLogRecord(record, { ...style, colors: false });
    const checked = redact(plain);
    if (checked !== plain) out += checked;
    else out += style.colors ? formatLogRecord(record, style) : plain;
  }
  return out;
}

function parseRecord(json: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(json);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? { ...parsed }
      : undefined;
  } catch {
    return undefined;
  }
}
