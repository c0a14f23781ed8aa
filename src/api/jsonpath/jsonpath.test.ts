/**
 * JSONPath cases taken from upstream's `client-go/util/jsonpath/jsonpath_test.go`, with the
 * Go fixtures rewritten as the JSON they marshal to.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  evaluateJsonPath,
  executeJsonPath,
  JsonPathError,
  parseJsonPath,
  relaxedJsonPathExpression,
  simpleJsonPathError,
} from './index.js';

interface Case {
  readonly name: string;
  readonly template: string;
  readonly input: unknown;
  readonly expect?: string;
  /** Expected error text (exact) when `expect` is absent. */
  readonly error?: string | RegExp;
  readonly allowMissingKeys?: boolean;
}

function run(c: Case): void {
  const exec = (): string =>
    executeJsonPath(parseJsonPath(c.template), c.input, {
      allowMissingKeys: c.allowMissingKeys ?? false,
    });
  if (c.expect !== undefined) {
    assert.equal(exec(), c.expect, c.name);
  } else {
    assert.throws(exec, (e: unknown) => {
      assert.ok(e instanceof JsonPathError, `${c.name}: ${String(e)}`);
      if (typeof c.error === 'string') assert.equal(e.message, c.error, c.name);
      else if (c.error !== undefined) assert.match(e.message, c.error, c.name);
      return true;
    });
  }
}

const types = {
  bools: [true, false, true, false],
  integers: [1, 2, 3, 4],
  floats: [1.0, 2.2, 3.3, 4.0],
  strings: ['one', 'two', 'three', 'four'],
  interfaces: [true, 'one', 1, 1.1],
  maps: [
    { name: 'one', value: 1 },
    { name: 'two', value: 2.02 },
    { name: 'three', value: 3.03 },
    { name: 'four', value: 4.04 },
  ],
};

const store = {
  Name: 'jsonpath',
  Book: [
    { Category: 'reference', Author: 'Nigel Rees', Title: 'Sayings of the Centurey', Price: 8.95 },
    { Category: 'fiction', Author: 'Evelyn Waugh', Title: 'Sword of Honour', Price: 12.99 },
    { Category: 'fiction', Author: 'Herman Melville', Title: 'Moby Dick', Price: 8.99 },
  ],
  Bicycle: [
    { Color: 'red', Price: 19.95, IsNew: true },
    { Color: 'green', Price: 20.01, IsNew: false },
  ],
  Labels: { engieer: 10, 'web/html': 15, 'k8s-app': 20 },
  Employees: { jason: 'manager', dan: 'clerk' },
};

const nodes = {
  kind: 'List',
  items: [
    {
      kind: 'None',
      metadata: { name: '127.0.0.1', labels: { 'kubernetes.io/hostname': '127.0.0.1' } },
      status: {
        capacity: { cpu: '4' },
        ready: true,
        addresses: [{ type: 'LegacyHostIP', address: '127.0.0.1' }],
      },
    },
    {
      kind: 'None',
      metadata: { name: '127.0.0.2', labels: { 'kubernetes.io/hostname': '127.0.0.2' } },
      status: {
        capacity: { cpu: '8' },
        ready: false,
        addresses: [
          { type: 'LegacyHostIP', address: '127.0.0.2' },
          { type: 'another', address: '127.0.0.3' },
        ],
      },
    },
  ],
  users: [
    { name: 'myself', user: {} },
    { name: 'e2e', user: { username: 'admin', password: 'secret' } },
  ],
};

const containers = (n: number) => ({
  spec: { containers: Array.from({ length: n }, (_, i) => ({ name: `fake${i}` })) },
});

describe('jsonpath: upstream TestTypesInput', () => {
  const cases: Case[] = [
    { name: 'boolSlice', template: '{ .bools }', input: types, expect: '[true,false,true,false]' },
    { name: 'boolSliceIndex', template: '{ .bools[-1] }', input: types, expect: 'false' },
    { name: 'boolSubSlice', template: '{ .bools[0:2] }', input: types, expect: 'true false' },
    { name: 'boolSubSliceStep2', template: '{ .bools[:4:2] }', input: types, expect: 'true true' },
    { name: 'integerSliceIndexReverse', template: '{ .integers[-2] }', input: types, expect: '3' },
    { name: 'floatSlice', template: '{ .floats }', input: types, expect: '[1,2.2,3.3,4]' },
    { name: 'floatSubSliceStep2', template: '{ .floats[:4:2] }', input: types, expect: '1 3.3' },
    {
      name: 'stringSlice',
      template: '{ .strings }',
      input: types,
      expect: '["one","two","three","four"]',
    },
    {
      name: 'interfaceSubSliceStep2',
      template: '{ .interfaces[:4:2] }',
      input: types,
      expect: 'true 1',
    },
    {
      name: 'mapSubSliceStepEven',
      template: '{ .maps[1::2] }',
      input: types,
      expect: '{"name":"two","value":2.02} {"name":"four","value":4.04}',
    },
  ];
  for (const c of cases) it(c.name, () => run(c));
});

describe('jsonpath: upstream TestStructInput (as JSON)', () => {
  const cases: Case[] = [
    { name: 'plain', template: 'hello jsonpath', input: null, expect: 'hello jsonpath' },
    { name: 'recursive', template: '{..}', input: [1, 2, 3], expect: '[1,2,3]' },
    { name: 'filter', template: '{[?(@<5)]}', input: [2, 6, 3, 7], expect: '2 3' },
    { name: 'quote', template: '{"{"}', input: null, expect: '{' },
    { name: 'union', template: '{[1,3,4]}', input: [0, 1, 2, 3, 4], expect: '1 3 4' },
    {
      name: 'array',
      template: '{[0:2]}',
      input: ['Monday', 'Tudesday'],
      expect: 'Monday Tudesday',
    },
    { name: 'variable', template: 'hello {.Name}', input: store, expect: 'hello jsonpath' },
    { name: 'dict/', template: '{$.Labels.web/html}', input: store, expect: '15' },
    { name: 'dict-', template: '{.Labels.k8s-app}', input: store, expect: '20' },
    { name: 'nest', template: '{.Bicycle[*].Color}', input: store, expect: 'red green' },
    {
      name: 'allfields',
      template: '{range .Bicycle[*]}{ "{" }{ @.* }{ "} " }{end}',
      input: store,
      expect: '{red 19.95 true} {green 20.01 false} ',
    },
    {
      name: 'recurfields',
      template: '{..Price}',
      input: store,
      expect: '8.95 12.99 8.99 19.95 20.01',
    },
    {
      name: 'recurdotfields',
      template: '{...Price}',
      input: store,
      expect: '8.95 12.99 8.99 19.95 20.01',
    },
    {
      name: 'superrecurfields',
      template: '{............................................................Price}',
      input: store,
      error: 'invalid multiple recursive descent',
    },
    {
      name: 'lastarray',
      template: '{.Book[-1:]}',
      input: store,
      expect: '{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}',
    },
    {
      name: 'bool',
      template: '{.Bicycle[?(@.IsNew==true)]}',
      input: store,
      expect: '{"Color":"red","IsNew":true,"Price":19.95}',
    },
    {
      name: 'invalid identifier',
      template: '{hello}',
      input: store,
      error: 'unrecognized identifier hello',
    },
    { name: 'nonexistent field', template: '{.hello}', input: store, error: 'hello is not found' },
    {
      name: 'invalid array',
      template: '{.Labels[0]}',
      input: store,
      error: 'map[string]interface {} is not array or slice',
    },
    {
      name: 'invalid filter operator',
      template: '{.Book[?(@.Price<>10)]}',
      input: store,
      error: 'unrecognized filter operator <>',
    },
    {
      name: 'redundant end',
      template: '{range .Labels.*}{@}{end}{end}',
      input: store,
      error: 'not in range, nothing to end',
    },
    {
      name: 'missing key allowed',
      template: '{.hello}',
      input: store,
      expect: '',
      allowMissingKeys: true,
    },
    {
      name: 'missing key allowed 2',
      template: 'before-{.hello}after',
      input: store,
      expect: 'before-after',
      allowMissingKeys: true,
    },
  ];
  for (const c of cases) it(c.name, () => run(c));
});

describe('jsonpath: upstream TestKubernetes and friends', () => {
  const points = [
    { id: 'i1', x: 4, y: -5 },
    { id: 'i2', x: -2, y: -5, z: 1 },
    { id: 'i3', x: 8, y: 3 },
    { id: 'i4', x: -6, y: -1 },
    { id: 'i5', x: 0, y: 2, z: 1 },
    { id: 'i6', x: 1, y: 4 },
  ];
  const cases: Case[] = [
    { name: 'exists filter', template: '{[?(@.z)].id}', input: points, expect: 'i2 i5' },
    { name: 'bracket key', template: "{[0]['id']}", input: points, expect: 'i1' },
    {
      name: 'range item',
      template: '{range .items[*]}{.metadata.name}, {end}{.kind}',
      input: nodes,
      expect: '127.0.0.1, 127.0.0.2, List',
    },
    {
      name: 'range item with quote',
      template: '{range .items[*]}{.metadata.name}{"\\t"}{end}',
      input: nodes,
      expect: '127.0.0.1\t127.0.0.2\t',
    },
    {
      name: 'double range',
      template: '{range .items[*]}{range .status.addresses[*]}{.address}, {end}{end}',
      input: nodes,
      expect: '127.0.0.1, 127.0.0.2, 127.0.0.3, ',
    },
    {
      name: 'union nodes capacity (a quoted key is a dotted path)',
      template: "{.items[*]['metadata.name', 'status.capacity']}",
      input: nodes,
      expect: '127.0.0.1 127.0.0.2 {"cpu":"4"} {"cpu":"8"}',
    },
    {
      name: 'range nodes capacity',
      template: '{range .items[*]}[{.metadata.name}, {.status.capacity}] {end}',
      input: nodes,
      expect: '[127.0.0.1, {"cpu":"4"}] [127.0.0.2, {"cpu":"8"}] ',
    },
    {
      name: 'user password',
      template: '{.users[?(@.name=="e2e")].user.password}',
      input: nodes,
      expect: 'secret',
    },
    {
      name: 'hostname (escaped dot)',
      template: '{.items[0].metadata.labels.kubernetes\\.io/hostname}',
      input: nodes,
      expect: '127.0.0.1',
    },
    {
      name: 'hostname filter',
      template: '{.items[?(@.metadata.labels.kubernetes\\.io/hostname=="127.0.0.1")].kind}',
      input: nodes,
      expect: 'None',
    },
    {
      name: 'bool item',
      template: '{.items[?(@..ready==true)].metadata.name}',
      input: nodes,
      expect: '127.0.0.1',
    },
    {
      name: 'empty range',
      template: '{range .items[*]}{.metadata.name}{end}',
      input: { items: [] },
      expect: '',
      allowMissingKeys: true,
    },
    {
      name: 'empty nested range',
      template:
        '{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}{"+"}{end}',
      input: { items: [] },
      expect: '',
      allowMissingKeys: true,
    },
    {
      name: 'range over a filter, some items without the field',
      template:
        '{range .items[?(.status.phase=="Running")]}{.metadata.name}{" is Running\\n"}{end}',
      input: {
        items: [
          { metadata: { name: 'pod1' }, status: { phase: 'Running' } },
          { metadata: { name: 'pod2' }, status: { phase: 'Running' } },
          { resourceVersion: '' },
        ],
      },
      expect: 'pod1 is Running\npod2 is Running\n',
      allowMissingKeys: true,
    },
    {
      name: 'filter on missing annotations, missing keys allowed',
      template: '{.items[?(@.metadata.annotations.color=="blue")].metadata.name}',
      input: {
        items: [
          { metadata: { name: 'pod1', annotations: { color: 'blue' } } },
          { metadata: { name: 'pod2' } },
          { metadata: { name: 'pod4', annotations: { color: 'blue' } } },
        ],
      },
      expect: 'pod1 pod4',
      allowMissingKeys: true,
    },
    {
      name: 'filter on missing annotations, missing keys an error',
      template: '{.items[?(@.metadata.annotations.color=="blue")].metadata.name}',
      input: { items: [{ metadata: { name: 'pod2' } }] },
      error: 'annotations is not found',
    },
    {
      name: 'nested ranges',
      template:
        '{range .items[*]}{.metadata.name}{"~"}{range @.spec.containers[*]}{.name}{":"}{range @.another[*]}{.name}{","}{end}{"+"}{end}{"#"}{end}',
      input: {
        items: [
          {
            metadata: { name: 'pod1' },
            spec: { containers: [{ name: 'foo', another: [{ name: 'v1' }, { name: 'v2' }] }] },
          },
          {
            metadata: { name: 'pod2' },
            spec: { containers: [{ name: 'baz', another: [{ name: 'v1' }] }] },
          },
        ],
      },
      expect: 'pod1~foo:v1,v2,+#pod2~baz:v1,+#',
    },
  ];
  for (const c of cases) it(c.name, () => run(c));
});

describe('jsonpath: upstream TestNegativeIndex and TestStep', () => {
  const four = containers(4);
  const six = containers(6);
  const cases: Case[] = [
    { name: '[0:0]', template: '{.spec.containers[0:0].name}', input: four, expect: '' },
    {
      name: '[0:-1]',
      template: '{.spec.containers[0:-1].name}',
      input: four,
      expect: 'fake0 fake1 fake2',
    },
    {
      name: '[-1:0]',
      template: '{.spec.containers[-1:0].name}',
      input: four,
      error: 'starting index 3 is greater than ending index 0',
    },
    { name: '[-1]', template: '{.spec.containers[-1].name}', input: four, expect: 'fake3' },
    { name: '[-2:]', template: '{.spec.containers[-2:].name}', input: four, expect: 'fake2 fake3' },
    { name: '[-4]', template: '{.spec.containers[-4].name}', input: four, expect: 'fake0' },
    {
      name: '[-5]',
      template: '{.spec.containers[-5].name}',
      input: four,
      error: 'array index out of bounds: index -1, length 4',
    },
    { name: '[5:5]', template: '{.spec.containers[5:5].name}', input: four, expect: '' },
    { name: '[-5:-5]', template: '{.spec.containers[-5:-5].name}', input: four, expect: '' },
    {
      name: '[3:1]',
      template: '{.spec.containers[3:1].name}',
      input: four,
      error: 'starting index 3 is greater than ending index 1',
    },
    {
      name: '[0:6:]',
      template: '{.spec.containers[0:6:].name}',
      input: six,
      expect: 'fake0 fake1 fake2 fake3 fake4 fake5',
    },
    {
      name: '[0:6:0]',
      template: '{.spec.containers[0:6:0].name}',
      input: six,
      error: 'step must be > 0',
    },
    {
      name: '[0:6:-1]',
      template: '{.spec.containers[0:6:-1].name}',
      input: six,
      error: 'step must be > 0',
    },
    {
      name: '[1:4:2]',
      template: '{.spec.containers[1:4:2].name}',
      input: six,
      expect: 'fake1 fake3',
    },
    {
      name: '[0:6:5]',
      template: '{.spec.containers[0:6:5].name}',
      input: six,
      expect: 'fake0 fake5',
    },
    {
      name: '[7]',
      template: '{.spec.containers[7].name}',
      input: six,
      error: 'array index out of bounds: index 7, length 6',
    },
  ];
  for (const c of cases) it(c.name, () => run(c));
});

describe('jsonpath: parse errors', () => {
  const cases: Array<[string, string]> = [
    ['{.a', 'unclosed action'],
    ['{.a[0}', 'unterminated array'],
    ['{.a[x]}', 'invalid array index x'],
    ['{.a[?(@.x=="y")}', 'unclosed array expect ]'],
    ['{.a[?(@.x=="y"}', 'unterminated filter'],
    ['{"abc}', 'unterminated quoted string'],
    ['{#}', "unrecognized character in action: U+0023 '#'"],
    ['{1.2.3}', 'cannot parse number 1.2.3'],
    ['{.a....b}', 'invalid multiple recursive descent'],
  ];
  for (const [template, message] of cases) {
    it(template, () => assert.throws(() => parseJsonPath(template), new JsonPathError(message)));
  }
});

describe('jsonpath: filters compare like Go templates', () => {
  const data = { xs: [{ n: 1, s: 'a', f: 1.5 }, { n: 2, s: 'b', f: 2.5 }, { m: 3 }] };
  const cases: Case[] = [
    {
      name: 'int <',
      template: '{.xs[?(@.n<2)].s}',
      input: data,
      expect: 'a',
      allowMissingKeys: true,
    },
    {
      name: 'int >=',
      template: '{.xs[?(@.n>=2)].s}',
      input: data,
      expect: 'b',
      allowMissingKeys: true,
    },
    {
      name: 'string !=',
      template: "{.xs[?(@.s!='a')].n}",
      input: data,
      expect: '2',
      allowMissingKeys: true,
    },
    {
      name: 'float >',
      template: '{.xs[?(@.f>2.0)].s}',
      input: data,
      expect: 'b',
      allowMissingKeys: true,
    },
    {
      name: 'int vs float',
      template: '{.xs[?(@.n==1.5)].s}',
      input: data,
      error: 'incompatible types for comparison',
      allowMissingKeys: true,
    },
    {
      name: 'map compared',
      template: '{[?(@.a==1)]}',
      input: [{ a: { b: 1 } }],
      error: 'invalid type for comparison',
    },
    {
      name: 'filter on a map',
      template: '{.m[?(@.a)]}',
      input: { m: { a: 1 } },
      error: 'map[a:1] is not array or slice and cannot be filtered',
    },
  ];
  for (const c of cases) it(c.name, () => run(c));
});

describe('jsonpath: printing', () => {
  it('prints scalars as Go %v and null as <nil>', () => {
    const data = { small: 0.00001, big: 1e21, neg: -2.5, nul: null, html: { t: '<a&b>' } };
    assert.equal(
      executeJsonPath(parseJsonPath('{.small} {.big} {.neg} {.nul}'), data),
      '1e-05 1e+21 -2.5 <nil>',
    );
    assert.equal(
      executeJsonPath(parseJsonPath('{.html}'), data),
      '{"t":"\\u003ca\\u0026b\\u003e"}',
    );
  });
});

describe('evaluateJsonPath', () => {
  const pod = {
    status: {
      conditions: [
        { type: 'Initialized', status: 'True' },
        { type: 'Ready', status: 'False' },
      ],
    },
    metadata: { labels: { 'app.kubernetes.io/name': 'web' } },
  };
  it('takes bare paths and returns values per template node', () => {
    assert.deepEqual(evaluateJsonPath('.status.conditions[?(@.type=="Ready")].status', pod), [
      ['False'],
    ]);
    assert.deepEqual(evaluateJsonPath('{.status.conditions[*].type}', pod), [
      ['Initialized', 'Ready'],
    ]);
    assert.deepEqual(evaluateJsonPath('n={.status.conditions[0].status}', pod), [['n='], ['True']]);
    assert.deepEqual(evaluateJsonPath('.metadata.labels.app\\.kubernetes\\.io/name', pod), [
      ['web'],
    ]);
  });
  it('returns the values themselves, not copies', () => {
    const [[conditions]] = evaluateJsonPath('.status.conditions', pod) as [[unknown]];
    assert.equal(conditions, pod.status.conditions);
  });
});

describe('relaxedJsonPathExpression and simpleJsonPathError', () => {
  it('normalises the four spellings kubectl accepts', () => {
    for (const e of ['a.b', '.a.b', '{a.b}', '{.a.b}'])
      assert.equal(relaxedJsonPathExpression(e), '{.a.b}');
    assert.throws(() => relaxedJsonPathExpression('{a}{b}'), JsonPathError);
  });
  it('has upstream validateSimpleJSONPath messages', () => {
    assert.equal(simpleJsonPathError(''), 'must not be empty');
    assert.equal(simpleJsonPathError('spec.x'), 'must be a simple json path starting with .');
    assert.equal(simpleJsonPathError('.spec.x'), undefined);
  });
});

describe('jsonpath: properties', () => {
  it('never fails with anything but JsonPathError on arbitrary templates and data', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.jsonValue({ maxDepth: 4 }), (template, data) => {
        try {
          executeJsonPath(parseJsonPath(template), data, { allowMissingKeys: true });
        } catch (e) {
          if (!(e instanceof JsonPathError)) throw e;
        }
      }),
      { numRuns: 2000 },
    );
  });
  it('a path to an existing field finds exactly that value', () => {
    const key = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_-]{0,8}$/);
    fc.assert(
      fc.property(fc.array(key, { minLength: 1, maxLength: 4 }), fc.jsonValue(), (keys, leaf) => {
        let data: unknown = leaf;
        for (const k of [...keys].reverse()) data = { [k]: data };
        assert.deepEqual(evaluateJsonPath(`.${keys.join('.')}`, data), [[leaf]]);
      }),
    );
  });
});
