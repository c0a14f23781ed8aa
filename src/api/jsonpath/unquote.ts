/**
 * Quoted strings in JSONPath templates (upstream `UnquoteExtend`): Go's `strconv.Unquote`
 * rules for both double and single quotes.
 *
 * @module
 */

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
};

/**
 * Upstream `UnquoteExtend`: Go's `strconv.Unquote` for double- and single-quoted strings
 * (`\n`, `\t`, `\xHH`, `\uHHHH`, `\UHHHHHHHH`, octal; the other quote may not be escaped).
 * `undefined` means invalid syntax.
 */
export function unquoteExtend(s: string): string | undefined {
  const quote = s[0];
  if (s.length < 2 || quote !== s.at(-1) || (quote !== '"' && quote !== "'")) return undefined;
  const body = s.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; ) {
    const c = body[i] ?? '';
    if (c === quote) return undefined;
    if (c !== '\\') {
      out += c;
      i += 1;
      continue;
    }
    const decoded = unquoteEscape(body, i + 1, quote);
    if (decoded === undefined) return undefined;
    out += decoded.text;
    i = decoded.next;
  }
  return out;
}

/** The escape sequence after a backslash at `at`; the other quote may not be escaped. */
function unquoteEscape(
  body: string,
  at: number,
  quote: string,
): { text: string; next: number } | undefined {
  const e = body[at] ?? '';
  const simple = SIMPLE_ESCAPES[e];
  if (simple !== undefined) return { text: simple, next: at + 1 };
  if (e === '"' || e === "'") return e === quote ? { text: e, next: at + 1 } : undefined;
  return unquoteNumeric(body, at);
}

function unquoteNumeric(body: string, at: number): { text: string; next: number } | undefined {
  const e = body[at] ?? '';
  const widths: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };
  const width = widths[e];
  if (width !== undefined) {
    const hex = body.slice(at + 1, at + 1 + width);
    if (!new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex)) return undefined;
    const code = Number.parseInt(hex, 16);
    if (e !== 'x' && (code > 0x10ffff || (code >= 0xd800 && code < 0xe000))) return undefined;
    // `\xHH` is a byte; bytes ≥ 0x80 alone are not valid UTF-8, shown as U+FFFD as Go would print them.
    const text = e === 'x' && code >= 0x80 ? '\ufffd' : String.fromCodePoint(code);
    return { text, next: at + 1 + width };
  }
  const oct = body.slice(at, at + 3);
  if (/^[0-7]{3}$/.test(oct) && Number.parseInt(oct, 8) <= 0xff) {
    const code = Number.parseInt(oct, 8);
    return { text: code >= 0x80 ? '\ufffd' : String.fromCharCode(code), next: at + 3 };
  }
  return undefined;
}
