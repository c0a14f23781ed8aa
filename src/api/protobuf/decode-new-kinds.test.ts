/**
 * Decoding the kinds that had no protobuf tables before issue 14 (item 3): hand-built bodies
 * as Go's marshalers write them, and the JSON Go's `encoding/json` gives the same value.
 * CustomResourceDefinitions bring what no other kind has: doubles (fixed64), embedded JSON,
 * unions with a JSON form of their own, and a message that nests itself.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeKubernetesProtobuf, ProtobufDecodeError } from './decode.js';
import { envelope, fBytes, fDouble, fEntry, fVarint, tag, varint } from './testing/wire-writer.js';

type Json = Record<string, unknown>;

const CRD = ['apiextensions.k8s.io/v1', 'CustomResourceDefinition'] as const;

function decode(apiVersion: string, kind: string, ...fields: Buffer[]): Json {
  return decodeKubernetesProtobuf(envelope(apiVersion, kind, fields)).object;
}

/** A CRD whose one version has `schema` (a JSONSchemaProps payload) as its openAPIV3Schema. */
function crdWithSchema(schema: Buffer): Buffer {
  const version = fBytes(7, [fBytes(1, 'v1'), fBytes(4, [fBytes(1, schema)])]);
  return envelope(...CRD, fBytes(2, [version]));
}

function schemaOf(schema: Buffer): unknown {
  const crd = decodeKubernetesProtobuf(crdWithSchema(schema)).object;
  const versions = (crd.spec as Json).versions as Json[];
  return ((versions[0] as Json).schema as Json).openAPIV3Schema;
}

describe('decodeKubernetesProtobuf: core/v1 ResourceQuota, LimitRange, Binding', () => {
  it('decodes a quota with a scope selector, and empty structs as Go writes them', () => {
    const requirement = fBytes(1, [fBytes(1, 'PriorityClass'), fBytes(2, 'In'), fBytes(3, 'high')]);
    const d = decode(
      'v1',
      'ResourceQuota',
      fBytes(2, [fEntry(1, 'pods', fBytes(1, '10')), fBytes(3, [requirement])]),
    );
    assert.deepEqual(d.spec, {
      hard: { pods: '10' },
      scopeSelector: {
        matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }],
      },
    });
    assert.deepEqual(d.status, {});
  });

  it('writes a LimitRange without limits as null (the field has no omitempty)', () => {
    assert.deepEqual(decode('v1', 'LimitRange').spec, { limits: null });
    const item = fBytes(1, [fBytes(1, 'Container'), fEntry(4, 'cpu', fBytes(1, '500m'))]);
    assert.deepEqual(decode('v1', 'LimitRange', fBytes(2, [item])).spec, {
      limits: [{ type: 'Container', default: { cpu: '500m' } }],
    });
  });

  it('decodes a Binding with its target', () => {
    const d = decode('v1', 'Binding', fBytes(2, [fBytes(1, 'Node'), fBytes(3, 'n1')]));
    assert.deepEqual(d.target, { kind: 'Node', name: 'n1' });
  });
});

describe('decodeKubernetesProtobuf: discovery.k8s.io/v1 EndpointSlice', () => {
  it('puts addressType (field 4) first, keeps set pointer zeros, drops nil ones', () => {
    const endpoint = fBytes(2, [fBytes(1, '10.0.0.1'), fBytes(2, [fVarint(1, 0)])]);
    const port = fBytes(3, [fBytes(1, ''), fVarint(3, 0)]);
    const d = decode('discovery.k8s.io/v1', 'EndpointSlice', endpoint, port, fBytes(4, 'IPv4'));
    assert.deepEqual(Object.keys(d), [
      'kind',
      'apiVersion',
      'metadata',
      'addressType',
      'endpoints',
      'ports',
    ]);
    assert.deepEqual(d.endpoints, [{ addresses: ['10.0.0.1'], conditions: { ready: false } }]);
    assert.deepEqual(d.ports, [{ name: '', port: 0 }]);
  });
});

describe('decodeKubernetesProtobuf: apiextensions.k8s.io/v1 CustomResourceDefinition', () => {
  it('decodes doubles, int64s and embedded JSON (null when a set JSON is empty)', () => {
    const schema = schemaOf(
      Buffer.concat([
        fBytes(5, 'number'),
        fBytes(8, [fBytes(1, '{"a":[1,"x"]}')]),
        fDouble(9, 2.5),
        fDouble(11, 0),
        fVarint(13, 64),
        fBytes(20, [fBytes(1, '"on"')]),
        fBytes(20, []),
        fBytes(36, []),
      ]),
    );
    assert.deepEqual(schema, {
      type: 'number',
      default: { a: [1, 'x'] },
      maximum: 2.5,
      minimum: 0,
      maxLength: 64,
      enum: ['on', null],
      example: null,
    });
  });

  const props = (...fields: Buffer[]): Buffer => Buffer.concat(fields);
  const typed = (type: string): Buffer => fBytes(5, type);
  const unions: { name: string; schema: Buffer; want: Json }[] = [
    {
      name: 'items as one schema',
      schema: props(fBytes(24, [fBytes(1, typed('string'))])),
      want: { items: { type: 'string' } },
    },
    {
      name: 'items as a list of schemas',
      schema: props(fBytes(24, [fBytes(2, typed('string')), fBytes(2, typed('integer'))])),
      want: { items: [{ type: 'string' }, { type: 'integer' }] },
    },
    { name: 'items set but empty', schema: props(fBytes(24, [])), want: { items: null } },
    {
      name: 'additionalProperties false, additionalItems true',
      schema: props(fBytes(30, [fVarint(1, 0)]), fBytes(33, [fVarint(1, 1)])),
      want: { additionalProperties: false, additionalItems: true },
    },
    {
      name: 'additionalProperties as a schema',
      schema: props(fBytes(30, [fVarint(1, 1), fBytes(2, typed('string'))])),
      want: { additionalProperties: { type: 'string' } },
    },
    {
      name: 'dependencies as property lists and schemas',
      schema: props(
        fEntry(32, 'b', fBytes(1, typed('object'))),
        fEntry(32, 'a', Buffer.concat([fBytes(2, 'x'), fBytes(2, 'y')])),
        fEntry(32, 'c', Buffer.alloc(0)),
      ),
      want: { dependencies: { a: ['x', 'y'], b: { type: 'object' }, c: null } },
    },
  ];
  for (const c of unions) {
    it(`writes ${c.name} as Go's MarshalJSON does`, () => {
      assert.deepEqual(schemaOf(c.schema), c.want);
    });
  }

  it('keeps x-kubernetes names and Go field order', () => {
    const schema = schemaOf(
      Buffer.concat([
        fBytes(44, [fBytes(1, 'self > 0'), fBytes(4, 'FieldValueInvalid')]),
        fBytes(42, 'map'),
        fBytes(41, 'name'),
        fVarint(38, 1),
        fBytes(29, [fBytes(1, 'spec'), fBytes(2, [fVarint(38, 0)])]),
        fBytes(3, '#/definitions/x'),
      ]),
    );
    assert.deepEqual(
      JSON.stringify(schema),
      JSON.stringify({
        $ref: '#/definitions/x',
        properties: { spec: { 'x-kubernetes-preserve-unknown-fields': false } },
        'x-kubernetes-preserve-unknown-fields': true,
        'x-kubernetes-list-map-keys': ['name'],
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-validations': [{ rule: 'self > 0', reason: 'FieldValueInvalid' }],
      }),
    );
  });

  const rejected: { name: string; schema: Buffer; message: RegExp }[] = [
    {
      name: 'NaN',
      schema: fDouble(9, Number.NaN),
      message: /NaN at .*maximum is not a JSON number/,
    },
    {
      name: 'an infinity',
      schema: fDouble(19, Number.NEGATIVE_INFINITY),
      message: /-Infinity .* is not a JSON number/,
    },
    { name: 'a double as a varint', schema: fVarint(9, 1), message: /wrong wire type 0/ },
    {
      name: 'JSON that is not JSON',
      schema: fBytes(8, [fBytes(1, '{')]),
      message: /does not hold JSON/,
    },
  ];
  for (const c of rejected) {
    it(`rejects ${c.name} with 400`, () => {
      assert.throws(
        () => decodeKubernetesProtobuf(crdWithSchema(c.schema)),
        (e: unknown) => {
          assert.ok(e instanceof ProtobufDecodeError, String(e));
          assert.match(e.message, c.message);
          return true;
        },
      );
    });
  }

  it('refuses schemas nested past 500 messages with 400, never overflowing the stack', () => {
    // `not` (field 28) around `not` …: headers outside-in, one copy (nesting fBytes is O(n²)).
    const nest = (levels: number): Buffer => {
      const inner = typed('string');
      const headers: Buffer[] = [];
      let size = inner.length;
      for (let i = 0; i < levels; i++) {
        const header = Buffer.concat([tag(28, 2), varint(size)]);
        headers.push(header);
        size += header.length;
      }
      return Buffer.concat([...headers.reverse(), inner]);
    };
    // The schema is the 5th message of the CRD: 490 `not`s stay within 500 levels.
    assert.ok(schemaOf(nest(490)));
    for (const levels of [496, 50_000]) {
      assert.throws(
        () => decodeKubernetesProtobuf(crdWithSchema(nest(levels))),
        (e: unknown) => e instanceof ProtobufDecodeError && /nested more than 500/.test(e.message),
      );
    }
  });
});
