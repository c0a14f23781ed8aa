/**
 * Compile errors in cel-go's display form, which upstream puts after `compilation failed: `:
 *
 * ```
 * ERROR: <input>:1:5: undefined field 'foo'
 *  | self.foo
 *  | ....^
 * ```
 *
 * Line and column are 1-based; the column counts code points; the marker line uses a dot per
 * character before the error (a wide dot for multi-byte ones, as cel-go does). cel-js messages
 * are translated to cel-go's wording where the two differ in a way users match on.
 *
 * @module
 */
import { isJsonObject, type JsonObject } from '../object.js';
import type { LocatedIssue } from './field-check.js';

const WIDE_DOT = '\uff0e';
const WIDE_HAT = '\uff3e';

/** One issue as cel-go's `Error.ToDisplayString`. */
export function displayIssue(input: string, issue: LocatedIssue): string {
  const offset = Math.max(0, Math.min(issue.offset, input.length));
  const before = input.slice(0, offset);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const lineEnd = input.indexOf('\n', lineStart);
  const snippet = input.slice(lineStart, lineEnd < 0 ? undefined : lineEnd).replaceAll('\t', ' ');
  const prefix = [...input.slice(lineStart, offset)];
  let marker = '';
  for (const ch of prefix) marker += Buffer.byteLength(ch) > 1 ? WIDE_DOT : '.';
  const at = input.slice(offset).codePointAt(0);
  marker += at !== undefined && at > 0x7f ? WIDE_HAT : '^';
  return `ERROR: <input>:${line}:${prefix.length + 1}: ${issue.message}\n | ${snippet}\n | ${marker}`;
}

/** Several issues, one after the other, as cel-go's `Issues.String()`. */
export function displayIssues(input: string, issues: readonly LocatedIssue[]): string {
  const sorted = [...issues].sort((a, b) => a.offset - b.offset);
  return sorted.map((i) => displayIssue(input, i)).join('\n');
}

/**
 * A cel-js parse or type error as a located issue with cel-go's wording where it differs. The
 * error's `summary`, `message`, `name`, `range.start` and `node.pos` are read when they have
 * their types (a cel-js error has each where it applies).
 */
export function issueFromCelJs(err: unknown): LocatedIssue {
  const e: JsonObject = isJsonObject(err) ? err : {};
  const text = stringOf(e.summary) ?? firstLine(stringOf(e.message) ?? String(err));
  const offset = numberOf(objectOf(e.range).start) ?? numberOf(objectOf(e.node).pos) ?? 0;
  return { offset, message: translate(text, e.name === 'ParseError') };
}

const NO_FIELDS: JsonObject = {};

function objectOf(v: unknown): JsonObject {
  return isJsonObject(v) ? v : NO_FIELDS;
}

function stringOf(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function numberOf(v: unknown): number | undefined {
  return typeof v === 'number' ? v : undefined;
}

function firstLine(s: string): string {
  return s.split('\n')[0] ?? s;
}

function translate(text: string, isParse: boolean): string {
  const unknownVar = /^Unknown variable: (.+)$/.exec(text);
  if (unknownVar) return `undeclared reference to '${unknownVar[1]}' (in container '')`;
  const overload = /^found no matching overload for '(.+)'$/.exec(text);
  if (overload) return `found no matching overload for '${overload[1]}'`;
  return isParse ? `Syntax error: ${text}` : text;
}
