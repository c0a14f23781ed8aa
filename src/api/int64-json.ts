/**
 * JSON that keeps int64 values exact (see docs/adr/0012-int64-numbers.md). `JSON.parse`
 * turns every number into a double, so `3546343826724305832` (a ControllerRevision's
 * `revision`, a Deployment revision) comes back as `3546343826724306000`; Go decodes it into an
 * int64 exactly. Here an integer literal beyond `Number.MAX_SAFE_INTEGER` (2^53 − 1) decodes
 * to a `bigint`, every other value as `JSON.parse` gives it, and the encoder writes a `bigint`
 * as plain digits.
 *
 * Cost: the decoder looks for 16 digits in a row first (2^53 has 16 digits; one regular
 * expression scan); without them it is `JSON.parse` itself. The encoder is `JSON.stringify`
 * until that throws on a `bigint`. So objects without huge integers pay about nothing.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';

/** A run of 16 digits: the shortest text of an integer beyond 2^53 − 1 (9007199254740991). */
const LONG_DIGITS = /\d{16}/;
/**
 * Stands for a `bigint` inside a string while `JSON.parse`/`JSON.stringify` run. U+0000 and a
 * per-process UUID make it a string no client can send (JSON escapes U+0000 as `\u0000`, and
 * a client does not know the UUID).
 */
const NONCE = randomUUID();
const MARK = `\u0000${NONCE}:`;
/** The mark as `JSON.stringify` writes it: `"\u0000<uuid>:<digits>"`. */
const ENCODED_MARK = new RegExp(`"\\\\u0000${NONCE}:(-?[0-9]+)"`, 'g');

/** `JSON.parse`, except that integers beyond 2^53 − 1 in magnitude become `bigint`s. */
export function parseJson(text: string): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text);
  const marked = markLargeIntegers(text);
  if (marked === undefined) return JSON.parse(text);
  try {
    return JSON.parse(marked, revive);
  } catch {
    // The text is not JSON: JSON.parse's own error for it, not one about the rewritten text.
    return JSON.parse(text);
  }
}

/** `JSON.stringify` of a JSON value whose integers may be `bigint`s (written as digits). */
export function stringifyJson(value: unknown, space?: number): string {
  try {
    return JSON.stringify(value, null, space);
  } catch (e) {
    // Only a bigint (or a cycle, which fails again below) makes JSON.stringify throw.
    if (!(e instanceof TypeError)) throw e;
  }
  const text = JSON.stringify(
    value,
    (_key, v: unknown) => (typeof v === 'bigint' ? `${MARK}${v}` : v),
    space,
  );
  return text.replace(ENCODED_MARK, '$1');
}

/** True when `v` is an integer as this codec decodes them (a safe integer or a `bigint`). */
export function isJsonInteger(v: unknown): v is number | bigint {
  return typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v));
}

function revive(_key: string, value: unknown): unknown {
  return typeof value === 'string' && value.startsWith(MARK)
    ? BigInt(value.slice(MARK.length))
    : value;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Characters of a JSON number token after its first: digits, `.`, `e`, `E`, `+`, `-`. */
function isNumberTail(c: number): boolean {
  return isDigit(c) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === MINUS;
}

/**
 * The text with every integer literal beyond 2^53 − 1 outside strings replaced by a marked
 * string; undefined when there is none (digits inside strings, or 16-digit safe integers).
 */
function markLargeIntegers(text: string): string | undefined {
  let out = '';
  let copied = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = afterString(text, i);
      continue;
    }
    if (c !== MINUS && !isDigit(c)) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < n && isNumberTail(text.charCodeAt(j))) j++;
    const token = text.slice(i, j);
    if (/^-?[0-9]{16,}$/.test(token) && !Number.isSafeInteger(Number(token))) {
      // Escaped: a raw U+0000 inside a JSON string is a syntax error.
      out += `${text.slice(copied, i)}"\\u0000${NONCE}:${token}"`;
      copied = j;
    }
    i = j;
  }
  return copied === 0 ? undefined : out + text.slice(copied);
}

/** The index after the string starting at `start` (its opening quote). */
function afterString(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i += 2;
    else if (c === QUOTE) return i + 1;
    else i++;
  }
  return i;
}
