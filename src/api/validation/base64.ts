/**
 * Go's `base64.StdEncoding.Decode` as `encoding/json` uses it for `[]byte` fields (Secret
 * `data`, ConfigMap `binaryData`): padding required, `\r` and `\n` skipped, and the same
 * `illegal base64 data at input byte N` position on failure.
 *
 * @module
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The decoded length, or Go's error text. */
export type Base64Result = { ok: true; bytes: number } | { ok: false; error: string };

function corrupt(at: number): Base64Result {
  return { ok: false, error: `illegal base64 data at input byte ${at}` };
}

function isNewline(c: string | undefined): boolean {
  return c === '\n' || c === '\r';
}

/** Skips newlines from `si`; returns the new index. */
function skipNewlines(src: string, si: number): number {
  let i = si;
  while (i < src.length && isNewline(src[i])) i++;
  return i;
}

type Step = { si: number; n: number; done: boolean } | Base64Result;

/** After a `=` at quantum position `j` (read up to `si`): the second `=` and trailing garbage. */
function padding(src: string, start: number, j: number): Step {
  let si = start;
  if (j < 2) return corrupt(si - 1);
  if (j === 2) {
    si = skipNewlines(src, si);
    if (si === src.length) return corrupt(src.length);
    if (src[si] !== '=') return corrupt(si - 1);
    si++;
  }
  si = skipNewlines(src, si);
  if (si < src.length) return corrupt(si);
  return { si, n: j - 1, done: true };
}

/** Decodes one quantum starting at `start`: its new index and decoded length, or an error. */
function quantum(src: string, start: number): Step {
  let si = start;
  for (let j = 0; j < 4; j++) {
    if (si === src.length) return j === 0 ? { si, n: 0, done: true } : corrupt(si - j);
    const c = src[si] ?? '';
    si++;
    if (ALPHABET.includes(c)) continue;
    if (isNewline(c)) {
      j--;
      continue;
    }
    return c === '=' ? padding(src, si, j) : corrupt(si - 1);
  }
  return { si, n: 3, done: false };
}

/** Decodes `src` for validity; on success returns the decoded length in bytes. */
export function decodeBase64Length(src: string): Base64Result {
  let si = 0;
  let bytes = 0;
  for (;;) {
    const q = quantum(src, si);
    if ('ok' in q) return q;
    bytes += q.n;
    if (q.done) return { ok: true, bytes };
    si = q.si;
  }
}
