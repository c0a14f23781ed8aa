import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldErrorText } from '../field-error.js';
import type { Schema, ValidationRule } from '../schema/types.js';
import { compileSchemaValidations } from './compile.js';
import { type ValidateOptions, validateWithCel } from './validate.js';

/** The fields the Kubernetes docs' "Validation rules" examples use. */
const SPEC_FIELDS: Record<string, Schema> = {
  replicas: { type: 'integer' },
  minReplicas: { type: 'integer' },
  maxReplicas: { type: 'integer' },
  stateCounts: { type: 'object', additionalProperties: { type: 'integer' } },
  list1: { type: 'array', items: { type: 'string' } },
  list2: { type: 'array', items: { type: 'string' } },
  map1: { type: 'object', additionalProperties: { type: 'string' } },
  envars: {
    type: 'array',
    items: { type: 'object', properties: { name: { type: 'string' }, value: { type: 'string' } } },
  },
  created: { type: 'string', format: 'date-time' },
  expired: { type: 'string', format: 'date-time' },
  ttl: { type: 'string', format: 'duration' },
  health: { type: 'string' },
  widgets: {
    type: 'array',
    items: { type: 'object', properties: { key: { type: 'string' }, foo: { type: 'integer' } } },
  },
  intOrString: { 'x-kubernetes-int-or-string': true },
  prefix: { type: 'string' },
  set1: { type: 'array', items: { type: 'string' } },
  set2: { type: 'array', items: { type: 'string' } },
  names: { type: 'array', items: { type: 'string' } },
  details: { type: 'object', additionalProperties: { type: 'string' } },
  clusters: {
    type: 'array',
    items: { type: 'object', properties: { name: { type: 'string' } } },
  },
  primary: { type: 'string' },
  foo: { type: 'string' },
  'x-y': { type: 'string' },
  quota: { type: 'string' },
};

function crd(rules: readonly ValidationRule[], specRules: readonly ValidationRule[] = []): Schema {
  return {
    type: 'object',
    'x-kubernetes-validations': rules,
    properties: {
      spec: { type: 'object', properties: SPEC_FIELDS, 'x-kubernetes-validations': specRules },
    },
  };
}

function run(schema: Schema, obj: unknown, old?: unknown, options?: ValidateOptions): string[] {
  const { compiled, errors } = compileSchemaValidations(schema);
  assert.deepEqual(errors.map(fieldErrorText), []);
  return validateWithCel(compiled, obj, old, options).map(fieldErrorText);
}

const specRule = (rule: string, spec: Record<string, unknown>): string[] =>
  run(crd([], [{ rule }]), { metadata: { name: 'foo-1' }, spec });

describe('validateWithCel: the Kubernetes docs examples', () => {
  const EXAMPLES: readonly (readonly [string, Record<string, unknown>, Record<string, unknown>])[] =
    [
      [
        'self.minReplicas <= self.replicas',
        { minReplicas: 1, replicas: 2 },
        { minReplicas: 3, replicas: 2 },
      ],
      [
        "'Available' in self.stateCounts",
        { stateCounts: { Available: 1 } },
        { stateCounts: { Pending: 1 } },
      ],
      [
        '(size(self.list1) == 0) != (size(self.list2) == 0)',
        { list1: ['a'], list2: [] },
        { list1: ['a'], list2: ['b'] },
      ],
      [
        "!('MY_KEY' in self.map1) || self.map1['MY_KEY'].matches('^[a-zA-Z]*$')",
        { map1: { MY_KEY: 'abc' } },
        { map1: { MY_KEY: 'a1' } },
      ],
      [
        "self.envars.filter(e, e.name == 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$'))",
        {
          envars: [
            { name: 'MY_ENV', value: 'abc' },
            { name: 'X', value: '1' },
          ],
        },
        { envars: [{ name: 'MY_ENV', value: '1' }] },
      ],
      [
        'has(self.expired) && self.created + self.ttl < self.expired',
        { created: '2024-01-01T00:00:00Z', ttl: '1h', expired: '2024-01-01T02:00:00Z' },
        { created: '2024-01-01T00:00:00Z', ttl: '3h', expired: '2024-01-01T02:00:00Z' },
      ],
      ["self.health.startsWith('ok')", { health: 'ok: fine' }, { health: 'bad' }],
      [
        "self.widgets.exists(w, w.key == 'x' && w.foo < 10)",
        { widgets: [{ key: 'x', foo: 5 }] },
        { widgets: [{ key: 'x', foo: 50 }] },
      ],
      [
        "type(self.intOrString) == string ? self.intOrString == '100%' : self.intOrString == 1000",
        { intOrString: 1000 },
        { intOrString: '50%' },
      ],
      [
        'self.set1.all(e, !(e in self.set2))',
        { set1: ['a'], set2: ['b'] },
        { set1: ['a'], set2: ['a'] },
      ],
      [
        'size(self.names) == size(self.details) && self.names.all(n, n in self.details)',
        { names: ['a'], details: { a: 'x' } },
        { names: ['a'], details: { b: 'x' } },
      ],
      [
        'size(self.clusters.filter(c, c.name == self.primary)) == 1',
        { clusters: [{ name: 'a' }], primary: 'a' },
        { clusters: [{ name: 'b' }], primary: 'a' },
      ],
      ["self.x__dash__y == 'z'", { 'x-y': 'z' }, { 'x-y': 'q' }],
      ["quantity(self.quota).isLessThan(quantity('2Gi'))", { quota: '1Gi' }, { quota: '3Gi' }],
    ];
  for (const [rule, pass, fail] of EXAMPLES) {
    it(rule, () => {
      assert.deepEqual(specRule(rule, pass), []);
      assert.deepEqual(specRule(rule, fail), [
        `spec: Invalid value: "object": failed rule: ${rule}`,
      ]);
    });
  }

  it('reads metadata.name at the root, and reports root errors at <nil>', () => {
    const schema = crd([{ rule: 'self.metadata.name.startsWith(self.spec.prefix)' }]);
    assert.deepEqual(run(schema, { metadata: { name: 'ab' }, spec: { prefix: 'a' } }), []);
    assert.deepEqual(run(schema, { metadata: { name: 'ab' }, spec: { prefix: 'b' } }), [
      '<nil>: Invalid value: "object": failed rule: self.metadata.name.startsWith(self.spec.prefix)',
    ]);
  });

  it('treats null fields as absent', () => {
    assert.deepEqual(specRule('!has(self.health)', { health: null }), []);
  });
});

describe('validateWithCel: transition rules', () => {
  const immutable = crd([], [{ rule: 'self.foo == oldSelf.foo', message: 'foo is immutable' }]);

  it('skips transition rules on create and enforces them on update', () => {
    assert.deepEqual(run(immutable, { spec: { foo: 'a' } }), []);
    assert.deepEqual(run(immutable, { spec: { foo: 'a' } }, { spec: { foo: 'a' } }), []);
    assert.deepEqual(run(immutable, { spec: { foo: 'b' } }, { spec: { foo: 'a' } }), [
      'spec: Invalid value: "object": foo is immutable',
    ]);
  });

  it('"may only increase" on a scalar', () => {
    const schema: Schema = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            replicas: {
              type: 'integer',
              'x-kubernetes-validations': [
                { rule: 'self >= oldSelf', message: 'may only increase' },
              ],
            },
          },
        },
      },
    };
    assert.deepEqual(run(schema, { spec: { replicas: 3 } }, { spec: { replicas: 2 } }), []);
    assert.deepEqual(run(schema, { spec: { replicas: 1 } }, { spec: { replicas: 2 } }), [
      'spec.replicas: Invalid value: "integer": may only increase',
    ]);
    // Set on update where the old object lacked it: no old value, rule skipped.
    assert.deepEqual(run(schema, { spec: { replicas: 1 } }, { spec: {} }), []);
  });

  it('correlates map-list items by key only', () => {
    const schema: Schema = {
      type: 'object',
      properties: {
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: {
            type: 'object',
            properties: { name: { type: 'string' }, port: { type: 'integer' } },
            'x-kubernetes-validations': [
              { rule: 'self.port == oldSelf.port', message: 'port is immutable' },
            ],
          },
        },
      },
    };
    const old = {
      ports: [
        { name: 'a', port: 1 },
        { name: 'b', port: 2 },
      ],
    };
    assert.deepEqual(
      run(
        schema,
        {
          ports: [
            { name: 'b', port: 2 },
            { name: 'a', port: 1 },
          ],
        },
        old,
      ),
      [],
    );
    assert.deepEqual(
      run(
        schema,
        {
          ports: [
            { name: 'c', port: 9 },
            { name: 'a', port: 5 },
          ],
        },
        old,
      ),
      ['ports[1]: Invalid value: "object": port is immutable'],
    );
  });

  it('evaluates optionalOldSelf rules on create too', () => {
    const schema = crd(
      [],
      [
        {
          rule: '!oldSelf.hasValue() || self.foo == oldSelf.value().foo',
          optionalOldSelf: true,
          message: 'frozen',
        },
        {
          rule: 'oldSelf.hasValue() || self.foo == "init"',
          optionalOldSelf: true,
          message: 'must start at init',
        },
      ],
    );
    assert.deepEqual(run(schema, { spec: { foo: 'x' } }), [
      'spec: Invalid value: "object": must start at init',
    ]);
    assert.deepEqual(run(schema, { spec: { foo: 'init' } }), []);
    assert.deepEqual(run(schema, { spec: { foo: 'y' } }, { spec: { foo: 'init' } }), [
      'spec: Invalid value: "object": frozen',
    ]);
  });
});

describe('validateWithCel: messages, field paths and reasons', () => {
  const CASES: readonly (readonly [ValidationRule, string])[] = [
    [
      { rule: 'self.replicas > 0' },
      'spec: Invalid value: "object": failed rule: self.replicas > 0',
    ],
    [
      { rule: 'self.replicas > 0', message: ' must be positive ' },
      'spec: Invalid value: "object": must be positive',
    ],
    [
      {
        rule: 'self.replicas > 0',
        messageExpression: '"replicas is " + string(self.replicas)',
        message: 'unused',
      },
      'spec: Invalid value: "object": replicas is 0',
    ],
    [
      { rule: 'self.replicas > 0', messageExpression: '""', message: 'fallback' },
      'spec: Invalid value: "object": fallback',
    ],
    [
      { rule: 'self.replicas > 0', messageExpression: 'self.foo' },
      'spec: Invalid value: "object": failed rule: self.replicas > 0',
    ],
    [
      { rule: 'self.replicas > 0', fieldPath: '.replicas', message: 'bad' },
      'spec.replicas: Invalid value: "object": bad',
    ],
    [
      { rule: 'self.replicas > 0', fieldPath: ".stateCounts['a.b']", message: 'bad' },
      'spec.stateCounts[a.b]: Invalid value: "object": bad',
    ],
    [
      { rule: 'self.replicas > 0', reason: 'FieldValueForbidden', message: 'no' },
      'spec: Forbidden: no',
    ],
    [
      { rule: 'self.replicas > 0', reason: 'FieldValueRequired', message: 'need' },
      'spec: Required value: need',
    ],
    [
      { rule: 'self.replicas > 0', reason: 'FieldValueDuplicate', message: 'dup' },
      'spec: Duplicate value: "object"',
    ],
  ];
  for (const [rule, want] of CASES) {
    it(JSON.stringify(rule), () => {
      assert.deepEqual(run(crd([], [rule]), { spec: { replicas: 0 } }), [want]);
    });
  }
});

describe('validateWithCel: runtime errors and cost', () => {
  it('reports a missing key as upstream', () => {
    assert.deepEqual(specRule('self.foo == "x"', { replicas: 1 }), [
      'spec: Invalid value: "object": no such key: foo evaluating rule: self.foo == "x"',
    ]);
  });

  it('reports a runtime overload failure as upstream', () => {
    assert.deepEqual(specRule('self.intOrString > 1', { intOrString: 'x' }), [
      `spec: Invalid value: "object": 'no such overload': call arguments did not match a supported operator, function or macro signature for rule: self.intOrString > 1`,
    ]);
  });

  it('reports division by zero with the rule message when there is one', () => {
    const errs = run(crd([], [{ rule: '1 / self.replicas > 0', message: 'positive' }]), {
      spec: { replicas: 0 },
    });
    assert.deepEqual(errs, [
      'spec: Invalid value: "object": division by zero evaluating rule: positive',
    ]);
  });

  const quadratic = 'self.names.all(a, self.names.all(b, a == b || a != b))';

  it('stops a rule that exceeds the per-call limit and skips the rest', () => {
    const names = Array.from({ length: 300 }, (_, i) => `n${i}`);
    const schema = crd([], [{ rule: quadratic }, { rule: 'self.replicas > 100' }]);
    assert.deepEqual(
      run(schema, { spec: { names, replicas: 1 } }, undefined, { perCallLimit: 10_000 }),
      [
        `spec: Invalid value: "object": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${quadratic}`,
      ],
    );
  });

  it('stops when the object budget runs out', () => {
    const schema: Schema = {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            type: 'object',
            properties: { n: { type: 'integer' } },
            'x-kubernetes-validations': [{ rule: 'self.n >= 0' }],
          },
        },
      },
    };
    const items = Array.from({ length: 50 }, () => ({ n: 1 }));
    const errs = run(schema, { items }, undefined, { costBudget: 20 });
    assert.equal(errs.length, 1);
    assert.match(
      errs[0] ?? '',
      /^items\[\d+\]: Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run$/,
    );
  });

  it('ratchets errors on unchanged values into warnings', () => {
    const schema = crd([], [{ rule: 'self.replicas > 0', message: 'positive' }]);
    const warnings: string[] = [];
    const obj = { metadata: { name: 'x' }, spec: { replicas: 0 } };
    assert.deepEqual(
      run(schema, obj, structuredClone(obj), { onWarning: (w) => warnings.push(w) }),
      [],
    );
    assert.deepEqual(warnings, ['spec: Invalid value: "object": positive']);
    assert.deepEqual(run(schema, obj, structuredClone(obj), { ratcheting: false }), [
      'spec: Invalid value: "object": positive',
    ]);
    const changed = { metadata: { name: 'x' }, spec: { replicas: -1 } };
    assert.deepEqual(run(schema, changed, obj), ['spec: Invalid value: "object": positive']);
  });
});
