import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { fieldSetOf } from './index.js';
import {
  configMapSchema,
  deployment,
  deploymentSchema,
  dig,
  nav,
  widgetSchema,
} from './testing/fixtures.js';

describe('fieldSetOf', () => {
  const cases: {
    name: string;
    schema: typeof deploymentSchema;
    obj: KubeObject;
    want: Record<string, unknown>;
  }[] = [
    {
      name: 'keyed lists own items by key, with the key fields and "." ',
      schema: deploymentSchema,
      obj: deployment({
        template: {
          spec: { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80 }] }] },
        },
      }),
      want: {
        'f:spec': {
          'f:template': {
            'f:spec': {
              'f:containers': {
                'k:{"name":"c"}': {
                  'f:image': {},
                  'f:name': {},
                  'f:ports': {
                    // protocol comes from the schema default, as upstream
                    'k:{"containerPort":80,"protocol":"TCP"}': { 'f:containerPort': {}, '.': {} },
                  },
                  '.': {},
                },
              },
            },
          },
        },
      },
    },
    {
      name: 'atomic struct (LabelSelector) and atomic list are leaves',
      schema: deploymentSchema,
      obj: deployment({
        selector: { matchLabels: { a: 'b' } },
        template: { spec: { tolerations: [{ key: 'k' }] } },
      }),
      want: { 'f:spec': { 'f:selector': {}, 'f:template': { 'f:spec': { 'f:tolerations': {} } } } },
    },
    {
      name: 'map keys are members; metadata identity is stripped; labels kept',
      schema: configMapSchema,
      obj: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'c', namespace: 'd', uid: 'u', resourceVersion: '3', labels: { x: 'y' } },
        data: { a: '1' },
      },
      want: { 'f:data': { 'f:a': {} }, 'f:metadata': { 'f:labels': { 'f:x': {} } } },
    },
    {
      name: 'CRD: set list by value, atomic struct, preserve-unknown-fields keys, finalizers set',
      schema: widgetSchema,
      obj: {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w', finalizers: ['f1'] },
        spec: { tags: ['a', 'b'], target: { host: 'h' }, extra: { deep: { k: 1 } } },
      },
      want: {
        'f:metadata': { 'f:finalizers': { 'v:"f1"': {} } },
        'f:spec': {
          'f:extra': { 'f:deep': { 'f:k': {}, '.': {} } },
          'f:tags': { 'v:"a"': {}, 'v:"b"': {} },
          'f:target': {},
        },
      },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(fieldSetOf(c.obj, c.schema, nav).toFieldsV1(), c.want);
    });
  }

  it('writes "." after the item\'s fields', () => {
    const obj = deployment({ template: { spec: { containers: [{ name: 'c', image: 'i' }] } } });
    const fields = fieldSetOf(obj, deploymentSchema, nav).toFieldsV1();
    const item = dig(fields, 'f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"c"}');
    assert.deepEqual(Object.keys(item as object), ['f:image', 'f:name', '.']);
  });

  it('fails on a keyed element missing a key without default', () => {
    const obj = deployment({ template: { spec: { containers: [{ image: 'i' }] } } });
    assert.throws(() => fieldSetOf(obj, deploymentSchema, nav), /omits key field "name"/);
  });
});
