/**
 * The cel-go `ext.Strings` functions cel-js lacks, at the version Kubernetes enables:
 * `charAt`, `replace` (all or the first n), `format` and `strings.quote`. cel-js already has
 * `indexOf`, `lastIndexOf`, `lowerAscii`, `upperAscii`, `split`, `substring`, `trim` and `join`.
 * Also `string(duration)` and `string(timestamp)`, which cel-js lacks.
 *
 * @module
 */
import type { Environment } from '@marcbachmann/cel-js';
import type { Duration } from '@marcbachmann/cel-js/evaluator';
import { chargeCost } from '../cost.js';
import { durationText, timestampText } from './format-value.js';
import { formatString } from './string-format.js';
import { CelLibraryError } from './values-compare.js';

export function charAt(s: string, index: bigint): string {
  const chars = [...s];
  if (index < 0n || index > BigInt(chars.length)) {
    throw new CelLibraryError(`index out of range: ${index}`);
  }
  return chars[Number(index)] ?? '';
}

export function replace(s: string, from: string, to: string, n = -1n): string {
  chargeCost(s.length);
  if (n === 0n) return s;
  if (from === '') {
    // Go's strings.Replace: an empty `from` matches before every character and at the end.
    const chars = [...s];
    let out = '';
    for (let i = 0; i <= chars.length; i++) {
      if (n < 0n || BigInt(i) < n) out += to;
      out += chars[i] ?? '';
    }
    return out;
  }
  if (n < 0n) return s.split(from).join(to);
  let out = '';
  let rest = s;
  for (let i = 0n; i < n; i++) {
    const at = rest.indexOf(from);
    if (at < 0) break;
    out += rest.slice(0, at) + to;
    rest = rest.slice(at + from.length);
  }
  return out + rest;
}

const QUOTE_ESCAPES: Readonly<Record<string, string>> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '\\': '\\\\',
  '"': '\\"',
};

/** `strings.quote`: a double-quoted CEL string literal. */
export function quote(s: string): string {
  let out = '"';
  for (const ch of s) out += QUOTE_ESCAPES[ch] ?? ch;
  return `${out}"`;
}

class StringsNamespace {}

export function registerStrings(env: Environment): void {
  env
    .registerFunction('string.charAt(int): string', charAt)
    .registerFunction('string.replace(string, string): string', (s: string, a: string, b: string) =>
      replace(s, a, b),
    )
    .registerFunction('string.replace(string, string, int): string', replace)
    .registerFunction('string.format(list<dyn>): string', (s: string, args: unknown[]) => {
      chargeCost(s.length + args.length);
      return formatString(s, args);
    })
    .registerType('StringsNamespace', StringsNamespace)
    .registerConstant('strings', 'StringsNamespace', new StringsNamespace())
    .registerFunction('StringsNamespace.quote(string): string', (_ns: unknown, s: string) =>
      quote(s),
    )
    .registerFunction('string(google.protobuf.Duration): string', (d: Duration) => durationText(d))
    .registerFunction('string(google.protobuf.Timestamp): string', (t: Date) => timestampText(t));
}
