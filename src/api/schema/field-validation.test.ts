import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../errors.js';
import {
  type FieldValidation,
  goJson,
  goValue,
  parseFieldValidation,
  resolveStrictDecoding,
  type StrictDecoding,
  strictErrors,
  warningHeaderValue,
} from './field-validation.js';

describe('parseFieldValidation', () => {
  const ok: [string, FieldValidation][] = [
    ['', 'Warn'],
    ['fieldValidation=', 'Warn'],
    ['fieldValidation=Strict', 'Strict'],
    ['fieldValidation=Warn', 'Warn'],
    ['fieldValidation=Ignore', 'Ignore'],
    ['fieldValidation=Ignore&fieldValidation=Strict', 'Ignore'],
  ];
  for (const [query, expected] of ok) {
    it(`"${query}" → ${expected}`, () => {
      assert.equal(parseFieldValidation(new URLSearchParams(query)), expected);
    });
  }

  it('rejects other values with upstream 422 (case-sensitive)', () => {
    const err = catchStatus(() =>
      parseFieldValidation(new URLSearchParams('fieldValidation=strict'), 'PatchOptions'),
    );
    assert.equal(err.code, 422);
    assert.equal(err.reason, 'Invalid');
    assert.equal(
      err.message,
      'PatchOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"',
    );
  });
});

function catchStatus(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  assert.fail('expected a StatusError');
}

const ERRORS = [strictErrors.unknown('spec.foo'), strictErrors.duplicate('spec.paused')];
const create: StrictDecoding = {
  verb: 'create',
  bodyKind: 'Deployment',
  bodyVersion: 'v1',
  kind: 'Deployment',
  errors: ERRORS,
};

describe('resolveStrictDecoding', () => {
  const strictCases: [string, StrictDecoding, number, string][] = [
    [
      'create',
      create,
      400,
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.foo", duplicate field "spec.paused"',
    ],
    [
      'update',
      { ...create, verb: 'update' },
      400,
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.foo", duplicate field "spec.paused"',
    ],
    [
      'merge patch',
      {
        verb: 'merge-patch',
        patched: { spec: { foo: 1 }, kind: 'X' },
        errors: [strictErrors.unknown('spec.foo')],
      },
      422,
      ' "" is invalid: patch: Invalid value: "{\\"kind\\":\\"X\\",\\"spec\\":{\\"foo\\":1}}": strict decoding error: unknown field "spec.foo"',
    ],
    [
      'json patch',
      {
        verb: 'json-patch',
        patched: { a: '<b>' },
        errors: [strictErrors.jsonPatch(strictErrors.unknown('[0].foo'))],
      },
      422,
      ' "" is invalid: patch: Invalid value: "{\\"a\\":\\"\\\\u003cb\\\\u003e\\"}": strict decoding error: json patch unknown field "[0].foo"',
    ],
    [
      'strategic merge patch',
      {
        verb: 'strategic-merge-patch',
        patch: { spec: { paused: false, foo: 'x' } },
        errors: [strictErrors.duplicate('spec.paused')],
      },
      422,
      ' "" is invalid: patch: Invalid value: "map[spec:map[foo:x paused:false]]": strict decoding error: duplicate field "spec.paused"',
    ],
    [
      'apply',
      {
        verb: 'apply',
        yamlDuplicates: [
          'line 3: key "a" already set in map',
          'line 5: key "b" already set in map',
        ],
      },
      400,
      'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 3: key "a" already set in map\n  line 5: key "b" already set in map',
    ],
  ];
  for (const [name, decoding, code, message] of strictCases) {
    it(`Strict ${name}`, () => {
      const out = resolveStrictDecoding('Strict', decoding);
      assert.equal(out.error?.code, code);
      assert.equal(out.error?.message, message);
      assert.deepEqual(out.warnings, []);
    });
  }

  it('Strict create with a YAML body puts go-yaml errors first', () => {
    const errors = [
      ...strictErrors.yaml(['line 10: key "a" already set in map']),
      strictErrors.unknown('spec.a'),
    ];
    const out = resolveStrictDecoding('Strict', { ...create, errors });
    assert.match(
      out.error?.message ?? '',
      /strict decoding error: yaml: unmarshal errors:\n {2}line 10: key "a" already set in map, unknown field "spec.a"$/,
    );
  });

  const warnCases: [string, StrictDecoding, string[]][] = [
    ['create', create, ['unknown field "spec.foo"', 'duplicate field "spec.paused"']],
    [
      'yaml body split per line',
      {
        ...create,
        errors: [
          ...strictErrors.yaml([
            'line 1: key "a" already set in map',
            'line 2: key "b" already set in map',
          ]),
          strictErrors.unknown('x'),
        ],
      },
      [
        'line 1: key "a" already set in map',
        'line 2: key "b" already set in map',
        'unknown field "x"',
      ],
    ],
    [
      'apply',
      { verb: 'apply', yamlDuplicates: ['line 1: key "a" already set in map'] },
      ['line 1: key "a" already set in map'],
    ],
    [
      'duplicates collapse',
      { ...create, errors: ['unknown field "a"', 'unknown field "a"'] },
      ['unknown field "a"'],
    ],
  ];
  for (const [name, decoding, warnings] of warnCases) {
    it(`Warn ${name}`, () => {
      const out = resolveStrictDecoding('Warn', decoding);
      assert.equal(out.error, undefined);
      assert.deepEqual(out.warnings, warnings);
    });
  }

  for (const directive of ['Ignore', 'Strict', 'Warn'] as const) {
    it(`${directive} with no errors does nothing`, () => {
      assert.deepEqual(resolveStrictDecoding(directive, { ...create, errors: [] }), {
        warnings: [],
      });
      assert.deepEqual(resolveStrictDecoding(directive, { verb: 'apply', yamlDuplicates: [] }), {
        warnings: [],
      });
    });
  }

  it('Ignore drops everything', () => {
    assert.deepEqual(resolveStrictDecoding('Ignore', create), { warnings: [] });
  });
});

describe('formatting helpers', () => {
  it('warningHeaderValue quotes and escapes', () => {
    assert.equal(
      warningHeaderValue('unknown field "spec.foo"'),
      '299 - "unknown field \\"spec.foo\\""',
    );
    assert.equal(warningHeaderValue('a\\b'), '299 - "a\\\\b"');
  });

  it('goJson sorts keys and escapes HTML characters', () => {
    assert.equal(
      goJson({ b: [1, { d: 1, c: '&' }], a: null }),
      '{"a":null,"b":[1,{"c":"\\u0026","d":1}]}',
    );
  });

  it('goValue prints like %+v', () => {
    assert.equal(
      goValue({ spec: { b: [1, 'x'], a: null, c: true } }),
      'map[spec:map[a:<nil> b:[1 x] c:true]]',
    );
    assert.equal(goValue({}), 'map[]');
  });
});
