import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Schema } from '../../api/schema/types.js';
import { ComponentCollector } from './component-collector.js';
import { addCustomResourceComponents, OBJECT_META } from './crd-component.js';
import { customResourceComponentName, toOperationIdPart } from './names.js';
import { widgetDefinition } from './testing/document-checks.js';
import { fixtureSchemas } from './testing/fixture-schemas.js';

const META_REF = { $ref: `#/components/schemas/${OBJECT_META}` };

function build(schema: Schema | undefined): Record<string, Schema> {
  const collector = new ComponentCollector(fixtureSchemas([]).components);
  addCustomResourceComponents(widgetDefinition({ schema }), collector);
  return collector.components();
}

describe('custom resource components', () => {
  it('name the kind and list like upstream (reversed group)', () => {
    const table: [string, string][] = [
      ['example.com', 'com.example.v1.Widget'],
      ['stable.example.com', 'com.example.stable.v1.Widget'],
      ['widgets', 'widgets.v1.Widget'],
    ];
    for (const [group, want] of table)
      assert.equal(customResourceComponentName(group, 'v1', 'Widget'), want);
    const components = build({ type: 'object' });
    assert.ok('com.example.v1.Widget' in components && 'com.example.v1.WidgetList' in components);
  });

  it('add apiVersion, kind, metadata (→ ObjectMeta) and the GVK to the version schema', () => {
    const widget = build({ type: 'object', properties: { spec: { type: 'object' } } })[
      'com.example.v1.Widget'
    ]!;
    assert.deepEqual(Object.keys(widget.properties ?? {}), [
      'apiVersion',
      'kind',
      'metadata',
      'spec',
    ]);
    assert.equal(widget.properties?.apiVersion?.type, 'string');
    assert.equal(widget.properties?.kind?.type, 'string');
    assert.deepEqual(widget.properties?.metadata?.allOf, [META_REF]);
    assert.deepEqual(widget['x-kubernetes-group-version-kind'], [
      { group: 'example.com', kind: 'Widget', version: 'v1' },
    ]);
  });

  it('bring ObjectMeta and its closure along', () => {
    const components = build({ type: 'object' });
    for (const n of [
      'ObjectMeta',
      'OwnerReference',
      'ManagedFieldsEntry',
      'Time',
      'FieldsV1',
      'ListMeta',
    ]) {
      assert.ok(`io.k8s.apimachinery.pkg.apis.meta.v1.${n}` in components, n);
    }
  });

  it('publish a version without a schema as a bare object', () => {
    const widget = build(undefined)['com.example.v1.Widget']!;
    assert.deepEqual(widget, {
      type: 'object',
      'x-kubernetes-group-version-kind': [{ group: 'example.com', kind: 'Widget', version: 'v1' }],
    });
  });

  it('describe the list kind with items referring to the kind', () => {
    const list = build({ type: 'object' })['com.example.v1.WidgetList']!;
    assert.deepEqual(list.properties?.items?.items, {
      $ref: '#/components/schemas/com.example.v1.Widget',
    });
    assert.deepEqual(list.required, ['items']);
    assert.deepEqual(list['x-kubernetes-group-version-kind'], [
      { group: 'example.com', kind: 'WidgetList', version: 'v1' },
    ]);
  });

  it('give embedded resources type meta and unfold int-or-string, without touching the CRD schema', () => {
    const schema: Schema = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            template: {
              type: 'object',
              'x-kubernetes-embedded-resource': true,
              'x-kubernetes-preserve-unknown-fields': true,
            },
            port: { 'x-kubernetes-int-or-string': true },
            size: {
              'x-kubernetes-int-or-string': true,
              anyOf: [{ type: 'integer' }, { type: 'string' }],
            },
          },
        },
      },
    };
    const before = JSON.stringify(schema);
    const spec = build(schema)['com.example.v1.Widget']!.properties?.spec;
    assert.equal(JSON.stringify(schema), before, 'the CRD schema was modified');
    const template = spec?.properties?.template;
    assert.deepEqual(Object.keys(template?.properties ?? {}), ['apiVersion', 'kind', 'metadata']);
    assert.deepEqual(template?.required, ['kind', 'apiVersion']);
    assert.deepEqual(spec?.properties?.port?.anyOf, [{ type: 'integer' }, { type: 'string' }]);
    assert.equal(spec?.properties?.size?.allOf, undefined);
  });
});

describe('operation id parts', () => {
  const table: [string, boolean, string][] = [
    ['apps', true, 'Apps'],
    ['example.com', false, 'exampleCom'],
    ['cert-manager.io', true, 'CertManagerIo'],
    ['v1beta1', true, 'V1beta1'],
    ['2fa.example', false, 'FaExample'],
  ];
  for (const [text, cap, want] of table) {
    it(`${text} → ${want}`, () => assert.equal(toOperationIdPart(text, cap), want));
  }
});
