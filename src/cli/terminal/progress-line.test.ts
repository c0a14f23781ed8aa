/**
 * The progress line: what it reads (bar, count, detail, cut to the terminal's width), that
 * it is erased at the end and never mixed into other output, and that it exists only on a
 * terminal.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stripVTControlCharacters } from 'node:util';
import fc from 'fast-check';
import { FakeTerminal } from './fake-terminal.js';
import { ProgressLine, progressLine, renderProgress } from './progress-line.js';

describe('renderProgress', () => {
  const cases: [string, Parameters<typeof renderProgress>[0], number, string][] = [
    [
      'nothing done',
      { label: 'nodes', done: 0, total: 250 },
      80,
      'nodes ▕░░░░░░░░░░░░░░░░░░░░▏ 0/250',
    ],
    [
      'a part, with a detail',
      { label: 'nodes', done: 87, total: 250, detail: 't+1m' },
      80,
      'nodes ▕██████░░░░░░░░░░░░░░▏ 87/250 t+1m',
    ],
    ['all', { label: 'x', done: 3, total: 3 }, 80, 'x ▕████████████████████▏ 3/3'],
    [
      'more than all counts as all',
      { label: 'x', done: 5, total: 3 },
      80,
      'x ▕████████████████████▏ 3/3',
    ],
    [
      'nothing to do is done',
      { label: 'x', done: 0, total: 0 },
      80,
      'x ▕████████████████████▏ 0/0',
    ],
    [
      'too wide: cut with an ellipsis, a column short of the edge',
      { label: 'scenario 2/3 a-long-name', done: 1, total: 4, detail: 't+10s' },
      30,
      'scenario 2/3 a-long-name ▕██…',
    ],
  ];
  for (const [name, state, columns, want] of cases) {
    it(name, () => assert.equal(renderProgress(state, columns, false), want));
  }

  it('colors only the bar, and never widens the line past the terminal', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.nat(1000),
        fc.nat(1000),
        fc.integer({ min: 2, max: 200 }),
        (label, done, total, columns) => {
          const state = { label, done, total, detail: 't+1s' };
          const colored = renderProgress(state, columns, true);
          assert.equal(stripVTControlCharacters(colored), renderProgress(state, columns, false));
          assert.ok(stripVTControlCharacters(colored).length <= columns - 1);
        },
      ),
    );
  });
});

describe('ProgressLine', () => {
  it('redraws in place, one line, and leaves nothing once ended', () => {
    const term = new FakeTerminal();
    const line = new ProgressLine(term, true);
    for (let done = 0; done <= 10; done++) {
      line.show({ label: 'nodes', done, total: 10 });
      assert.deepEqual(term.screen(), [
        `nodes ▕${'██'.repeat(done)}${'░░'.repeat(10 - done)}▏ ${done}/10`,
      ]);
    }
    line.end();
    assert.deepEqual(term.screen(), []);
  });

  it('output written around it gets lines of its own; the line is drawn again below', () => {
    const term = new FakeTerminal();
    const line = new ProgressLine(term, false);
    line.show({ label: 'step', done: 1, total: 2 });
    line.around(() => term.write('a timeline line\n'));
    line.around(() => term.write('x\n'));
    assert.deepEqual(term.screen(), ['a timeline line', 'x', 'step ▕██████████░░░░░░░░░░▏ 1/2']);
    line.end();
    assert.deepEqual(term.screen(), ['a timeline line', 'x']);
  });

  it("a writer that knows nothing of it writes over it from the line's start", () => {
    const term = new FakeTerminal();
    const line = new ProgressLine(term, false);
    line.show({ label: 'nodes', done: 1, total: 2 });
    // A human log line from the controller thread: it erases the line first (log-format.ts).
    term.write('\u001b[K12:00:00.000 INFO  x\n');
    line.show();
    assert.deepEqual(term.screen(), ['12:00:00.000 INFO  x', 'nodes ▕██████████░░░░░░░░░░▏ 1/2']);
  });

  it('a terminal that does not know its width (0 columns) gets 80', () => {
    const term = new FakeTerminal(0);
    new ProgressLine(term, false).show({ label: 'nodes', done: 1, total: 2 });
    assert.deepEqual(term.screen(), ['nodes ▕██████████░░░░░░░░░░▏ 1/2']);
  });

  it('exists only on a terminal', () => {
    const written: string[] = [];
    const pipe = { write: (s: string) => void written.push(s) };
    assert.equal(progressLine(pipe), undefined);
    assert.equal(progressLine({ ...pipe, isTTY: false }), undefined);
    assert.ok(progressLine(new FakeTerminal()) instanceof ProgressLine);
    assert.deepEqual(written, []);
  });
});
