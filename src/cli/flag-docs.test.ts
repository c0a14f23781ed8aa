/**
 * The docs' flag lists are the tables': each file's text between its markers is what
 * `scripts/gen-flag-docs.ts` writes, so a hand edit (or a table change without the script)
 * fails here. And the replacement touches nothing outside the markers.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { FlagTable } from '../cluster/flag-table.js';
import { FLAG_DOC_SECTIONS, flagMarkers, withFlagDocs } from './flag-docs.js';

const ROOT = new URL('../../', import.meta.url);

describe('the docs list the flags of the tables', () => {
  for (const { file, name, table } of FLAG_DOC_SECTIONS) {
    it(`${file}: flags:${name}`, () => {
      const text = readFileSync(new URL(file, ROOT), 'utf8');
      assert.equal(
        withFlagDocs(text, name, table),
        text,
        `${file} differs from the ${name} flag table: run node --import tsx scripts/gen-flag-docs.ts`,
      );
    });
  }
});

describe('withFlagDocs', () => {
  const table = {
    nodes: { type: 'string', default: '3', value: 'N', help: 'Simulated nodes' },
  } as const satisfies FlagTable;
  const { begin, end } = flagMarkers('t');
  const generated = [
    begin,
    '',
    '| Flag | Default | Meaning |',
    '|---|---|---|',
    '| `--nodes N` | `3` | Simulated nodes |',
    '',
    end,
  ].join('\n');

  it('replaces what is between the markers, and only that', () => {
    const line = fc.stringMatching(/^[^\n]*$/).filter((l) => !l.includes('flags:t:'));
    fc.assert(
      fc.property(fc.array(line), fc.array(line), fc.array(line), (before, inside, after) => {
        const text = [...before, begin, ...inside, end, ...after].join('\n');
        const out = withFlagDocs(text, 't', table);
        assert.equal(out, [...before, generated, ...after].join('\n'));
        assert.equal(withFlagDocs(out, 't', table), out);
      }),
    );
  });

  const refused: [string, RegExp][] = [
    ['no markers', /want one line "<!-- flags:t:begin -->", found 0/],
    [`${begin}\n${begin}\n${end}`, /found 2/],
    [`${begin}\n`, /want one line "<!-- flags:t:end -->", found 0/],
    [`${end}\n${begin}`, /comes before/],
  ];
  for (const [text, why] of refused) {
    it(`refuses ${JSON.stringify(text)}`, () => {
      assert.throws(() => withFlagDocs(text, 't', table), why);
    });
  }
});
