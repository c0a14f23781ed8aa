import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { withoutManagedFields } from './strip-managed-fields.js';

/** What the text scan must equal: parse, delete, encode. */
function reference(json: string): string {
  const o = JSON.parse(json) as { metadata?: Record<string, unknown> };
  if (o.metadata !== null && typeof o.metadata === 'object' && !Array.isArray(o.metadata)) {
    delete o.metadata.managedFields;
  }
  return JSON.stringify(o);
}

describe('withoutManagedFields', () => {
  const mf = [{ manager: 'kubectl', operation: 'Update', fieldsV1: { 'f:spec': {} } }];
  const cases: [string, unknown][] = [
    ['first in metadata', { metadata: { managedFields: mf, name: 'a' }, spec: {} }],
    ['last in metadata', { apiVersion: 'v1', metadata: { name: 'a', managedFields: mf } }],
    ['alone in metadata', { metadata: { managedFields: mf } }],
    ['absent', { metadata: { name: 'a' } }],
    ['elsewhere only', { metadata: { name: 'a' }, spec: { managedFields: [1] } }],
    ['in a string', { metadata: { name: 'a', annotations: { x: '"managedFields":[]' } } }],
    [
      'nested metadata',
      { spec: { template: { metadata: { managedFields: mf } } }, metadata: { managedFields: mf } },
    ],
  ];
  for (const [name, object] of cases) {
    it(name, () => {
      const json = JSON.stringify(object);
      assert.equal(withoutManagedFields(json), reference(json));
    });
  }
  it('equals parse, delete and encode for any object', () => {
    const value = fc.jsonValue({ maxDepth: 3 });
    const metadata = fc.dictionary(
      fc.oneof(fc.constant('managedFields'), fc.constant('name'), fc.string({ maxLength: 6 })),
      value,
      { maxKeys: 4 },
    );
    const object = fc.record({ metadata, spec: value }, { requiredKeys: [] });
    fc.assert(
      fc.property(
        object,
        fc.dictionary(fc.string({ maxLength: 4 }), value, { maxKeys: 2 }),
        (o, extra) => {
          const json = JSON.stringify({ ...extra, ...o });
          assert.equal(withoutManagedFields(json), reference(json));
        },
      ),
      { numRuns: 500 },
    );
  });
});
