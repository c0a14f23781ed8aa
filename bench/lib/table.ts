/**
 * Renders benchmark rows as a plain-text table (stdout) or a Markdown table (docs), with the
 * notes as numbered footnotes so the table stays readable at 100 columns.
 *
 * @module
 */
import type { BenchRow } from './report.js';

function fmt(x: number): string {
  if (Number.isNaN(x)) return '—';
  return Number.isInteger(x) ? x.toLocaleString('en-US') : String(x);
}

function cells(row: BenchRow, note: string): string[] {
  const met = row.met === undefined ? '' : row.met ? 'met' : 'MISSED';
  return [
    `${row.name}${note}`,
    fmt(row.value),
    row.unit,
    row.target ?? '',
    met,
    (row.runs ?? []).map(fmt).join(' / '),
  ];
}

const HEADER = ['figure', 'value', 'unit', 'target', 'met', 'runs'];

function withNotes(rows: readonly BenchRow[]): { body: string[][]; notes: string[] } {
  const notes: string[] = [];
  const body = rows.map((row) => {
    if (row.note === undefined) return cells(row, '');
    notes.push(row.note);
    return cells(row, ` [${notes.length}]`);
  });
  return { body, notes };
}

export function textTable(rows: readonly BenchRow[]): string {
  const { body, notes } = withNotes(rows);
  const all = [HEADER, ...body];
  const widths = HEADER.map((_, c) => Math.max(...all.map((r) => r[c]!.length)));
  const line = (r: string[]) =>
    r.map((cell, c) => (c === 1 ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join('  ');
  const out = [line(HEADER), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)];
  if (notes.length > 0) out.push('', ...notes.map((n, i) => `[${i + 1}] ${n}`));
  return out.join('\n');
}

export function markdownTable(rows: readonly BenchRow[]): string {
  const { body, notes } = withNotes(rows);
  const esc = (s: string) => s.replaceAll('|', '\\|');
  const line = (r: string[]) => `| ${r.map(esc).join(' | ')} |`;
  const out = [
    line(HEADER),
    `|${HEADER.map((_, i) => (i === 1 ? ' ---: ' : ' --- ')).join('|')}|`,
    ...body.map(line),
  ];
  if (notes.length > 0) out.push('', ...notes.map((n, i) => `${i + 1}. ${n}`));
  return out.join('\n');
}
