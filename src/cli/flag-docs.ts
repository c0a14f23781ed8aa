/**
 * The docs' flag lists, generated from the flag tables: the text between
 * `<!-- flags:NAME:begin -->` and `<!-- flags:NAME:end -->` in each file below is the table
 * of command NAME and nothing else, written by `node --import tsx scripts/gen-flag-docs.ts`.
 * flag-docs.test.ts fails when a file differs from its table, so the lists are never edited
 * by hand: change the table (and run the script) instead.
 *
 * @module
 */
import { type FlagTable, flagDocTable } from '../cluster/flag-table.js';
import { UP_FLAGS } from '../cluster/up-flag-table.js';
import { OPERATOR_FLAGS } from './operator-flag-table.js';

/** One generated list: the file (from the repository's root), its marker name, the table. */
export interface FlagDocSection {
  readonly file: string;
  readonly name: string;
  readonly table: FlagTable;
}

export const FLAG_DOC_SECTIONS: readonly FlagDocSection[] = [
  { file: 'README.md', name: 'up', table: UP_FLAGS },
  { file: 'docs/operator.md', name: 'operator', table: OPERATOR_FLAGS },
];

/** The two marker lines of `name`. */
export function flagMarkers(name: string): { readonly begin: string; readonly end: string } {
  return { begin: `<!-- flags:${name}:begin -->`, end: `<!-- flags:${name}:end -->` };
}

/**
 * `text` with the lines between `name`'s markers replaced by `table`'s docs table (a blank
 * line either side, so Markdown sees a table). Throws unless each marker is there once, the
 * begin marker first, each on a line of its own.
 */
export function withFlagDocs(text: string, name: string, table: FlagTable): string {
  const { begin, end } = flagMarkers(name);
  const lines = text.split('\n');
  const at = (marker: string): number => {
    const found = lines.flatMap((line, i) => (line.trim() === marker ? [i] : []));
    if (found.length !== 1 || found[0] === undefined) {
      throw new Error(`want one line "${marker}", found ${found.length}`);
    }
    return found[0];
  };
  const first = at(begin);
  const last = at(end);
  if (last < first) throw new Error(`"${end}" comes before "${begin}"`);
  const body = ['', ...flagDocTable(table).trimEnd().split('\n'), ''];
  return [...lines.slice(0, first + 1), ...body, ...lines.slice(last)].join('\n');
}
