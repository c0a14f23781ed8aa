import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  base64ErrorIndex,
  base64ErrorText,
  goFieldTypeError,
  goValueTypeError,
  jsonKind,
  NAMED_FIELD_TYPES,
  timeParseError,
} from './go-decode-texts.js';

const TIME_LAYOUT = '"2006-01-02T15:04:05Z07:00"';

describe('jsonKind', () => {
  const TABLE: readonly [unknown, string][] = [
    ['x', 'string'],
    [1.5, 'number'],
    [false, 'bool'],
    [[], 'array'],
    [{}, 'object'],
  ];
  for (const [value, want] of TABLE) {
    it(`${JSON.stringify(value)} is ${want}`, () => assert.equal(jsonKind(value), want));
  }
});

describe('UnmarshalTypeError and CorruptInputError texts', () => {
  it('outside a struct', () =>
    assert.equal(
      goValueTypeError('bool', 'int32'),
      'json: cannot unmarshal bool into Go value of type int32',
    ));
  it('in a struct field', () =>
    assert.equal(
      goFieldTypeError('number', 'ServiceSpec', 'spec.type', 'v1.ServiceType'),
      'json: cannot unmarshal number into Go struct field ServiceSpec.spec.type of type v1.ServiceType',
    ));
  it('base64', () => assert.equal(base64ErrorText(3), 'illegal base64 data at input byte 3'));
});

describe('NAMED_FIELD_TYPES', () => {
  it('names Go types as reflect prints them (package.Name, []package.Name)', () => {
    for (const fields of Object.values(NAMED_FIELD_TYPES)) {
      for (const t of Object.values(fields)) assert.match(t, /^(\[\])?[a-z0-9]+\.[A-Z]\w*$/);
    }
  });
});

describe('timeParseError', () => {
  const TABLE: readonly [string, string | undefined][] = [
    ['2024-01-01T00:00:00Z', undefined],
    ['2024-01-01T00:00:00.123+02:00', undefined],
    ['2024-02-29T23:59:59-08:00', undefined],
    ['2024-01-01T1:00:00Z', undefined],
    ['', `parsing time "" as ${TIME_LAYOUT}: cannot parse "" as "2006"`],
    ['2024-13-01T00:00:00Z', 'parsing time "2024-13-01T00:00:00Z": month out of range'],
    ['2023-02-29T00:00:00Z', 'parsing time "2023-02-29T00:00:00Z": day out of range'],
    ['2024-01-01T24:00:00Z', 'parsing time "2024-01-01T24:00:00Z": hour out of range'],
    [
      '2024-01-01 00:00:00Z',
      `parsing time "2024-01-01 00:00:00Z" as ${TIME_LAYOUT}: cannot parse " 00:00:00Z" as "T"`,
    ],
    [
      '2024-01-01T00:00:00',
      `parsing time "2024-01-01T00:00:00" as ${TIME_LAYOUT}: cannot parse "" as "Z07:00"`,
    ],
    ['2024-01-01T00:00:00Zjunk', 'parsing time "2024-01-01T00:00:00Zjunk": extra text: "junk"'],
    [
      '2024-1-01T00:00:00Z',
      `parsing time "2024-1-01T00:00:00Z" as ${TIME_LAYOUT}: cannot parse "1-01T00:00:00Z" as "01"`,
    ],
    [
      '2024-01-01T00:00:00+25:00',
      'parsing time "2024-01-01T00:00:00+25:00": time zone offset hour out of range',
    ],
    ['é', `parsing time "\\xc3\\xa9" as ${TIME_LAYOUT}: cannot parse "\\xc3\\xa9" as "2006"`],
  ];
  for (const [input, want] of TABLE) {
    it(JSON.stringify(input), () => assert.equal(timeParseError(input, false), want));
  }

  it('accepts what Date prints', () =>
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799 }), (sec) => {
        const iso = new Date(sec * 1000).toISOString();
        assert.equal(timeParseError(iso, false), undefined);
        assert.equal(timeParseError(iso.replace(/\.\d+Z$/, '.000000Z'), true), undefined);
      }),
    ));
});

describe('base64ErrorIndex', () => {
  const TABLE: readonly [string, number][] = [
    ['', -1],
    ['YWJj', -1],
    ['YWI=', -1],
    ['YQ==', -1],
    ['YW\nJj', -1],
    ['YQ', 0],
    ['YWJ', 0],
    ['Y===', 1],
    ['YQ==YQ==', 4],
    ['YQ=x', 2],
    ['YW-j', 2],
  ];
  for (const [input, want] of TABLE) {
    it(JSON.stringify(input), () => assert.equal(base64ErrorIndex(input), want));
  }

  it('accepts what Buffer encodes', () =>
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        assert.equal(base64ErrorIndex(Buffer.from(bytes).toString('base64')), -1);
      }),
    ));
});
