import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/object.js';
import { asCrd, isCustomResourceDefinition, parseStoredCrd } from './crd-object.js';

describe('CustomResourceDefinition shape', () => {
  const cases: Array<[string, KubeObject, boolean]> = [
    ['no spec or status', { metadata: { name: 'a.b' } }, true],
    ['object spec and status', { spec: { group: 'b' }, status: { storedVersions: [] } }, true],
    ['a string spec', { spec: 'x' }, false],
    ['an array status', { status: [] }, false],
    ['a null spec', { spec: null }, false],
  ];
  for (const [name, obj, shaped] of cases) {
    it(`${shaped ? 'accepts' : 'refuses'} ${name}`, () => {
      assert.equal(isCustomResourceDefinition(obj), shaped);
      if (shaped) assert.equal(asCrd(obj), obj, 'the same object, not a copy');
      else assert.throws(() => asCrd(obj), TypeError);
    });
  }

  it('decodes a stored CRD, and refuses text that is not one', () => {
    assert.equal(parseStoredCrd('{"spec":{"group":"b"}}').spec?.group, 'b');
    for (const text of ['[]', 'null', '{"spec":3}', '{"metadata":"x"}']) {
      assert.throws(() => parseStoredCrd(text), TypeError, text);
    }
  });
});
