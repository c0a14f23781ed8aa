/**
 * Counts type assertions (`x as T`, leaving out `as const` and import/export renames) in the
 * production sources of `src/`: the figure issue 16 set a ceiling on. Comments and string
 * contents are blanked first, so prose such as "as a rule" is not counted.
 *
 *   node --import tsx scripts/count-casts.ts          # total, `as unknown as`, per folder
 *
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Test files, test support and generated code are outside the count. */
export function isProductionSource(path: string): boolean {
  if (!path.endsWith('.ts') || path.endsWith('.test.ts') || path.endsWith('.d.ts')) return false;
  return !/(^|\/)(testing|testdata|generated)\//.test(path);
}

/** Blanks comments and the contents of string and template literals, keeping `${…}` code. */
interface Scan {
  out: string;
  i: number;
  braces: number;
  /** The brace depth at each open `${`, innermost last. */
  readonly templateDepth: number[];
}

export function codeOnly(text: string): string {
  const scan: Scan = { out: '', i: 0, braces: 0, templateDepth: [] };
  while (scan.i < text.length) {
    const c = text[scan.i] ?? '';
    const skipped = skipNonCode(text, scan.i, scan.out);
    if (skipped !== undefined) {
      scan.i = skipped.end;
      scan.out += skipped.blank;
    } else if (c === '`' || (c === '}' && scan.templateDepth.at(-1) === scan.braces)) {
      templatePart(text, scan, c);
    } else {
      if (c === '{') scan.braces += 1;
      if (c === '}') scan.braces -= 1;
      scan.out += c;
      scan.i += 1;
    }
  }
  return scan.out;
}

/**
 * A template's text runs to its closing backquote or to the next `${`, whose code is scanned
 * as code until the `}` that brings the brace depth back.
 */
function templatePart(text: string, scan: Scan, c: string): void {
  if (c === '}') scan.templateDepth.pop();
  const part = templateText(text, scan.i + 1);
  if (part.opensCode) scan.templateDepth.push(scan.braces);
  scan.i = part.end;
  scan.out += '``';
}

/** A comment, regex or quoted string at `i`: where it ends and what stands in for it. */
function skipNonCode(
  text: string,
  i: number,
  codeSoFar: string,
): { end: number; blank: string } | undefined {
  const c = text[i];
  const next = text[i + 1];
  if (c === '/' && next === '/') {
    const end = text.indexOf('\n', i);
    return { end: end < 0 ? text.length : end, blank: '' };
  }
  if (c === '/' && next === '*') {
    const end = text.indexOf('*/', i + 2);
    return { end: end < 0 ? text.length : end + 2, blank: ' ' };
  }
  if (c === '/' && startsRegex(codeSoFar)) return { end: skipRegex(text, i), blank: '/r/' };
  if (c === '"' || c === "'") return { end: skipQuoted(text, i, c), blank: '""' };
  return undefined;
}

function templateText(text: string, start: number): { end: number; opensCode: boolean } {
  let i = start;
  while (i < text.length) {
    if (text[i] === '\\') i += 2;
    else if (text[i] === '`') return { end: i + 1, opensCode: false };
    else if (text[i] === '$' && text[i + 1] === '{') return { end: i + 2, opensCode: true };
    else i += 1;
  }
  return { end: i, opensCode: false };
}

/** A `/` after these (or `return`, `typeof`…) opens a regex literal, not a division. */
function startsRegex(codeSoFar: string): boolean {
  const before = codeSoFar.trimEnd();
  if (before === '') return true;
  if (/[(,=:[!&|?{};+\-*%<>~^]$/.test(before)) return true;
  return /\b(return|typeof|case|in|of|void|yield|await)$/.test(before);
}

/** The index after a regex literal starting at `start` (its flags included). */
function skipRegex(text: string, start: number): number {
  let i = start + 1;
  let inClass = false;
  while (i < text.length && text[i] !== '\n') {
    const c = text[i];
    if (c === '\\') i += 1;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) break;
    i += 1;
  }
  i += 1;
  while (i < text.length && /[a-z]/.test(text[i] as string)) i += 1;
  return i;
}

function skipQuoted(text: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < text.length && text[i] !== quote && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}

export interface CastCount {
  readonly casts: number;
  readonly unknownCasts: number;
}

/** The assertions in one file's text. */
export function countCasts(text: string): CastCount {
  const code = codeOnly(text)
    .replace(/\b(import|export)\s+(type\s+)?\{[^}]*\}/g, '')
    .replace(/\*\s+as\s+\w+/g, '');
  const casts = code.match(/[\w$)\]}>'"`!?]\s*\bas\s+(?!const\b)[\w{[(<'"`]/g) ?? [];
  const unknownCasts = code.match(/\bas\s+unknown\s+as\b/g) ?? [];
  return { casts: casts.length, unknownCasts: unknownCasts.length };
}

/** Every production source under `root`, relative to it, with its count. */
export function countTree(root: string): Map<string, CastCount> {
  const counts = new Map<string, CastCount>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (isProductionSource(relative(root, path)))
        counts.set(relative(root, path), countCasts(readFileSync(path, 'utf8')));
    }
  };
  walk(root);
  return counts;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const counts = countTree('src');
  const byFolder = new Map<string, number>();
  let casts = 0;
  let unknownCasts = 0;
  for (const [path, count] of counts) {
    casts += count.casts;
    unknownCasts += count.unknownCasts;
    const folder = path.split('/')[0] as string;
    byFolder.set(folder, (byFolder.get(folder) ?? 0) + count.casts);
  }
  console.log(`casts: ${casts}   as unknown as: ${unknownCasts}   files: ${counts.size}`);
  for (const [folder, n] of [...byFolder].sort((a, b) => b[1] - a[1]))
    console.log(`  ${folder}: ${n}`);
}
