import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { backoffMs, LineSplitter, readLines } from './ndjson.js';

describe('LineSplitter', () => {
  it('yields the same lines however the text is cut into chunks', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc
            .string({ minLength: 1 })
            .filter((s) => !s.includes('\n') && s.trim() === s && s !== ''),
          { maxLength: 20 },
        ),
        fc.array(fc.nat(), { maxLength: 10 }),
        (lines, cuts) => {
          const text = lines.map((l) => `${l}\n`).join('');
          const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          const splitter = new LineSplitter();
          const out: string[] = [];
          let prev = 0;
          for (const p of [...points, text.length]) {
            out.push(...splitter.push(text.slice(prev, p)));
            prev = p;
          }
          out.push(...splitter.end());
          assert.deepEqual(out, lines);
        },
      ),
    );
  });

  it('returns a last line without a newline at the end', () => {
    const s = new LineSplitter();
    assert.deepEqual(s.push('{"a":1}\n{"b"'), ['{"a":1}']);
    assert.deepEqual(s.push(':2}'), []);
    assert.deepEqual(s.end(), ['{"b":2}']);
  });
});

describe('readLines', () => {
  it('decodes multi-byte characters split across chunks', async () => {
    const bytes = new TextEncoder().encode('{"n":"zoné-ü"}\n{"n":"b"}\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 3) controller.enqueue(bytes.slice(i, i + 3));
        controller.close();
      },
    });
    const lines: string[] = [];
    await readLines(body, (l) => lines.push(l));
    assert.deepEqual(lines, ['{"n":"zoné-ü"}', '{"n":"b"}']);
  });
});

describe('backoffMs', () => {
  const cases: [number, number][] = [
    [0, 250],
    [1, 500],
    [2, 1000],
    [5, 8000],
    [6, 10_000],
    [100, 10_000],
  ];
  for (const [attempt, ms] of cases) {
    it(`attempt ${attempt} waits ${ms} ms`, () => assert.equal(backoffMs(attempt), ms));
  }
});
