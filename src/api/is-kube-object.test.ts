import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isKubeObject } from './is-kube-object.js';

describe('isKubeObject', () => {
  const table: { name: string; value: unknown; want: boolean }[] = [
    { name: 'an empty object (kind and apiVersion may be absent)', value: {}, want: true },
    {
      name: 'a whole object',
      value: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a' }, spec: {} },
      want: true,
    },
    { name: 'undefined', value: undefined, want: false },
    { name: 'null', value: null, want: false },
    { name: 'an array', value: [{ kind: 'Pod' }], want: false },
    { name: 'a string', value: 'Pod', want: false },
    { name: 'a numeric kind', value: { kind: 5 }, want: false },
    { name: 'a numeric apiVersion', value: { apiVersion: 1 }, want: false },
    { name: 'null metadata', value: { metadata: null }, want: false },
    { name: 'metadata an array', value: { metadata: [] }, want: false },
  ];
  for (const { name, value, want } of table) {
    it(name, () => assert.equal(isKubeObject(value), want));
  }
});
