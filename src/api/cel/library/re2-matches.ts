/**
 * CEL's standard `matches` with RE2 semantics, compiling the pattern with the same RE2
 * translation CRD `pattern`s use. cel-js implements `matches` with a bare JavaScript `RegExp`, so
 * RE2 spellings real CRDs use fail at runtime: gateway-api's Gateway listeners rule
 * `l.protocol.matches('(?i)^HTTPS$')` errors with "Invalid regular expression" on every object.
 * `go-semantics.ts` points the `matches` calls of compiled rules here.
 *
 * @module
 */
import { compileGoPattern, goRegexpError } from '../../schema/go-regexp.js';
import { chargeCost } from '../cost.js';
import { CelLibraryError } from './values-compare.js';

/** `s.matches(pattern)` as cel-go evaluates it (RE2, unanchored search). */
export function re2Matches(s: unknown, pattern: unknown): boolean {
  if (typeof s !== 'string' || typeof pattern !== 'string') {
    throw new CelLibraryError('no such overload: matches');
  }
  chargeCost(Math.ceil(s.length / 10) + 1);
  const compiled = compileGoPattern(pattern);
  if (!compiled.ok) {
    throw new CelLibraryError(
      goRegexpError(pattern) ??
        `error parsing regexp: invalid or unsupported Perl syntax: \`${pattern}\``,
    );
  }
  return compiled.regex.test(s);
}
