import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { KubeObject } from '../../api/object.js';
import type { Schema } from '../../api/schema/types.js';
import { pruneUnknownFields } from './prune.js';

interface Case {
  readonly name: string;
  readonly schema: Schema | undefined;
  readonly input: KubeObject;
  readonly want: KubeObject;
  readonly paths: readonly string[];
}

const widget: Schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        size: { type: 'string' },
        ports: {
          type: 'array',
          items: { type: 'object', properties: { port: { type: 'integer' } } },
        },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        raw: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { known: { type: 'object', properties: { a: { type: 'string' } } } },
        },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { spec: { type: 'object', properties: { x: { type: 'string' } } } },
        },
        anything: { type: 'object', additionalProperties: true },
      },
    },
  },
};

const cases: Case[] = [
  {
    name: 'no schema keeps only apiVersion, kind and metadata at the root',
    schema: undefined,
    input: {
      apiVersion: 'a/v1',
      kind: 'K',
      metadata: { name: 'x', foo: 1 },
      spec: { a: 1 },
      extra: true,
    },
    want: { apiVersion: 'a/v1', kind: 'K', metadata: { name: 'x', foo: 1 } },
    paths: ['spec', 'extra'],
  },
  {
    name: 'unknown fields at every level, in object order',
    schema: widget,
    input: {
      apiVersion: 'a/v1',
      kind: 'K',
      metadata: { name: 'x' },
      spec: { size: 'big', color: 'red', ports: [{ port: 80, proto: 'TCP' }, { port: 81 }] },
      status: {},
    },
    want: {
      apiVersion: 'a/v1',
      kind: 'K',
      metadata: { name: 'x' },
      spec: { size: 'big', ports: [{ port: 80 }, { port: 81 }] },
    },
    paths: ['spec.color', 'spec.ports[0].proto', 'status'],
  },
  {
    name: 'map values are kept, preserve-unknown-fields keeps unknown keys but prunes known ones',
    schema: widget,
    input: {
      spec: { labels: { a: 'b' }, raw: { anything: { deep: 1 }, known: { a: 'x', b: 'y' } } },
    },
    want: { spec: { labels: { a: 'b' }, raw: { anything: { deep: 1 }, known: { a: 'x' } } } },
    paths: ['spec.raw.known.b'],
  },
  {
    name: 'embedded resources keep apiVersion/kind/metadata but lose unknown metadata fields',
    schema: widget,
    input: {
      spec: {
        template: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'p', labels: { a: 'b' }, bogus: 1 },
          spec: { x: 'y', z: 1 },
          other: 2,
        },
      },
    },
    want: {
      spec: {
        template: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'p', labels: { a: 'b' } },
          spec: { x: 'y' },
        },
      },
    },
    paths: ['spec.template.metadata.bogus', 'spec.template.spec.z', 'spec.template.other'],
  },
  {
    name: 'additionalProperties: true keeps keys but empties object values',
    schema: widget,
    input: { spec: { anything: { a: 1, b: { c: 2 } } } },
    want: { spec: { anything: { a: 1, b: {} } } },
    paths: ['spec.anything.b.c'],
  },
  {
    name: 'preserve-unknown-fields at the root keeps everything',
    schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    input: { spec: { a: { b: 1 } }, status: 3 },
    want: { spec: { a: { b: 1 } }, status: 3 },
    paths: [],
  },
];

describe('pruneUnknownFields', () => {
  for (const c of cases) {
    it(c.name, () => {
      const before = structuredClone(c.input);
      const { pruned, unknownPaths } = pruneUnknownFields(c.input, c.schema);
      assert.deepEqual(pruned, c.want);
      assert.deepEqual(unknownPaths, c.paths);
      assert.deepEqual(c.input, before, 'the input is not modified');
    });
  }

  it('is idempotent and the second pass reports nothing', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom('spec', 'status', 'metadata', 'x'),
          fc.jsonValue({ maxDepth: 4 }),
        ),
        (input) => {
          const first = pruneUnknownFields(JSON.parse(JSON.stringify(input)) as KubeObject, widget);
          const second = pruneUnknownFields(first.pruned, widget);
          assert.deepEqual(second.pruned, first.pruned);
          assert.deepEqual(second.unknownPaths, []);
        },
      ),
      { numRuns: 300 },
    );
  });
});
