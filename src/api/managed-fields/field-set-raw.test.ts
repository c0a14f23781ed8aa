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
  type PathElement,
  valueElement,
} from './path-element.js';

/** `fieldsV1` as FieldSet writes it, so a set read from it keeps it and decodes lazily. */
describe('canonical fieldsV1 is kept and written back as is', () => {
  const canonical: { name: string; json: Record<string, unknown> }[] = [
    { name: 'leaf fields', json: { 'f:data': { 'f:a': {}, 'f:b': {} } } },
    {
      name: 'member and parent, "." last',
      json: {
        'f:spec': {
          'f:containers': { 'k:{"name":"c"}': { 'f:image': {}, 'f:name': {}, '.': {} } },
          'f:replicas': {},
        },
      },
    },
    {
      name: 'keys, values and indices in upstream order',
      json: {
        'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { 'f:name': {}, '.': {} } },
        'f:tags': { 'v:1': {}, 'v:"a"': {} },
        'f:x': { 'i:0': {}, 'i:2': {}, 'i:10': {} },
      },
    },
  ];
  for (const c of canonical) {
    it(c.name, () => {
      const set = FieldSet.fromFieldsV1(c.json);
      assert.equal(set.encodeFieldsV1(), c.json);
      assert.deepEqual(set.toFieldsV1(), c.json);
    });
  }

  const normalised: { name: string; json: Record<string, unknown>; want: unknown }[] = [
    {
      name: 'unsorted keys',
      json: { 'f:b': {}, 'f:a': {} },
      want: { 'f:a': {}, 'f:b': {} },
    },
    {
      name: 'a member written as {".": {}}',
      json: { 'f:a': { '.': {} } },
      want: { 'f:a': {} },
    },
    {
      name: '"." not last',
      json: { 'f:a': { '.': {}, 'f:b': {} } },
      want: { 'f:a': { 'f:b': {}, '.': {} } },
    },
    {
      name: 'key fields out of order',
      json: { 'k:{"protocol":"TCP","containerPort":80}': {} },
      want: { 'k:{"containerPort":80,"protocol":"TCP"}': {} },
    },
    {
      name: 'an unknown element type is dropped',
      json: { 'f:a': {}, 'z:x': {} },
      want: { 'f:a': {} },
    },
    {
      name: 'a "." with content',
      json: { 'f:a': { 'f:b': {}, '.': { x: 1 } } },
      want: { 'f:a': { 'f:b': {}, '.': {} } },
    },
  ];
  for (const c of normalised) {
    it(`rewrites ${c.name}`, () => {
      const set = FieldSet.fromFieldsV1(c.json);
      assert.notEqual(set.encodeFieldsV1(), c.json);
      assert.deepEqual(set.encodeFieldsV1(), c.want);
    });
  }

  const invalid: { name: string; json: unknown; message: string }[] = [
    { name: 'a non-object value', json: { 'f:a': 3 }, message: 'ReadMapCB' },
    { name: 'a key without colon', json: { xy: {} }, message: 'missing colon: xy' },
    { name: 'a bad index', json: { 'i:x': {} }, message: 'strconv.Atoi' },
  ];
  for (const c of invalid) {
    it(`rejects ${c.name}`, () => {
      assert.throws(() => FieldSet.fromFieldsV1(c.json), { message: new RegExp(c.message) });
    });
  }
});

const elements: PathElement[] = [
  f('a'),
  f('b'),
  f('c'),
  keyElement([['name', 'x']]),
  keyElement([
    ['port', 80],
    ['protocol', 'TCP'],
  ]),
  valueElement('v'),
  valueElement(1),
  indexElement(0),
  indexElement(10),
];
const pathArb: fc.Arbitrary<FieldPath> = fc.array(fc.constantFrom(...elements), {
  minLength: 1,
  maxLength: 4,
});
const setArb = fc.array(pathArb, { maxLength: 12 }).map((ps) => fieldSetOfPaths(ps));

/** A set read lazily from its own fieldsV1 behaves like the set itself in every operation. */
describe('lazily decoded sets', () => {
  it('agree with decoded sets on every operation', () => {
    fc.assert(
      fc.property(setArb, setArb, (s, o) => {
        const lazy = FieldSet.fromFieldsV1(s.toFieldsV1());
        const ops: [string, (x: FieldSet) => FieldSet][] = [
          ['union', (x) => x.union(o)],
          ['union (other side)', (x) => o.union(x)],
          ['intersection', (x) => x.intersection(o)],
          ['difference', (x) => x.difference(o)],
          ['difference (other side)', (x) => o.difference(x)],
          ['recursiveDifference', (x) => x.recursiveDifference(o)],
        ];
        for (const [name, op] of ops) {
          assert.deepEqual(op(lazy).encodeFieldsV1(), op(s).toFieldsV1(), name);
        }
        assert.deepEqual(lazy.paths(), s.paths());
        assert.equal(lazy.isEmpty(), s.isEmpty());
        assert.ok(lazy.equals(s));
      }),
      { numRuns: 300 },
    );
  });
});
