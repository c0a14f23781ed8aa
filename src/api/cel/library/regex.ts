/**
 * Kubernetes regex library (upstream `k8s.io/apiserver/pkg/cel/library/regex.go`):
 * `find(regex)` returns the first match or `""`, `findAll(regex)` / `findAll(regex, limit)` all
 * non-overlapping matches. Patterns are RE2; the RE2 syntax JavaScript lacks that rules commonly
 * use (leading flag groups such as `(?i)`) is translated.
 *
 * @module
 */
import type { Environment } from '@marcbachmann/cel-js';
import { errorMessage } from '../../error-message.js';
import { chargeCost } from '../cost.js';
import { CelLibraryError } from './values-compare.js';

const cache = new Map<string, RegExp>();
const CACHE_LIMIT = 256;

/** An RE2 pattern as a global JavaScript RegExp, or an error naming the pattern. */
export function compileRe2(pattern: string): RegExp {
  const hit = cache.get(pattern);
  if (hit) return hit;
  let source = pattern;
  let flags = 'g';
  const lead = /^\(\?([imsU]+)\)/.exec(source);
  if (lead?.[1]) {
    source = source.slice(lead[0].length);
    for (const f of lead[1]) if ('ims'.includes(f) && !flags.includes(f)) flags += f;
  }
  let re: RegExp;
  try {
    re = new RegExp(source, flags);
  } catch (e) {
    throw new CelLibraryError(`error parsing regexp: ${errorMessage(e)}`);
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(pattern, re);
  return re;
}

export function find(s: string, pattern: string): string {
  chargeCost(s.length);
  const re = compileRe2(pattern);
  re.lastIndex = 0;
  return re.exec(s)?.[0] ?? '';
}

export function findAll(s: string, pattern: string, limit = -1n): string[] {
  chargeCost(s.length);
  if (limit === 0n) return [];
  const out: string[] = [];
  const re = compileRe2(pattern);
  re.lastIndex = 0;
  for (const m of s.matchAll(re)) {
    out.push(m[0]);
    if (limit > 0n && BigInt(out.length) >= limit) break;
  }
  return out;
}

export function registerRegex(env: Environment): void {
  env
    .registerFunction('string.find(string): string', find)
    .registerFunction('string.findAll(string): list<string>', (s: string, p: string) =>
      findAll(s, p),
    )
    .registerFunction('string.findAll(string, int): list<string>', findAll);
}
