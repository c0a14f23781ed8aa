import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Schema } from '../../src/api/schema/types.js';
import {
  docComment,
  type EmitContext,
  emitDefinition,
  emitModule,
  hoistObjects,
  importLine,
  typeExpression,
  typeNames,
} from './emit-types.js';

const ref = (def: string): Schema => ({ $ref: `#/components/schemas/${def}` });
const ctx: EmitContext = {
  names: new Map([
    ['io.k8s.api.core.v1.Pod', 'Pod'],
    ['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'ObjectMeta'],
  ]),
};

describe('typeExpression', () => {
  const cases: [string, Schema, string][] = [
    ['string', { type: 'string', format: 'date-time' }, 'string'],
    ['int64', { type: 'integer', format: 'int64' }, 'number'],
    ['number', { type: 'number', format: 'double' }, 'number'],
    ['boolean', { type: 'boolean' }, 'boolean'],
    ['enum', { type: 'string', enum: ['A', "it's"] }, `'A' | "it's"`],
    ['nullable', { type: 'string', nullable: true }, 'string | null'],
    [
      'enum values holding brackets and bars',
      { type: 'array', items: { type: 'string', enum: ['a | b', '<c>'] } },
      `('a | b' | '<c>')[]`,
    ],
    ['one enum value with a bar', { type: 'array', items: { enum: ['a | b'] } }, `'a | b'[]`],
    ['array', { type: 'array', items: { type: 'string' } }, 'string[]'],
    [
      'array of union',
      { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
      `('a' | 'b')[]`,
    ],
    ['array without items', { type: 'array' }, 'unknown[]'],
    ['map', { type: 'object', additionalProperties: { type: 'string' } }, 'Record<string, string>'],
    ['map of anything', { type: 'object', additionalProperties: true }, 'Record<string, unknown>'],
    [
      'opaque object',
      { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      '{ [key: string]: unknown }',
    ],
    ['empty object', { type: 'object' }, 'Record<string, never>'],
    ['opaque value', { 'x-kubernetes-preserve-unknown-fields': true }, 'unknown'],
    ['int-or-string', { 'x-kubernetes-int-or-string': true }, 'number | string'],
    ['oneOf', { oneOf: [{ type: 'integer' }, { type: 'string' }] }, 'number | string'],
    ['oneOf, same types once', { oneOf: [{ type: 'integer' }, { type: 'number' }] }, 'number'],
    ['ref', ref('io.k8s.api.core.v1.Pod'), 'Pod'],
    ['described ref', { allOf: [ref('io.k8s.api.core.v1.Pod')], description: 'x' }, 'Pod'],
    [
      'inline object',
      { type: 'object', required: ['a'], properties: { a: { type: 'string' }, b: {} } },
      '{\n  a: string;\n  b?: unknown;\n}',
    ],
  ];
  for (const [name, schema, want] of cases) {
    it(name, () => assert.equal(typeExpression(schema, ctx, new Set()), want));
  }

  it('collects the definitions it names', () => {
    const refs = new Set<string>();
    typeExpression({ type: 'array', items: ref('io.k8s.api.core.v1.Pod') }, ctx, refs);
    assert.deepEqual([...refs], ['io.k8s.api.core.v1.Pod']);
  });

  it('refuses a reference it has no name for', () => {
    assert.throws(() => typeExpression(ref('io.k8s.api.core.v1.Nope'), ctx, new Set()), /Nope/);
  });
});

describe('emitDefinition', () => {
  const cases: [string, string, Schema, EmitContext, string][] = [
    [
      'a kind: required fields, docs, defaults, literal apiVersion and kind',
      'io.k8s.api.core.v1.Pod',
      {
        description: 'A pod.',
        type: 'object',
        required: ['spec'],
        properties: {
          apiVersion: { type: 'string' },
          kind: { type: 'string' },
          metadata: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'),
          spec: { type: 'object', additionalProperties: { type: 'string' }, default: {} },
          'x-odd-name': { type: 'boolean', description: 'Two\n\nparagraphs.' },
        },
        'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'Pod' }],
      },
      ctx,
      [
        '/** A pod. */',
        'export type Pod = {',
        "  apiVersion?: 'v1';",
        "  kind?: 'Pod';",
        '  metadata?: ObjectMeta;',
        '  /** @default {} */',
        '  spec: Record<string, string>;',
        '  /**',
        '   * Two',
        '   *',
        '   * paragraphs.',
        '   */',
        "  'x-odd-name'?: boolean;",
        '};',
      ].join('\n'),
    ],
    [
      'a scalar definition',
      'io.k8s.api.core.v1.Pod',
      { type: 'string', format: 'date-time' },
      ctx,
      'export type Pod = string;',
    ],
    [
      'overrides, of a definition and of a property',
      'io.k8s.api.core.v1.Pod',
      { type: 'object', properties: { n: { type: 'integer', format: 'int64' } } },
      { ...ctx, overrides: { 'io.k8s.api.core.v1.Pod.n': 'number | bigint' } },
      'export type Pod = {\n  n?: number | bigint;\n};',
    ],
    [
      'a union too long for one line, one member a line',
      'io.k8s.api.core.v1.Pod',
      {
        type: 'object',
        properties: { v: { type: 'string', enum: ['a'.repeat(45), 'b'.repeat(45), 'c'] } },
      },
      ctx,
      `export type Pod = {\n  v?:\n    | '${'a'.repeat(45)}'\n    | '${'b'.repeat(45)}'\n    | 'c';\n};`,
    ],
  ];
  for (const [name, def, schema, context, want] of cases) {
    it(name, () => assert.equal(emitDefinition(def, schema, context, new Set()), want));
  }
});

describe('typeNames', () => {
  const cases: [string, string[], [string, string][]][] = [
    ['short names', ['io.k8s.api.core.v1.Pod'], [['io.k8s.api.core.v1.Pod', 'Pod']]],
    [
      'core keeps a shared name, the other group is prefixed',
      ['io.k8s.api.events.v1.Event', 'io.k8s.api.core.v1.Event'],
      [
        ['io.k8s.api.events.v1.Event', 'EventsV1Event'],
        ['io.k8s.api.core.v1.Event', 'Event'],
      ],
    ],
    [
      'two non-core groups are both prefixed',
      ['io.k8s.api.apps.v1.Thing', 'io.k8s.api.batch.v1.Thing'],
      [
        ['io.k8s.api.apps.v1.Thing', 'AppsV1Thing'],
        ['io.k8s.api.batch.v1.Thing', 'BatchV1Thing'],
      ],
    ],
    [
      'a TypeScript global is prefixed',
      ['io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON'],
      [['io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON', 'ApiextensionsV1JSON']],
    ],
  ];
  for (const [name, defs, want] of cases) {
    it(name, () => assert.deepEqual([...typeNames(defs)], want));
  }
});

describe('docComment', () => {
  const cases: [string, string | undefined, string[]][] = [
    ['absent', undefined, []],
    ['one short line', 'Hello.', ['  /** Hello. */']],
    ['a comment terminator is escaped', 'a */ b', ['  /** a *\\/ b */']],
    [
      'a long line is wrapped at 100 columns',
      `${'word '.repeat(30)}end`,
      ['  /**', `   * ${'word '.repeat(18)}word`, `   * ${'word '.repeat(11)}end`, '   */'],
    ],
  ];
  for (const [name, text, want] of cases) {
    it(name, () => {
      const lines = docComment(text, '  ');
      assert.deepEqual(lines, want);
      for (const line of lines) assert.ok(line.length <= 100, line);
    });
  }
});

describe('hoistObjects', () => {
  it('names nested objects by path, root first, falling back to the path', () => {
    const schema: Schema = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          description: 'The spec.',
          properties: {
            items: {
              type: 'array',
              items: { type: 'object', properties: { a: { type: 'string' } } },
            },
          },
        },
      },
    };
    const defs = hoistObjects('Thing', schema, { spec: 'ThingSpec' });
    assert.deepEqual(
      defs.map(([name]) => name),
      ['Thing', 'ThingSpec', 'ThingSpecItemsItem'],
    );
    const [, root] = defs[0] ?? [];
    assert.equal(root?.properties?.spec?.$ref, '#/components/schemas/ThingSpec');
    assert.equal(root?.properties?.spec?.description, 'The spec.');
    const [, spec] = defs[1] ?? [];
    assert.equal(spec?.properties?.items?.items?.$ref, '#/components/schemas/ThingSpecItemsItem');
  });
});

describe('emitModule', () => {
  it('imports the types it names from other modules, sorted, and nothing of its own', () => {
    const names = new Map([
      ['a.v1.Own', 'Own'],
      ['b.v1.Zed', 'Zed'],
      ['b.v1.Alpha', 'Alpha'],
    ]);
    const text = emitModule(
      {
        header: 'Test module.',
        definitions: [
          [
            'a.v1.Own',
            {
              type: 'object',
              properties: { z: ref('b.v1.Zed'), a: ref('b.v1.Alpha'), self: ref('a.v1.Own') },
            },
          ],
        ],
        moduleOf: (def) => `./${def.split('.')[0]}.js`,
      },
      { names },
    );
    assert.equal(
      text,
      [
        '/** Test module. */',
        '',
        "import type { Alpha, Zed } from './b.js';",
        '',
        'export type Own = {',
        '  z?: Zed;',
        '  a?: Alpha;',
        '  self?: Own;',
        '};',
        '',
      ].join('\n'),
    );
  });

  it('breaks an import list too long for one line', () => {
    const names = Array.from({ length: 12 }, (_, i) => `LongTypeName${i}`);
    const text = importLine(names, './x.js');
    assert.ok(text.startsWith('import type {\n  LongTypeName0,\n'));
    assert.ok(text.endsWith("\n} from './x.js';"));
  });
});
