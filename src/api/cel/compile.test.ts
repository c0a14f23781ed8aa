import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldErrorText } from '../field-error.js';
import type { Schema, ValidationRule } from '../schema/types.js';
import { compileSchemaValidations } from './compile.js';

const BASE = 'spec.validation.openAPIV3Schema';

/** A CRD schema whose `spec` carries `rules` and a few typed fields. */
function specWith(rules: readonly ValidationRule[], extra: Record<string, Schema> = {}): Schema {
  return {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        'x-kubernetes-validations': rules,
        properties: {
          replicas: { type: 'integer' },
          name: { type: 'string' },
          'x-y': { type: 'string' },
          ...extra,
        },
      },
    },
  };
}

function errorsOf(schema: Schema): string[] {
  return compileSchemaValidations(schema, { basePath: BASE }).errors.map(fieldErrorText);
}

const goRule = (rule: string) =>
  `apiextensions.ValidationRule{Rule:${JSON.stringify(rule)}, Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}`;

describe('compileSchemaValidations', () => {
  const VALID = [
    'self.replicas >= 0',
    'has(self.name) && self.name.startsWith("a")',
    'self.x__dash__y == "z"',
    'self.?name.orValue("") != "x"',
    'cel.bind(r, self.replicas, r > 1)',
    'self.replicas == oldSelf.replicas',
    'quantity("1").isLessThan(quantity("2"))',
  ];
  for (const rule of VALID) {
    it(`accepts ${rule}`, () => assert.deepEqual(errorsOf(specWith([{ rule }])), []));
  }

  const INVALID: readonly (readonly [string, string])[] = [
    [
      'self.nope == 1',
      "compilation failed: ERROR: <input>:1:5: undefined field 'nope'\n | self.nope == 1\n | ....^",
    ],
    [
      'has(self.nope)',
      "compilation failed: ERROR: <input>:1:4: undefined field 'nope'\n | has(self.nope)\n | ...^",
    ],
    ['self.replicas', 'cel expression must evaluate to a bool'],
    [
      'self.name + 1 == "a"',
      'compilation failed: ERROR: <input>:1:1: no such overload: int == string\n | self.name + 1 == "a"\n | ^',
    ],
    [
      'nope > 1',
      "compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope' (in container '')\n | nope > 1\n | ^",
    ],
  ];
  for (const [rule, detail] of INVALID) {
    it(`rejects ${rule}`, () => {
      const errs = compileSchemaValidations(specWith([{ rule }]), { basePath: BASE }).errors;
      assert.equal(errs.length, 1);
      assert.equal(errs[0]?.field, `${BASE}.properties[spec].x-kubernetes-validations[0].rule`);
      assert.equal(errs[0]?.type, 'FieldValueInvalid');
      assert.equal(errs[0]?.detail, detail);
      assert.equal(String(errs[0]?.badValue), goRule(rule));
    });
  }

  it('refuses a rule nested past 250 levels as a compile error, not a stack overflow', () => {
    const chain = (n: number) => Array.from({ length: n }, () => 'self.replicas > 0').join(' && ');
    assert.deepEqual(errorsOf(specWith([{ rule: chain(200) }])), []);
    const [error, ...rest] = errorsOf(specWith([{ rule: chain(5000) }]));
    assert.equal(rest.length, 0);
    assert.match(
      error ?? '',
      /compilation failed: ERROR: <input>:1:1: expression recursion limit exceeded: 250/,
    );
  });

  it('reports a syntax error', () => {
    const [err] = errorsOf(specWith([{ rule: 'self.replicas >' }]));
    assert.match(
      err ?? '',
      /rule: Invalid value: .*: compilation failed: ERROR: <input>:1:\d+: Syntax error: /,
    );
  });

  it('finds fields through macros, list items and map values', () => {
    const extra: Record<string, Schema> = {
      items: { type: 'array', items: { type: 'object', properties: { key: { type: 'string' } } } },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
    };
    assert.deepEqual(
      errorsOf(
        specWith(
          [{ rule: 'self.items.all(i, i.key != "") && self.labels.all(k, self.labels[k] != "")' }],
          extra,
        ),
      ),
      [],
    );
    const [err] = errorsOf(specWith([{ rule: 'self.items.exists(i, i.nokey == "")' }], extra));
    assert.match(err ?? '', /undefined field 'nokey'/);
  });

  it('exposes only apiVersion, kind, metadata.name and metadata.generateName at the root', () => {
    const schema: Schema = {
      type: 'object',
      'x-kubernetes-validations': [
        {
          rule: 'self.metadata.name.startsWith("a") && self.kind == "Foo" && self.apiVersion != ""',
        },
        { rule: 'has(self.metadata.labels)' },
      ],
    };
    const errs = errorsOf(schema);
    assert.equal(errs.length, 1);
    assert.match(errs[0] ?? '', /x-kubernetes-validations\[1\]\.rule: .*undefined field 'labels'/);
  });

  it('rejects oldSelf below a list that is not a map list, naming the list', () => {
    const schema = specWith([], {
      tags: {
        type: 'array',
        items: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] },
      },
      ports: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: {
          type: 'object',
          properties: { name: { type: 'string' }, port: { type: 'integer' } },
          'x-kubernetes-validations': [{ rule: 'self.port == oldSelf.port' }],
        },
      },
    });
    assert.deepEqual(errorsOf(schema), [
      `${BASE}.properties[spec].properties[tags].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${BASE}.properties[spec].properties[tags]`,
    ]);
  });

  it('checks messageExpression, optionalOldSelf and the rule fields', () => {
    const errs = errorsOf(
      specWith([
        { rule: 'self.replicas > 0', messageExpression: 'self.replicas' },
        { rule: 'self.replicas > 0', messageExpression: 'self.nope' },
        { rule: 'self.replicas > 0', optionalOldSelf: true },
        { rule: '' },
        { rule: 'self.replicas > 0', message: '   ' },
        { rule: 'self.replicas > 0', fieldPath: '.nope' },
        { rule: 'self.replicas > 0', fieldPath: '.replicas', reason: 'FieldValueForbidden' },
      ]),
    );
    const at = (i: number, f: string) =>
      `${BASE}.properties[spec].x-kubernetes-validations[${i}].${f}`;
    assert.equal(errs.length, 6);
    assert.match(
      errs[0] ?? '',
      new RegExp(
        `^${escapeRe(at(0, 'messageExpression'))}: Invalid value: .*: messageExpression must evaluate to a string$`,
      ),
    );
    assert.match(
      errs[1] ?? '',
      /messageExpression: Invalid value: .*: messageExpression compilation failed: ERROR: <input>:1:5: undefined field 'nope'/,
    );
    assert.equal(
      errs[2],
      `${at(2, 'optionalOldSelf')}: Invalid value: true: may not be set if oldSelf is not used in rule`,
    );
    assert.equal(errs[3], `${at(3, 'rule')}: Required value: rule is not specified`);
    assert.equal(
      errs[4],
      `${at(4, 'message')}: Invalid value: "   ": message must be non-empty if specified`,
    );
    assert.equal(
      errs[5],
      `${at(5, 'fieldPath')}: Invalid value: ".nope": fieldPath must be a valid path`,
    );
  });

  it('returns no compiled root for a schema without rules', () => {
    assert.equal(compileSchemaValidations({ type: 'object' }).compiled.root, undefined);
  });
});

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
