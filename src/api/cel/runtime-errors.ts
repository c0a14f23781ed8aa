/**
 * Evaluation errors in cel-go's words, since upstream embeds them in field errors
 * (`no such key: foo evaluating rule: …`): cel-js says `No such key: foo`, cel-go says
 * `no such key: foo`, and so on for the errors rules commonly hit.
 *
 * @module
 */

const REWRITES: readonly (readonly [RegExp, string])[] = [
  [/^No such key: index out of bounds, index (-?\d+) .*$/, 'index out of bounds: $1'],
  [/^No such key: (.*)$/, 'no such key: $1'],
  [/^integer overflow.*$/, 'integer overflow'],
  [/^Unsigned integer overflow$/, 'unsigned integer overflow'],
  [/^modulo by zero$/, 'modulus by zero'],
  [/^Optional value is not present$/, 'optional.none() dereference'],
  [/^(?:no such overload|found no matching overload)\b.*$/, 'no such overload'],
];

/** The message of an evaluation error as cel-go would word it. */
export function celGoErrorText(err: unknown): string {
  const raw = err instanceof Error ? err.message : String(err);
  const first = raw.split('\n')[0] ?? raw;
  for (const [re, replacement] of REWRITES)
    if (re.test(first)) return first.replace(re, replacement);
  return first;
}
