/**
 * Nesting-depth limits for request bodies, checked before anything walks them recursively.
 *
 * Two limits:
 * - {@link MAX_DECODE_DEPTH} (10,000) is upstream's: Go's JSON scanner (`encoding/json` and
 *   sigs.k8s.io/json, `maxNestingDepth`) refuses the 10,001st nested `{`/`[` with `invalid
 *   character '{' exceeded max depth`, and go-yaml refuses a deeper flow level with `exceeded
 *   max depth of 10000`. Past it we answer with upstream's text.
 * - {@link MAX_OBJECT_DEPTH} (500) is this server's: Go's stacks grow, V8's do not. With
 *   Node's default ~984 KB stack, V8's own `JSON.stringify` (how every object is stored)
 *   overflows near 4,100 levels, `structuredClone` near 1,900, the yaml package's composer
 *   near 800 and server-side apply's managed-fields walk near 1,300 (measured on Node 20, cold
 *   code). A stack overflow inside a lazily compiled RegExp even aborts the process (`FATAL
 *   ERROR: RegExpCompiler Allocation failed`), so overflowing and catching the RangeError is
 *   not an option: bodies nested deeper than 500 levels are refused up front (400), with a
 *   margin of 1.6x to the shallowest overflow measured. Real objects nest a few dozen levels.
 *
 * Both checks are iterative and never recurse themselves.
 *
 * @module
 */

/** Upstream's `maxNestingDepth` (Go's JSON scanner) and go-yaml's `max_flow_level`. */
export const MAX_DECODE_DEPTH = 10_000;

/** The deepest body this server processes (see the module comment for why 500). */
export const MAX_OBJECT_DEPTH = 500;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/** What a depth scan found: the deepest nesting seen, and the opener that went past a limit. */
export interface DepthScan {
  /** Deepest nesting seen, counting stops one past `stopAfter`. */
  readonly depth: number;
  /** The bracket that went past `stopAfter` (`{` or `[`), when it did. */
  readonly opener?: '{' | '[';
}

/**
 * The nesting depth of JSON text, counting `{` and `[` outside strings, in one pass and
 * without parsing; it stops at the first bracket past `stopAfter`. Malformed text gets a
 * number too (JSON.parse reports its syntax later).
 */
export function jsonTextDepth(text: string, stopAfter = MAX_DECODE_DEPTH): DepthScan {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = endOfString(text, i);
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
      if (depth > max) max = depth;
      if (depth > stopAfter) return { depth, opener: c === OPEN_OBJECT ? '{' : '[' };
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  return { depth: max };
}

/** The index of the quote closing the string opened at `start` (or the text's end). */
function endOfString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i;
  }
  return text.length;
}

/** An object or array of a decoded JSON value. */
export type Container = Record<string, unknown> | unknown[];

export function isContainer(v: unknown): v is Container {
  return typeof v === 'object' && v !== null;
}

/** The values an object or array holds, in order. */
export function childrenOf(node: Container): unknown[] {
  return Array.isArray(node) ? node : Object.values(node);
}

/**
 * The nesting depth of a decoded value (objects and arrays count one level each), walked
 * with an explicit stack; it stops once past `stopAfter`. Values shared by several parents
 * (YAML aliases) are walked again only when reached deeper than before.
 */
export function valueDepth(value: unknown, stopAfter = MAX_DECODE_DEPTH): number {
  let max = 0;
  const seenAt = new Map<object, number>();
  const stack: Array<[unknown, number]> = [[value, 1]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [node, depth] = entry;
    if (!isContainer(node)) continue;
    const before = seenAt.get(node);
    if (before !== undefined && before >= depth) continue;
    seenAt.set(node, depth);
    if (depth > max) max = depth;
    if (max > stopAfter) return max;
    for (const child of childrenOf(node)) {
      if (isContainer(child)) stack.push([child, depth + 1]);
    }
  }
  return max;
}

/** Upstream's scanner text for a body past 10,000 levels (Go's `SyntaxError`). */
export function upstreamDepthError(opener: '{' | '[' = '{'): string {
  return `invalid character '${opener}' exceeded max depth`;
}

/** Our text for a body past {@link MAX_OBJECT_DEPTH} levels but within upstream's limit. */
export function objectDepthError(what = 'the object'): string {
  return `${what} is nested more than ${MAX_OBJECT_DEPTH} levels deep, the most this server processes (upstream's decoder allows ${MAX_DECODE_DEPTH})`;
}

/**
 * Why JSON text may not be decoded (upstream's text past 10,000 levels, ours past 500), or
 * undefined when its depth is fine.
 */
export function jsonDepthProblem(text: string, what?: string): string | undefined {
  const scan = jsonTextDepth(text);
  if (scan.opener !== undefined) return upstreamDepthError(scan.opener);
  return scan.depth > MAX_OBJECT_DEPTH ? objectDepthError(what) : undefined;
}

/** {@link jsonDepthProblem} for a decoded value (YAML, protobuf, a patched object). */
export function valueDepthProblem(value: unknown, what?: string): string | undefined {
  const depth = valueDepth(value);
  if (depth > MAX_DECODE_DEPTH) return upstreamDepthError();
  return depth > MAX_OBJECT_DEPTH ? objectDepthError(what) : undefined;
}
