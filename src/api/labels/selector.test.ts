import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { fieldErrorText, path } from '../field-error.js';
import {
  formatLabelSelector,
  type LabelSelectorObject,
  LabelSelectorParseError,
  labelSelectorFromObject,
  parseLabelSelector,
  validateLabelSelectorObject,
} from './selector.js';

const NAME_RULE =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE_RULE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const EXPECTED_OPS = 'in, notin, =, ==, !=, gt, lt';

describe('parseLabelSelector: accepted input and canonical form', () => {
  const table: { input: string; canonical: string }[] = [
    { input: '', canonical: '' },
    { input: '   ', canonical: '' },
    { input: 'x', canonical: 'x' },
    { input: '!x', canonical: '!x' },
    { input: 'app=web,tier!=db', canonical: 'app=web,tier!=db' },
    { input: 'app in (web,db),!canary,tier', canonical: 'app in (db,web),!canary,tier' },
    { input: 'x in (foo,,baz),y,z notin ()', canonical: 'x in (,baz,foo),y,z notin ()' },
    { input: 'x in (a,)', canonical: 'x in (,a)' },
    { input: 'x in (,a)', canonical: 'x in (,a)' },
    { input: 'x in (a,a,b)', canonical: 'x in (a,b)' },
    { input: 'x==a', canonical: 'x==a' },
    { input: 'x=', canonical: 'x=' },
    { input: 'x!=', canonical: 'x!=' },
    { input: 'x>1,y<0', canonical: 'x>1,y<0' },
    { input: ' z = a , b in ( c , d ) , !e ', canonical: 'b in (c,d),!e,z=a' },
    { input: 'x\tin\n(a)', canonical: 'x in (a)' },
    { input: 'in in (in,notin)', canonical: 'in in (in,notin)' },
    { input: 'notin notin (in)', canonical: 'notin notin (in)' },
    { input: 'k=in', canonical: 'k=in' },
    { input: 'example.com/app=web', canonical: 'example.com/app=web' },
    { input: 'b=1,a=2,b!=3', canonical: 'a=2,b=1,b!=3' },
  ];
  for (const { input, canonical } of table) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(canonical)}`, () => {
      const sel = parseLabelSelector(input);
      assert.equal(sel.toString(), canonical);
      assert.equal(parseLabelSelector(sel.toString()).toString(), canonical);
    });
  }

  it('exposes sorted requirements with upstream operator names', () => {
    const sel = parseLabelSelector('b notin (y,x),a,!c,d>3');
    assert.deepEqual(sel.requirements, [
      { key: 'a', operator: 'exists', values: [] },
      { key: 'b', operator: 'notin', values: ['x', 'y'] },
      { key: 'c', operator: '!', values: [] },
      { key: 'd', operator: 'gt', values: ['3'] },
    ]);
  });
});

describe('parseLabelSelector: errors carry upstream text', () => {
  const table: { input: string; message: string }[] = [
    { input: 'a b', message: `unable to parse requirement: found 'b', expected: ${EXPECTED_OPS}` },
    { input: 'a,', message: "found '', expected: identifier after ','" },
    { input: 'a,,b', message: "found ',', expected: identifier after ','" },
    { input: ',a', message: "found ',', expected: !, identifier, or 'end of string'" },
    { input: '=a', message: "found '=', expected: !, identifier, or 'end of string'" },
    { input: 'a=b=c', message: "found '=', expected: ',' or 'end of string'" },
    { input: '!a=b', message: "found '=', expected: ',' or 'end of string'" },
    { input: 'a=b c', message: "found 'c', expected: ',' or 'end of string'" },
    { input: '!', message: "unable to parse requirement: found '', expected: identifier" },
    { input: '!!a', message: "unable to parse requirement: found '!', expected: identifier" },
    { input: 'a!b', message: `unable to parse requirement: found '!', expected: ${EXPECTED_OPS}` },
    { input: 'x>=1', message: "unable to parse requirement: found '=', expected: identifier" },
    { input: 'x in a', message: "unable to parse requirement: found 'a' expected: '('" },
    { input: 'x in', message: "unable to parse requirement: found '' expected: '('" },
    {
      input: 'x in (',
      message: "unable to parse requirement: found '', expected: ',', ')' or identifier",
    },
    {
      input: 'x in (a b)',
      message: "unable to parse requirement: found 'b', expected: ',' or ')'",
    },
    {
      input: 'x in (a,,)',
      message: "unable to parse requirement: found ')', expected: ',', or identifier",
    },
    {
      input: 'x in (,,)',
      message: "unable to parse requirement: found ')', expected: ',', or identifier",
    },
    { input: 'x in (a', message: "unable to parse requirement: found '', expected: ',' or ')'" },
    {
      input: 'x>abc',
      message:
        "unable to parse requirement: values[0]: Invalid value: \"abc\": for 'Gt', 'Lt' operators, the value must be an integer",
    },
    {
      input: 'x<99999999999999999999',
      message:
        "unable to parse requirement: values[0]: Invalid value: \"99999999999999999999\": for 'Gt', 'Lt' operators, the value must be an integer",
    },
    {
      input: 'x>',
      message:
        "unable to parse requirement: values[0]: Invalid value: \"\": for 'Gt', 'Lt' operators, the value must be an integer",
    },
    {
      input: '-a',
      message: `unable to parse requirement: <nil>: Invalid value: "-a": name part ${NAME_RULE}`,
    },
    {
      input: 'a=-b',
      message: `unable to parse requirement: values[0][a]: Invalid value: "-b": ${VALUE_RULE}`,
    },
    {
      input: 'a in (-x,-y)',
      message: `unable to parse requirement: [values[0][a]: Invalid value: "-x": ${VALUE_RULE}, values[1][a]: Invalid value: "-y": ${VALUE_RULE}]`,
    },
    {
      input: 'x>-1',
      message: `unable to parse requirement: values[0][x]: Invalid value: "-1": ${VALUE_RULE}`,
    },
    {
      input: '/a',
      message:
        'unable to parse requirement: <nil>: Invalid value: "/a": prefix part must be non-empty',
    },
  ];
  for (const { input, message } of table) {
    it(JSON.stringify(input), () => {
      assert.throws(
        () => parseLabelSelector(input),
        (e: unknown) => {
          assert.ok(e instanceof LabelSelectorParseError);
          assert.equal(e.message, message);
          return true;
        },
      );
    });
  }
});

describe('LabelSelector.matches', () => {
  const labels = { app: 'web', tier: 'front', n: '5', empty: '' };
  const table: { selector: string; matches: boolean }[] = [
    { selector: '', matches: true },
    { selector: 'app=web', matches: true },
    { selector: 'app==web', matches: true },
    { selector: 'app=db', matches: false },
    { selector: 'missing=x', matches: false },
    { selector: 'app!=db', matches: true },
    { selector: 'app!=web', matches: false },
    { selector: 'missing!=x', matches: true },
    { selector: 'app in (db,web)', matches: true },
    { selector: 'app in (db)', matches: false },
    { selector: 'missing in (x)', matches: false },
    { selector: 'app notin (db)', matches: true },
    { selector: 'app notin (web)', matches: false },
    { selector: 'missing notin (x)', matches: true },
    { selector: 'app', matches: true },
    { selector: 'missing', matches: false },
    { selector: '!missing', matches: true },
    { selector: '!app', matches: false },
    { selector: 'empty=', matches: true },
    { selector: 'missing=', matches: false },
    { selector: 'empty in ()', matches: true },
    { selector: 'n>4', matches: true },
    { selector: 'n>5', matches: false },
    { selector: 'n<6', matches: true },
    { selector: 'app>1', matches: false },
    { selector: 'missing<1', matches: false },
    { selector: 'app=web,tier=front,!canary', matches: true },
    { selector: 'app=web,tier=back', matches: false },
  ];
  for (const { selector, matches } of table) {
    it(`${JSON.stringify(selector)} → ${matches}`, () => {
      assert.equal(parseLabelSelector(selector).matches(labels), matches);
    });
  }

  it('treats missing labels as an empty map', () => {
    assert.equal(parseLabelSelector('!a,b!=c').matches(undefined), true);
    assert.equal(parseLabelSelector('a').matches(null), false);
  });

  it('does not see inherited properties as labels', () => {
    assert.equal(parseLabelSelector('toString').matches({}), false);
  });
});

describe('labelSelectorFromObject and formatLabelSelector', () => {
  it('nil matches nothing, {} matches everything', () => {
    assert.equal(labelSelectorFromObject(null).matches({ a: 'b' }), false);
    assert.equal(labelSelectorFromObject(undefined).matchesNothing, true);
    assert.equal(labelSelectorFromObject({}).matches({ a: 'b' }), true);
    assert.equal(
      labelSelectorFromObject({ matchLabels: {}, matchExpressions: [] }).isEmpty(),
      true,
    );
  });

  const table: { sel: LabelSelectorObject | null; formatted: string }[] = [
    { sel: null, formatted: '<none>' },
    { sel: {}, formatted: '<none>' },
    { sel: { matchLabels: { app: 'web' } }, formatted: 'app=web' },
    { sel: { matchLabels: { tier: 'front', app: 'web' } }, formatted: 'app=web,tier=front' },
    {
      sel: {
        matchLabels: { app: 'web' },
        matchExpressions: [
          { key: 'env', operator: 'In', values: ['prod', 'dev'] },
          { key: 'canary', operator: 'DoesNotExist' },
          { key: 'zone', operator: 'Exists', values: [] },
          { key: 'os', operator: 'NotIn', values: ['win'] },
        ],
      },
      formatted: 'app=web,!canary,env in (dev,prod),os notin (win),zone',
    },
    {
      sel: { matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] },
      formatted: '<error>',
    },
    { sel: { matchLabels: { app: '-bad' } }, formatted: '<error>' },
  ];
  for (const { sel, formatted } of table) {
    it(`formats ${JSON.stringify(sel)} as ${formatted}`, () => {
      assert.equal(formatLabelSelector(sel), formatted);
    });
  }

  it('keeps duplicate values as given but prints them sorted', () => {
    const sel = labelSelectorFromObject({
      matchExpressions: [{ key: 'a', operator: 'In', values: ['y', 'x', 'y'] }],
    });
    assert.deepEqual(sel.requirements[0]?.values, ['y', 'x', 'y']);
    assert.equal(sel.toString(), 'a in (x,y,y)');
    assert.equal(sel.matches({ a: 'x' }), true);
  });

  const errors: { sel: LabelSelectorObject; message: string }[] = [
    {
      sel: { matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] },
      message: '"Gt" is not a valid pod selector operator',
    },
    {
      sel: { matchExpressions: [{ key: 'a', operator: 'In', values: [] }] },
      message:
        "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty",
    },
    {
      sel: { matchExpressions: [{ key: 'a', operator: 'NotIn' }] },
      message:
        "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty",
    },
    {
      sel: { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] },
      message:
        'values: Invalid value: ["x"]: values set must be empty for exists and does not exist',
    },
    {
      sel: { matchLabels: { '-a': 'b' } },
      message: `key: Invalid value: "-a": name part ${NAME_RULE}`,
    },
    {
      sel: { matchLabels: { a: '-b' } },
      message: `values[0][a]: Invalid value: "-b": ${VALUE_RULE}`,
    },
    {
      sel: { matchLabels: { '-a': '-b' } },
      message: `[key: Invalid value: "-a": name part ${NAME_RULE}, values[0][-a]: Invalid value: "-b": ${VALUE_RULE}]`,
    },
  ];
  for (const { sel, message } of errors) {
    it(`rejects ${JSON.stringify(sel)}`, () => {
      assert.throws(() => labelSelectorFromObject(sel), {
        name: 'LabelSelectorParseError',
        message,
      });
    });
  }
});

describe('validateLabelSelectorObject', () => {
  const root = path('spec', 'selector');
  const table: { sel: LabelSelectorObject | null; errors: string[] }[] = [
    { sel: null, errors: [] },
    { sel: { matchLabels: { app: 'web' } }, errors: [] },
    {
      sel: { matchLabels: { 'a/b/c': 'ok', app: '-x' } },
      errors: [
        `spec.selector.matchLabels: Invalid value: "a/b/c": a qualified name ${NAME_RULE} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
        `spec.selector.matchLabels: Invalid value: "-x": ${VALUE_RULE}`,
      ],
    },
    {
      sel: {
        matchExpressions: [
          { key: 'a', operator: 'In', values: [] },
          { key: 'b', operator: 'Exists', values: ['x'] },
          { key: '-c', operator: 'Gt', values: ['1', '-y'] },
        ],
      },
      errors: [
        "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
        "spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        'spec.selector.matchExpressions[2].operator: Invalid value: "Gt": not a valid selector operator',
        `spec.selector.matchExpressions[2].key: Invalid value: "-c": name part ${NAME_RULE}`,
        `spec.selector.matchExpressions[2].values[1]: Invalid value: "-y": ${VALUE_RULE}`,
      ],
    },
  ];
  for (const [i, { sel, errors }] of table.entries()) {
    it(`case ${i}: ${errors.length} error(s)`, () => {
      assert.deepEqual(validateLabelSelectorObject(sel, root).map(fieldErrorText), errors);
    });
  }

  it('can allow invalid values in old objects', () => {
    const sel = { matchExpressions: [{ key: 'a', operator: 'In', values: ['-x'] }] };
    assert.equal(validateLabelSelectorObject(sel, root).length, 1);
    assert.deepEqual(
      validateLabelSelectorObject(sel, root, { allowInvalidLabelValueInSelector: true }),
      [],
    );
  });
});

describe('properties', () => {
  const alnum = fc.constantFrom(...'abcxyz019');
  const word = fc
    .tuple(alnum, fc.array(fc.constantFrom(...'abc-_.'), { maxLength: 4 }), alnum)
    .map(([a, m, b]) => `${a}${m.join('')}${b}`);
  const key = fc.oneof(
    word,
    word.map((w) => `example.com/${w}`),
  );
  const value = fc.oneof(word, fc.constant(''));
  const requirement = fc.oneof(
    fc.tuple(key, fc.constantFrom('=', '==', '!='), value).map(([k, op, v]) => `${k}${op}${v}`),
    // Upstream itself rejects some empty-value spellings such as `(,,)`, so empties only lead.
    fc
      .tuple(
        key,
        fc.constantFrom(' in ', ' notin '),
        fc.boolean(),
        fc.array(word, { minLength: 1, maxLength: 3 }),
      )
      .map(([k, op, lead, vs]) => `${k}${op}(${lead ? ',' : ''}${vs.join(',')})`),
    fc.tuple(fc.constantFrom('', '!'), key).map(([bang, k]) => `${bang}${k}`),
    fc.tuple(key, fc.constantFrom('>', '<'), fc.nat(99)).map(([k, op, n]) => `${k}${op}${n}`),
  );
  const selectorText = fc.array(requirement, { maxLength: 5 }).map((rs) => rs.join(','));
  const labelSet = fc.dictionary(key, fc.oneof(value, fc.nat(99).map(String)), { maxKeys: 6 });

  it('toString is a fixed point of parsing', () => {
    fc.assert(
      fc.property(selectorText, (text) => {
        const once = parseLabelSelector(text).toString();
        assert.equal(parseLabelSelector(once).toString(), once);
      }),
    );
  });

  it('a selector matches exactly when each of its requirements does', () => {
    fc.assert(
      fc.property(fc.array(requirement, { minLength: 1, maxLength: 4 }), labelSet, (rs, labels) => {
        const all = parseLabelSelector(rs.join(',')).matches(labels);
        assert.equal(
          all,
          rs.every((r) => parseLabelSelector(r).matches(labels)),
        );
      }),
    );
  });

  it('!=, notin and !key are the negations of =, in and key', () => {
    fc.assert(
      fc.property(key, value, labelSet, (k, v, labels) => {
        const m = (s: string) => parseLabelSelector(s).matches(labels);
        assert.equal(m(`${k}!=${v}`), !m(`${k}=${v}`));
        assert.equal(m(`${k} notin (${v})`), !m(`${k} in (${v})`));
        assert.equal(m(`!${k}`), !m(k));
      }),
    );
  });

  it('matchLabels selects exactly the supersets of matchLabels', () => {
    fc.assert(
      fc.property(labelSet, labelSet, (matchLabels, labels) => {
        const expected = Object.entries(matchLabels).every(
          ([k, v]) => Object.hasOwn(labels, k) && labels[k] === v,
        );
        assert.equal(labelSelectorFromObject({ matchLabels }).matches(labels), expected);
        const text = formatLabelSelector({ matchLabels });
        if (text !== '<none>') assert.equal(parseLabelSelector(text).matches(labels), expected);
      }),
    );
  });
});
