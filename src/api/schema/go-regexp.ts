/**
 * `pattern` in CRD schemas is a Go RE2 expression (upstream compiles it with `regexp.Compile`).
 * ECMAScript agrees on the patterns people write (`^[a-z0-9-]+$`, `^(Always|Never)$`), so this
 * translates the few RE2 spellings JavaScript lacks and rejects the Perl features RE2 lacks.
 *
 * Differences that remain (documented deviations):
 * - RE2 rejects lookaround and backreferences; we detect them and report Go's error text.
 * - Inline flag groups other than a leading `(?i)`/`(?s)`/`(?m)` (e.g. `a(?i:b)`) cannot be
 *   expressed on Node 20: such a pattern is accepted at CRD creation and not enforced.
 * - RE2 is leftmost-first like ECMAScript, so match results agree; RE2's linear-time guarantee
 *   does not carry over (a pathological pattern can backtrack).
 *
 * @module
 */

export type CompiledPattern =
  | { readonly ok: true; readonly regex: RegExp }
  | { readonly ok: false; readonly goError: string | undefined };

const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

/** RE2 constructs ECMAScript accepts but Go does not, with Go's error wording. */
const UNSUPPORTED: ReadonlyArray<readonly [RegExp, (m: string) => string]> = [
  [/\(\?<?[=!]/, (m) => `invalid or unsupported Perl syntax: \`${m}\``],
  [/(?<!\\)\\[1-9]/, (m) => `invalid escape sequence: \`${m}\``],
  [/(?<!\\)\\k</, () => 'invalid escape sequence: `\\k`'],
];

/** Go's `regexp.Compile` verdict for `pattern`, or undefined when it compiles. */
export function goRegexpError(pattern: string): string | undefined {
  for (const [re, message] of UNSUPPORTED) {
    const m = re.exec(pattern);
    if (m) return `error parsing regexp: ${message(m[0])}`;
  }
  const compiled = compileGoPattern(pattern);
  return compiled.ok ? undefined : compiled.goError;
}

const cache = new Map<string, CompiledPattern>();

/** Compiles a Go RE2 pattern for use in JavaScript (cached; schemas are reused per request). */
export function compileGoPattern(pattern: string): CompiledPattern {
  const hit = cache.get(pattern);
  if (hit) return hit;
  const result = compileUncached(pattern);
  if (cache.size > 1000) cache.clear();
  cache.set(pattern, result);
  return result;
}

function compileUncached(pattern: string): CompiledPattern {
  if (UNSUPPORTED.some(([re]) => re.test(pattern))) return { ok: false, goError: undefined };
  const { source, flags } = translate(pattern);
  if (/\(\?[a-zA-Z-]*[:)]/.test(source)) return { ok: false, goError: undefined };
  for (const extra of ['u', '']) {
    try {
      return { ok: true, regex: new RegExp(source, flags + extra) };
    } catch {
      // Try the next flag set: `u` rejects identity escapes RE2 allows (`\-` outside a class).
    }
  }
  return { ok: false, goError: describeSyntaxError(pattern) };
}

/** Rewrites RE2-only spellings into ECMAScript. */
function translate(pattern: string): { source: string; flags: string } {
  let source = pattern;
  let flags = '';
  const lead = /^\(\?([ims]+)\)/.exec(source);
  if (lead?.[1]) {
    flags = [...new Set(lead[1])].join('');
    source = source.slice(lead[0].length);
  }
  source = source.replace(/\\Q(.*?)(?:\\E|$)/g, (_m, lit: string) =>
    lit.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'),
  );
  source = source.replace(/\[:(\^?)([a-z]+):\]/g, (m, neg: string, name: string) => {
    const cls = POSIX_CLASSES[name];
    if (cls === undefined) return m;
    return neg ? `^${cls}` : cls;
  });
  source = source
    .replace(/\(\?P</g, '(?<')
    .replace(/\\z/g, '$')
    .replace(/\\A/g, '^')
    .replace(/\\([pP])([A-Za-z])/g, '\\$1{$2}');
  return { source, flags };
}

/** Go's wording for the common syntax errors (unbalanced groups and classes, bare repeats). */
function describeSyntaxError(pattern: string): string {
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
    } else if (c === '(') {
      depth++;
    } else if (c === ')') {
      if (depth === 0) return `error parsing regexp: unexpected ): \`${pattern}\``;
      depth--;
    }
  }
  if (inClass)
    return `error parsing regexp: missing closing ]: \`${pattern.slice(pattern.lastIndexOf('['))}\``;
  if (depth > 0) return `error parsing regexp: missing closing ): \`${pattern}\``;
  const repeat = /^[*+?]|[(|][*+?]/.exec(pattern);
  if (repeat) {
    return `error parsing regexp: missing argument to repetition operator: \`${repeat[0].slice(-1)}\``;
  }
  return `error parsing regexp: invalid syntax: \`${pattern}\``;
}
