import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  isDns1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  regexError,
} from './label-names.js';

const NAME_RULE =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const SUBDOMAIN_RULE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const VALUE_RULE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('isQualifiedName', () => {
  const valid = [
    'simple',
    'now-with-dashes',
    '1-starts-with-num',
    '1234',
    'simple/simple',
    'now-with-dashes/simple',
    'now.with.dots/simple',
    '1-num.2-num/3-num',
    '1.2.3.4/5678',
    'Uppercase_Is_OK_123',
    'example.com/Uppercase_Is_OK_123',
    'requests.storage-foo',
    'a'.repeat(63),
    `${'a'.repeat(253)}/${'b'.repeat(63)}`,
  ];
  for (const key of valid) {
    it(`accepts ${key.length > 40 ? `${key.slice(0, 20)}…` : key}`, () => {
      assert.deepEqual(isQualifiedName(key), []);
    });
  }

  const invalid: { key: string; errors: string[] }[] = [
    { key: '-a', errors: [`name part ${NAME_RULE}`] },
    { key: 'cantendwithadash-', errors: [`name part ${NAME_RULE}`] },
    { key: 'nospecialchars%^=@', errors: [`name part ${NAME_RULE}`] },
    { key: '', errors: ['name part must be non-empty', `name part ${NAME_RULE}`] },
    { key: '/simple', errors: ['prefix part must be non-empty'] },
    {
      key: 'example.com/',
      errors: ['name part must be non-empty', `name part ${NAME_RULE}`],
    },
    { key: 'Example.com/abc', errors: [`prefix part ${SUBDOMAIN_RULE}`] },
    { key: 'example_com/abc', errors: [`prefix part ${SUBDOMAIN_RULE}`] },
    { key: 'a'.repeat(64), errors: ['name part must be no more than 63 characters'] },
    {
      key: `${'a'.repeat(254)}/abc`,
      errors: ['prefix part must be no more than 253 characters'],
    },
    {
      key: 'only/one/slash',
      errors: [
        `a qualified name ${NAME_RULE} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
      ],
    },
  ];
  for (const { key, errors } of invalid) {
    it(`rejects ${JSON.stringify(key.length > 40 ? `${key.slice(0, 20)}…` : key)} with upstream's text`, () => {
      assert.deepEqual(isQualifiedName(key), errors);
    });
  }

  it('counts length in UTF-8 bytes as Go does', () => {
    assert.deepEqual(isQualifiedName(`${'a'.repeat(62)}é`).slice(0, 1), [
      'name part must be no more than 63 characters',
    ]);
  });
});

describe('isValidLabelValue', () => {
  const table: { value: string; errors: string[] }[] = [
    { value: '', errors: [] },
    { value: 'simple', errors: [] },
    { value: '1234', errors: [] },
    { value: 'a'.repeat(63), errors: [] },
    { value: 'a'.repeat(64), errors: ['must be no more than 63 characters'] },
    { value: '-starts-with-dash', errors: [VALUE_RULE] },
    { value: 'ends.with.dot.', errors: [VALUE_RULE] },
    { value: 'a/b', errors: [VALUE_RULE] },
    { value: 'Tama-nui-te-rā', errors: [VALUE_RULE] },
    { value: `-${'a'.repeat(64)}`, errors: ['must be no more than 63 characters', VALUE_RULE] },
  ];
  for (const { value, errors } of table) {
    it(`${JSON.stringify(value.slice(0, 20))} → ${errors.length} error(s)`, () => {
      assert.deepEqual(isValidLabelValue(value), errors);
    });
  }
});

describe('isDns1123Subdomain and regexError', () => {
  it('formats examples with upstream’s double space quirk', () => {
    assert.equal(
      regexError('m', 'r', 'a', 'b'),
      "m (e.g. 'a',  or 'b', regex used for validation is 'r')",
    );
    assert.equal(regexError('m', 'r'), "m (regex used for validation is 'r')");
  });
  it('accepts dotted lowercase names and rejects others', () => {
    assert.deepEqual(isDns1123Subdomain('example.com'), []);
    assert.deepEqual(isDns1123Subdomain('a..b'), [SUBDOMAIN_RULE]);
  });
});

describe('properties', () => {
  const alnum = fc.constantFrom(...'abcXYZ019');
  const inner = fc.constantFrom(...'abcXYZ019-_.');
  const name = fc
    .tuple(alnum, fc.array(inner, { maxLength: 30 }), alnum)
    .map(([a, mid, b]) => `${a}${mid.join('')}${b}`);

  it('every value of the documented form is a valid label value and key', () => {
    fc.assert(
      fc.property(name, (n) => {
        assert.deepEqual(isValidLabelValue(n), []);
        assert.deepEqual(isQualifiedName(n), []);
        assert.deepEqual(isQualifiedName(`example.com/${n}`), []);
      }),
    );
  });

  it('anything with a character outside the alphabet is rejected', () => {
    fc.assert(
      fc.property(name, fc.constantFrom(' ', '/', '*', ',', '=', 'é'), (n, bad) => {
        assert.notDeepEqual(isValidLabelValue(`${n}${bad}${n}`), []);
      }),
    );
  });
});
