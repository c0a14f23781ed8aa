/**
 * The design notes in `docs/design/` are what code comments cite for the rules they implement
 * (`docs/design/README.md`, "How to cite"). A citation names a file and a numbered section;
 * this test keeps those citations honest as the notes and the code move:
 *
 * - every citation of a design file, in `src/`, `test/`, `bench/`, `scripts/`, `examples/` and
 *   `docs/`, names a file that exists and sections that have a heading in it (`## <sign>N …`);
 * - every section sign in `src/` belongs to such a citation, so no comment points at a
 *   document outside the repository;
 * - a bare section inside a design file (a reference to its own rules) has a heading there.
 *
 * The section sign is written `\u00a7` in this file, so the file never matches itself.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const SIGN = '\u00a7';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DESIGN_DIR = join(ROOT, 'docs', 'design');
/** The trees a citation may appear in; `dist/` and `node_modules/` are build output. */
const SCANNED = ['src', 'test', 'bench', 'scripts', 'examples', 'docs'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git']);
const TEXT_FILE = /\.(?:ts|mts|cts|js|mjs|cjs|md|ya?ml|sh|json)$/;

/** One section number, e.g. `4` or `6.4`. */
const NUMBER = String.raw`\d+(?:\.\d+)*`;
/** A run of sections: `S4`, `S4–S8`, `S5, S7, S8`, `S6.1 and S6.5`, also across comment lines. */
const RUN = String.raw`${SIGN}${NUMBER}(?:[\s*/#,;–-]*(?:and\s+|or\s+)?${SIGN}${NUMBER})*`;
/**
 * A citation: `docs/design/<file>.md` (optionally as a Markdown link text followed by its
 * target), or a Markdown link to a design file, then the run of sections.
 */
const CITATION = new RegExp(
  String.raw`(?:docs\/design\/([a-z0-9-]+\.md)(?:\]\([^)\s]*\))?|\]\(([^)\s]*?[a-z0-9-]+\.md)\))[\s*/#(]*(${RUN})`,
  'g',
);
const SECTION_TOKEN = new RegExp(`${SIGN}(${NUMBER})`, 'g');

interface Failure {
  readonly where: string;
  readonly cited: string;
  readonly problem: string;
}

function walk(dir: string, out: string[]): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (SKIPPED_DIRS.has(name)) continue;
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) walk(path, out);
    else if (TEXT_FILE.test(name)) out.push(path);
  }
  return out;
}

/** Section numbers that have a heading in a design file, by absolute path. */
const headingCache = new Map<string, ReadonlySet<string> | undefined>();
function headingsOf(file: string): ReadonlySet<string> | undefined {
  if (headingCache.has(file)) return headingCache.get(file);
  let headings: Set<string> | undefined;
  if (existsSync(file)) {
    headings = new Set();
    const heading = new RegExp(String.raw`^#{1,6}\s+${SIGN}(${NUMBER})(?=\s|$)`);
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const m = heading.exec(line);
      if (m?.[1] !== undefined) headings.add(m[1]);
    }
  }
  headingCache.set(file, headings);
  return headings;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function isDesignFile(path: string): boolean {
  return dirname(path) === DESIGN_DIR && path.endsWith('.md');
}

/** Checks one file; returns the character ranges its citations cover. */
function checkFile(path: string, failures: Failure[]): Array<[number, number]> {
  const text = readFileSync(path, 'utf8');
  const rel = relative(ROOT, path).split(sep).join('/');
  const covered: Array<[number, number]> = [];
  for (const m of text.matchAll(CITATION)) {
    const [whole, literal, link, run] = m;
    const start = m.index;
    let target: string;
    if (literal !== undefined) target = join(DESIGN_DIR, literal);
    else if (link !== undefined && path.endsWith('.md')) target = resolve(dirname(path), link);
    else continue;
    if (dirname(target) !== DESIGN_DIR) continue;
    covered.push([start, start + whole.length]);
    const where = `${rel}:${lineOf(text, start)}`;
    const cited = `docs/design/${relative(DESIGN_DIR, target)} ${run?.replace(/\s+/g, ' ')}`;
    const headings = headingsOf(target);
    if (headings === undefined) {
      failures.push({ where, cited, problem: 'no such design file' });
      continue;
    }
    for (const t of (run ?? '').matchAll(SECTION_TOKEN)) {
      const n = t[1] ?? '';
      if (!headings.has(n)) failures.push({ where, cited, problem: `no heading ${SIGN}${n}` });
    }
  }
  if (rel.startsWith('src/')) checkEverySignCited(text, rel, covered, failures);
  if (isDesignFile(path)) checkOwnSections(text, path, rel, covered, failures);
  return covered;
}

function inside(index: number, covered: Array<[number, number]>): boolean {
  return covered.some(([from, to]) => index >= from && index < to);
}

/** In `src/`, a section sign outside a citation points at something the repository lacks. */
function checkEverySignCited(
  text: string,
  rel: string,
  covered: Array<[number, number]>,
  failures: Failure[],
): void {
  for (let i = text.indexOf(SIGN); i >= 0; i = text.indexOf(SIGN, i + 1)) {
    if (inside(i, covered)) continue;
    const line = text.slice(text.lastIndexOf('\n', i) + 1, text.indexOf('\n', i));
    failures.push({
      where: `${rel}:${lineOf(text, i)}`,
      cited: line.trim(),
      problem: 'not a docs/design citation',
    });
  }
}

/** A bare section in a design file, outside headings and citations, is one of its own. */
function checkOwnSections(
  text: string,
  path: string,
  rel: string,
  covered: Array<[number, number]>,
  failures: Failure[],
): void {
  const headings = headingsOf(path) ?? new Set<string>();
  let offset = 0;
  for (const line of text.split('\n')) {
    if (!/^#{1,6}\s/.test(line)) {
      for (const t of line.matchAll(SECTION_TOKEN)) {
        const at = offset + t.index;
        const n = t[1] ?? '';
        if (!inside(at, covered) && !headings.has(n)) {
          failures.push({
            where: `${rel}:${lineOf(text, at)}`,
            cited: `${SIGN}${n}`,
            problem: `no heading ${SIGN}${n} in this file`,
          });
        }
      }
    }
    offset += line.length + 1;
  }
}

function table(failures: readonly Failure[]): string {
  return [
    '| where | citation | problem |',
    '|---|---|---|',
    ...failures.map((f) => `| ${f.where} | ${f.cited} | ${f.problem} |`),
  ].join('\n');
}

describe('design references', () => {
  const files = SCANNED.flatMap((dir) => walk(join(ROOT, dir), []));

  it('finds the design notes and the code that cites them', () => {
    assert.ok(existsSync(join(DESIGN_DIR, 'README.md')), 'docs/design/README.md exists');
    const citing = files.filter((f) => checkFile(f, []).length > 0);
    // Dozens of files cite the notes; a handful would mean the pattern stopped matching.
    assert.ok(citing.length >= 20, `only ${citing.length} files cite docs/design`);
  });

  it('every citation names an existing file and section, and src/ cites nothing else', () => {
    const failures: Failure[] = [];
    for (const file of files) checkFile(file, failures);
    assert.ok(
      failures.length === 0,
      `${failures.length} broken design references:\n${table(failures)}`,
    );
  });
});
