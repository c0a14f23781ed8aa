import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { FieldSet } from './field-set.js';
import { fieldSetOfPaths } from './field-set-builder.js';
import {
  type FieldPath,
  fieldElement as f,
  indexElement,
  keyElement,
  pathToString,
  valueElement,
} from './path-element.js';

describe('FieldsV1 round trip', () => {
  const cases: { name: string; json: Record<string, unknown> }[] = [
    { name: 'empty', json: {} },
    { name: 'leaf fields', json: { 'f:data': { 'f:a': {}, 'f:b': {} } } },
    {
      name: 'keyed item that is a member and a parent',
      json: {
        'f:spec': {
          'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {}, 'f:name': {} } },
          'f:replicas': {},
        },
      },
    },
    {
      name: 'multi-key item, set values, indices',
      json: {
        'f:ports': {
          'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} },
        },
        'f:tags': { 'v:"a"': {}, 'v:1': {} },
        'f:x': { 'i:0': {}, 'i:10': {}, 'i:2': {} },
      },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(FieldSet.fromFieldsV1(c.json).toFieldsV1(), normalise(c.json));
    });
  }

  it('writes keys in upstream order: fields, then keys, values, indices; "." last', () => {
    const set = fieldSetOfPaths([
      [f('b')],
      [keyElement([['name', 'x']])],
      [valueElement('v')],
      [indexElement(1)],
      [f('a')],
      [f('m')],
      [f('m'), f('z')],
    ]);
    assert.deepEqual(Object.keys(set.toFieldsV1()), [
      'f:a',
      'f:b',
      'f:m',
      'k:{"name":"x"}',
      'v:"v"',
      'i:1',
    ]);
    assert.deepEqual(Object.keys(set.toFieldsV1()['f:m'] as object), ['f:z', '.']);
  });

  it('sorts key fields by name and escapes like Go', () => {
    const pe = keyElement([
      ['protocol', 'TCP'],
      ['containerPort', 80],
    ]);
    const set = fieldSetOfPaths([[pe], [f('a<b')], [valueElement('x&y')]]);
    assert.deepEqual(Object.keys(set.toFieldsV1()), [
      'f:a<b',
      'k:{"containerPort":80,"protocol":"TCP"}',
      'v:"x\\u0026y"',
    ]);
  });

  it('rejects malformed keys with upstream messages', () => {
    assert.throws(() => FieldSet.fromFieldsV1({ f: {} }), /key must be 2 characters long/);
    assert.throws(() => FieldSet.fromFieldsV1({ 'fx:a': {} }), /missing colon: fx:a/);
    assert.throws(() => FieldSet.fromFieldsV1({ 'f:a': 1 }), /ReadMapCB/);
  });

  it('ignores unknown element types', () => {
    assert.deepEqual(FieldSet.fromFieldsV1({ 'z:q': {}, 'f:a': {} }).toFieldsV1(), { 'f:a': {} });
  });
});

describe('set algebra', () => {
  const a = fieldSetOfPaths([[f('spec'), f('replicas')], [f('spec'), f('paused')], [f('data')]]);
  const b = fieldSetOfPaths([[f('spec'), f('replicas')], [f('spec')]]);
  const cases: { name: string; got: FieldSet; want: string[] }[] = [
    { name: 'union', got: a.union(b), want: ['.data', '.spec', '.spec.paused', '.spec.replicas'] },
    { name: 'intersection', got: a.intersection(b), want: ['.spec.replicas'] },
    {
      name: 'difference keeps children of a removed member',
      got: a.difference(b),
      want: ['.data', '.spec.paused'],
    },
    { name: 'recursive difference removes them', got: a.recursiveDifference(b), want: ['.data'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(c.got.paths().map(pathToString).sort(), c.want);
    });
  }

  it('never keeps empty children (they would read back as members)', () => {
    const d = fieldSetOfPaths([[f('a'), f('b')]]).difference(fieldSetOfPaths([[f('a'), f('b')]]));
    assert.deepEqual(d.toFieldsV1(), {});
    assert.ok(d.isEmpty());
  });
});

const pathArb: fc.Arbitrary<FieldPath> = fc.array(
  fc.oneof(
    fc.constantFrom('a', 'b', 'spec', 'x.y').map(f),
    fc.constantFrom('p', 'q').map((n) => keyElement([['name', n]])),
    fc.oneof(fc.constantFrom('s', 't'), fc.integer({ min: 0, max: 3 })).map(valueElement),
    fc.integer({ min: 0, max: 3 }).map(indexElement),
  ),
  { minLength: 1, maxLength: 4 },
);
const setArb = fc.array(pathArb, { maxLength: 8 }).map((ps) => fieldSetOfPaths(ps));

describe('set properties', () => {
  it('fieldsV1 round trip preserves the set', () => {
    fc.assert(
      fc.property(setArb, (s) =>
        FieldSet.fromFieldsV1(JSON.parse(JSON.stringify(s.toFieldsV1()))).equals(s),
      ),
    );
  });
  it('has() holds exactly for inserted paths', () => {
    fc.assert(
      fc.property(fc.array(pathArb, { maxLength: 8 }), pathArb, (ps, q) => {
        const s = fieldSetOfPaths(ps);
        const inserted = ps.some((p) => pathToString(p) === pathToString(q));
        return s.has(q) === inserted;
      }),
    );
  });
  it('a ∖ b and a ∩ b partition the members of a', () => {
    fc.assert(
      fc.property(setArb, setArb, (a, b) => a.difference(b).union(a.intersection(b)).equals(a)),
    );
  });
});

/** `"."` is written last; compare objects key-order-insensitively except for what we assert. */
function normalise(json: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(json));
}
