import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { compileCel } from './cel.js';
import type { ObservedEvent } from './invariants.js';
import { escapeXmlAttribute, escapeXmlText, junitXml, xmlSafe } from './junit.js';
import type { ScenarioResult } from './results.js';
import type { Invariant, Step } from './types.js';

/** A strict reader of the XML subset junitXml writes; throws on anything malformed. */
interface XmlElement {
  readonly name: string;
  readonly attrs: Record<string, string>;
  readonly children: XmlElement[];
  text: string;
}

const ENTITY = /&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(s: string): string {
  if (/&(?!(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);)/.test(s))
    throw new Error(`bare & in ${JSON.stringify(s)}`);
  return s.replace(ENTITY, (_, e: string) => {
    if (e.startsWith('#x')) return String.fromCodePoint(Number.parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(Number(e.slice(1)));
    return NAMED[e] ?? '';
  });
}

function parseXml(doc: string): XmlElement {
  if (/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u.test(doc)) {
    throw new Error('a character XML 1.0 forbids');
  }
  const decl = /^<\?xml [^?]*\?>\n/.exec(doc);
  if (!decl) throw new Error('no XML declaration');
  const stack: XmlElement[] = [];
  const roots: XmlElement[] = [];
  let pos = decl[0].length;
  while (pos < doc.length) {
    const lt = doc.indexOf('<', pos);
    addText(stack, doc.slice(pos, lt < 0 ? doc.length : lt));
    if (lt < 0) break;
    const gt = doc.indexOf('>', lt);
    pos = gt + 1;
    const tag = doc.slice(lt + 1, gt);
    if (tag.startsWith('/')) closeTag(stack, tag.slice(1));
    else openTag(stack, roots, tag);
  }
  if (stack.length > 0 || roots.length !== 1 || !roots[0]) throw new Error('not one closed root');
  return roots[0];
}

function addText(stack: XmlElement[], text: string): void {
  if (text.includes('>')) throw new Error('bare > in text');
  const top = stack.at(-1);
  if (top) top.text += decodeEntities(text);
  else if (text.trim() !== '') throw new Error('text outside the root');
}

function closeTag(stack: XmlElement[], name: string): void {
  const open = stack.pop();
  if (open?.name !== name) throw new Error(`</${name}> closes <${open?.name}>`);
}

function openTag(stack: XmlElement[], roots: XmlElement[], tag: string): void {
  const m = /^([A-Za-z]+)((?:\s+[A-Za-z-]+="[^"<]*")*)\s*(\/?)$/.exec(tag);
  if (!m) throw new Error(`malformed tag <${tag}>`);
  const attrs: Record<string, string> = {};
  for (const a of (m[2] ?? '').matchAll(/([A-Za-z-]+)="([^"]*)"/g)) {
    if (a[1] === undefined || a[1] in attrs) throw new Error('duplicate attribute');
    attrs[a[1]] = decodeEntities(a[2] ?? '');
  }
  const el: XmlElement = { name: m[1] ?? '', attrs, children: [], text: '' };
  const top = stack.at(-1);
  if (top) top.children.push(el);
  else roots.push(el);
  if (m[3] !== '/') stack.push(el);
}

const T0 = Date.UTC(2026, 0, 1);

function step(index: number, title: string): Step {
  return { index, title, action: { action: 'advance', durationMs: 1000 } };
}

const invariant: Invariant = {
  name: 'at most one <unready> & "quoted"',
  target: { kind: 'Pod' },
  rule: { form: 'cel', cel: compileCel('objects.size() <= 1', 'invariant') },
  text: 'objects.size() <= 1',
};

function event(seq: number, name: string): ObservedEvent {
  const object = {
    kind: 'Pod',
    metadata: { name, namespace: 'default', resourceVersion: String(seq) },
  };
  return {
    seq,
    time: T0 + seq * 1000,
    type: 'ADDED',
    key: '/pods',
    kind: 'Pod',
    namespace: 'default',
    name,
    resourceVersion: String(seq),
    summary: 'Pending',
    object,
  };
}

function result(overrides: Partial<ScenarioResult> = {}): ScenarioResult {
  const history = { before: [event(1, 'web-0'), event(2, 'web-1')], after: [event(3, 'web-2')] };
  return {
    name: 'node-loss',
    file: 'examples/scenarios/node-loss.yaml',
    passed: false,
    steps: [
      { step: step(1, 'advance 1s'), status: 'passed', startedAt: 0, virtualMs: 1000, wallMs: 12 },
      {
        step: step(2, 'wait condition=Ready Pod default/web-0'),
        status: 'failed',
        message:
          'timed out after 30s waiting for condition=Ready: Pod default/web-0: condition Ready is False\nline two',
        startedAt: 1000,
        virtualMs: 30_000,
        wallMs: 40,
      },
      {
        step: step(3, 'advance 1s'),
        status: 'skipped',
        message: 'skipped: an earlier step failed',
        startedAt: 31_000,
        virtualMs: 0,
        wallMs: 0,
      },
    ],
    invariants: [
      {
        invariant,
        status: 'failed',
        checks: 3,
        violation: {
          invariant,
          time: T0 + 2000,
          message: 'objects.size() <= 1 is false (2 objects)',
          error: false,
          event: history.before[1],
        },
        history,
        duringStep: 2,
      },
    ],
    startTime: T0,
    virtualMs: 31_000,
    wallMs: 52,
    ...overrides,
  };
}

describe('junitXml', () => {
  test('one suite per file, one case per step and invariant, failures with messages', () => {
    const root = parseXml(
      junitXml([result(), result({ name: 'ok', passed: true, steps: [], invariants: [] })]),
    );
    assert.equal(root.name, 'testsuites');
    assert.deepEqual(
      [root.attrs.tests, root.attrs.failures, root.attrs.skipped, root.attrs.errors],
      ['4', '2', '1', '0'],
    );
    const [suite, second] = root.children;
    assert.equal(suite?.attrs.name, 'node-loss');
    assert.equal(second?.attrs.name, 'ok');
    const cases = suite?.children.filter((c) => c.name === 'testcase') ?? [];
    assert.deepEqual(
      cases.map((c) => [c.attrs.name, c.children[0]?.name ?? 'passed']),
      [
        ['step 1: advance 1s', 'passed'],
        ['step 2: wait condition=Ready Pod default/web-0', 'failure'],
        ['step 3: advance 1s', 'skipped'],
        ['invariant: at most one <unready> & "quoted"', 'failure'],
      ],
    );
    const stepFailure = cases[1]?.children[0];
    assert.equal(
      stepFailure?.attrs.message,
      'timed out after 30s waiting for condition=Ready: Pod default/web-0: condition Ready is False',
    );
    assert.match(stepFailure?.text ?? '', /\nline two$/);
    const violation = cases[3]?.children[0];
    assert.equal(violation?.attrs.type, 'InvariantViolated');
    assert.match(
      violation?.text ?? '',
      / >> \[\+00:00:02\.000\] ADDED Pod default\/web-1 rv=2: Pending/,
    );
    assert.match(violation?.text ?? '', /then:\n {4}\[\+00:00:03\.000\] ADDED Pod default\/web-2/);
  });

  test('a file that did not parse is an error case', () => {
    const root = parseXml(
      junitXml([
        result({
          error: { phase: 'parse', message: 'bad.yaml:3:5: step 1 & more' },
          steps: [],
          invariants: [],
        }),
      ]),
    );
    const testcase = root.children[0]?.children.find((c) => c.name === 'testcase');
    assert.equal(testcase?.children[0]?.name, 'error');
    assert.equal(testcase?.children[0]?.attrs.message, 'bad.yaml:3:5: step 1 & more');
    assert.equal(root.attrs.errors, '1');
  });

  test('property: any text survives as an attribute and as element text (forbidden characters become U+FFFD)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.string({ unit: 'grapheme' }),
        (name, message) => {
          const doc = junitXml([
            result({
              name,
              steps: [
                {
                  step: step(1, message),
                  status: 'failed',
                  message,
                  startedAt: 0,
                  virtualMs: 0,
                  wallMs: 0,
                },
              ],
              invariants: [],
            }),
          ]);
          const root = parseXml(doc);
          const suite = root.children[0];
          assert.equal(suite?.attrs.name, xmlSafe(name));
          const failure = suite?.children.find((c) => c.name === 'testcase')?.children[0];
          assert.equal(failure?.text, xmlSafe(message));
        },
      ),
    );
  });

  test('escaping', () => {
    assert.equal(escapeXmlText(`a<b>&"c'`), 'a&lt;b&gt;&amp;&quot;c&apos;');
    assert.equal(escapeXmlAttribute('a\tb\nc\rd'), 'a&#9;b&#10;c&#13;d');
    assert.equal(xmlSafe('a\u0000b\u001bc\uD800d\uFFFE'), 'a\uFFFDb\uFFFDc\uFFFDd\uFFFD');
    assert.equal(xmlSafe('emoji 😀 and \u{10FFFF}'), 'emoji 😀 and \u{10FFFF}');
  });
});
