import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  findDuplicateFields,
  findYamlDuplicateKeys,
  parseJsonMembers,
} from './duplicate-fields.js';

describe('findDuplicateFields', () => {
  const cases: [string, string, string[]][] = [
    ['none', '{"a":1,"b":{"c":2}}', []],
    ['top level', '{"a":1,"a":2}', ['a']],
    [
      'nested, document order',
      '{"spec":{"paused":true,"x":1,"paused":false},"a":1,"a":2}',
      ['spec.paused', 'a'],
    ],
    ['inside a list', '{"c":[{"n":1},{"n":1,"n":2}]}', ['c[1].n']],
    ['map key', '{"metadata":{"labels":{"app":"a","app":"b"}}}', ['metadata.labels.app']],
    ['root array', '[{"op":"add","op":"remove"}]', ['[0].op']],
    ['three times', '{"a":1,"a":2,"a":3}', ['a', 'a']],
    ['escaped key', '{"a\\"b":1,"a\\"b":2}', ['a"b']],
  ];
  for (const [name, text, expected] of cases) {
    it(name, () => assert.deepEqual(findDuplicateFields(text), expected));
  }

  it('rejects invalid JSON like JSON.parse', () => {
    assert.throws(() => findDuplicateFields('{"a":'), SyntaxError);
  });
});

describe('parseJsonMembers', () => {
  it('parses like JSON.parse (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = JSON.stringify(v);
        assert.deepEqual(parseJsonMembers(text).value, JSON.parse(text));
      }),
    );
  });

  it('keeps the last value and every member of objects with repeats', () => {
    const { value, members } = parseJsonMembers('{"a":{"x":1},"b":2,"a":{"y":2}}');
    assert.deepEqual(value, { a: { y: 2 }, b: 2 });
    assert.deepEqual(members.get(value as object), [
      ['a', { x: 1 }],
      ['b', 2],
      ['a', { y: 2 }],
    ]);
  });

  it('treats __proto__ as data', () => {
    const { value } = parseJsonMembers('{"__proto__":{"x":1}}');
    assert.deepEqual(Object.keys(value as object), ['__proto__']);
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
  });
});

describe('findYamlDuplicateKeys', () => {
  // Upstream test/integration/apiserver/field_validation_test.go invalidBodyYAML.
  const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: x
  labels:
    app: nginx
spec:
  unknown1: val1
  unknownDupe: valDupe
  unknownDupe: valDupe2
  paused: true
  paused: false
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:latest
        unknownNested: val1
        imagePullPolicy: Always
        imagePullPolicy: Never`;
  const cases: [string, string, string[]][] = [
    [
      'upstream deployment',
      deployment,
      [
        'line 10: key "unknownDupe" already set in map',
        'line 12: key "paused" already set in map',
        'line 26: key "imagePullPolicy" already set in map',
      ],
    ],
    [
      'json flow mapping',
      '{"a": 1, "b": {"c": 1, "c": 2}}',
      ['line 1: key "c" already set in map'],
    ],
    ['integer key', 'a:\n  1: x\n  1: y\n', ['line 3: key 1 already set in map']],
    ['none', 'a: 1\nb: 2\n', []],
  ];
  for (const [name, text, expected] of cases) {
    it(name, () => assert.deepEqual(findYamlDuplicateKeys(text), expected));
  }
});
