import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  checkFieldSelectorFields,
  compareCodePoints,
  escapeFieldSelectorValue,
  FieldSelectorParseError,
  fieldLabelNotSupportedMessage,
  parseFieldSelector,
  unescapeFieldSelectorValue,
  unknownFieldSelectorMessage,
} from './selector.js';

describe('parseFieldSelector: accepted input', () => {
  const table: {
    input: string;
    canonical: string;
    requirements: { field: string; operator: string; value: string }[];
  }[] = [
    { input: '', canonical: '', requirements: [] },
    { input: ',,', canonical: '', requirements: [] },
    { input: '=', canonical: '', requirements: [] },
    {
      input: 'metadata.name=web',
      canonical: 'metadata.name=web',
      requirements: [{ field: 'metadata.name', operator: '=', value: 'web' }],
    },
    {
      input: 'involvedObject.name=web-0,involvedObject.namespace=default,involvedObject.uid=u1',
      canonical: 'involvedObject.name=web-0,involvedObject.namespace=default,involvedObject.uid=u1',
      requirements: [
        { field: 'involvedObject.name', operator: '=', value: 'web-0' },
        { field: 'involvedObject.namespace', operator: '=', value: 'default' },
        { field: 'involvedObject.uid', operator: '=', value: 'u1' },
      ],
    },
    {
      input: 'status.phase!=Running,spec.nodeName==n1',
      canonical: 'spec.nodeName=n1,status.phase!=Running',
      requirements: [
        { field: 'spec.nodeName', operator: '=', value: 'n1' },
        { field: 'status.phase', operator: '!=', value: 'Running' },
      ],
    },
    {
      input: 'a=b\\,c\\=d\\\\',
      canonical: 'a=b\\,c\\=d\\\\',
      requirements: [{ field: 'a', operator: '=', value: 'b,c=d\\' }],
    },
    { input: 'a=', canonical: 'a=', requirements: [{ field: 'a', operator: '=', value: '' }] },
    { input: '=v', canonical: '=v', requirements: [{ field: '', operator: '=', value: 'v' }] },
    {
      input: 'x\\,y=1',
      canonical: 'x\\,y=1',
      requirements: [{ field: 'x\\,y', operator: '=', value: '1' }],
    },
    {
      input: ' a = b ',
      canonical: ' a = b ',
      requirements: [{ field: ' a ', operator: '=', value: ' b ' }],
    },
  ];
  for (const { input, canonical, requirements } of table) {
    it(JSON.stringify(input), () => {
      const sel = parseFieldSelector(input);
      assert.deepEqual(sel.requirements, requirements);
      assert.equal(sel.toString(), canonical);
      assert.equal(sel.isEmpty(), requirements.length === 0);
    });
  }
});

describe('parseFieldSelector: errors carry upstream text', () => {
  const table: { input: string; message: string }[] = [
    { input: 'a', message: "invalid selector: 'a'; can't understand 'a'" },
    { input: 'b=1,a', message: "invalid selector: 'b=1,a'; can't understand 'a'" },
    { input: 'a!b', message: "invalid selector: 'a!b'; can't understand 'a!b'" },
    { input: 'a=b=c', message: 'invalid field selector: unescaped character in value: 61' },
    { input: 'a==b=c', message: 'invalid field selector: unescaped character in value: 61' },
    { input: 'a=b\\x', message: 'invalid field selector: invalid escape sequence: \\x' },
    { input: 'a=b\\', message: 'invalid field selector: invalid escape sequence: \\' },
  ];
  for (const { input, message } of table) {
    it(JSON.stringify(input), () => {
      assert.throws(
        () => parseFieldSelector(input),
        (e: unknown) => {
          assert.ok(e instanceof FieldSelectorParseError);
          assert.equal(e.message, message);
          return true;
        },
      );
    });
  }

  it('checks terms in sorted order, so the first reported error is the smallest term', () => {
    assert.throws(() => parseFieldSelector('z,a'), {
      message: "invalid selector: 'z,a'; can't understand 'a'",
    });
  });
});

describe('FieldSelector.matches', () => {
  const fields = { 'metadata.name': 'web', 'status.phase': 'Running', empty: '' };
  const table: { selector: string; matches: boolean }[] = [
    { selector: '', matches: true },
    { selector: 'metadata.name=web', matches: true },
    { selector: 'metadata.name==web', matches: true },
    { selector: 'metadata.name=db', matches: false },
    { selector: 'metadata.name!=db', matches: true },
    { selector: 'status.phase!=Running', matches: false },
    { selector: 'spec.nodeName!=n1', matches: true },
    { selector: 'spec.nodeName=', matches: true },
    { selector: 'empty=', matches: true },
    { selector: 'metadata.name=web,status.phase=Running', matches: true },
    { selector: 'metadata.name=web,status.phase=Pending', matches: false },
    { selector: 'toString=', matches: true },
  ];
  for (const { selector, matches } of table) {
    it(`${JSON.stringify(selector)} → ${matches}`, () => {
      assert.equal(parseFieldSelector(selector).matches(fields), matches);
    });
  }

  it('reports the value an equality requirement pins', () => {
    const sel = parseFieldSelector('metadata.namespace!=x,metadata.name=web');
    assert.equal(sel.requiresExactMatch('metadata.name'), 'web');
    assert.equal(sel.requiresExactMatch('metadata.namespace'), undefined);
  });
});

describe('unsupported fields', () => {
  const allowed = ['metadata.name', 'metadata.namespace'];
  it('returns the first unknown field in the selector’s order', () => {
    assert.equal(
      checkFieldSelectorFields(parseFieldSelector('metadata.name=a'), allowed),
      undefined,
    );
    assert.equal(
      checkFieldSelectorFields(parseFieldSelector('z.z=1,foo.bar=baz,metadata.name=a'), allowed),
      'foo.bar',
    );
  });
  it('builds upstream’s messages', () => {
    assert.equal(
      unknownFieldSelectorMessage('foo.bar'),
      '"foo.bar" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
    assert.equal(fieldLabelNotSupportedMessage('foo'), 'field label not supported: foo');
  });
});

describe('properties', () => {
  const text = fc.string({ unit: fc.constantFrom('a', 'b', '\\', ',', '=', '!', ' ', 'é', '😀') });

  it('unescape(escape(v)) is v for any value', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (v) => {
        assert.equal(unescapeFieldSelectorValue(escapeFieldSelectorValue(v)), v);
      }),
    );
  });

  it('a printed selector parses back to the same requirements', () => {
    const field = fc.stringMatching(/^[a-z][a-z.]{0,8}$/);
    const req = fc.record({ field, operator: fc.constantFrom('=', '!='), value: text });
    fc.assert(
      fc.property(fc.array(req, { maxLength: 4 }), (reqs) => {
        const printed = reqs.map(
          (r) => `${r.field}${r.operator}${escapeFieldSelectorValue(r.value)}`,
        );
        const sel = parseFieldSelector(printed.join(','));
        const again = parseFieldSelector(sel.toString());
        assert.deepEqual(again.requirements, sel.requirements);
        assert.equal(sel.requirements.length, reqs.length);
      }),
    );
  });

  it('parsing never throws anything but FieldSelectorParseError', () => {
    fc.assert(
      fc.property(text, (t) => {
        try {
          parseFieldSelector(t);
        } catch (e) {
          assert.ok(e instanceof FieldSelectorParseError);
        }
      }),
    );
  });

  it('orders strings by code point, as Go orders bytes', () => {
    assert.ok(compareCodePoints('\uFF61', '😀') < 0);
    assert.ok('\uFF61' > '😀');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        const bytes = Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
        assert.equal(Math.sign(compareCodePoints(a, b)), bytes);
      }),
    );
  });
});
