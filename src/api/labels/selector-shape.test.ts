import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isLabelSelectorObject } from './selector-shape.js';

describe('isLabelSelectorObject', () => {
  const table: { name: string; value: unknown; want: boolean }[] = [
    { name: 'absent (a nil selector)', value: undefined, want: true },
    { name: 'null (a nil selector)', value: null, want: true },
    { name: 'empty', value: {}, want: true },
    { name: 'matchLabels of strings', value: { matchLabels: { app: 'web' } }, want: true },
    { name: 'null fields', value: { matchLabels: null, matchExpressions: null }, want: true },
    {
      name: 'expressions with and without values',
      value: {
        matchExpressions: [
          { key: 'tier', operator: 'In', values: ['a', 'b'] },
          { key: 'gone', operator: 'DoesNotExist' },
          { key: 'x', operator: 'Exists', values: null },
        ],
      },
      want: true,
    },
    // An unknown operator has the shape; labelSelectorFromObject refuses it when parsing.
    {
      name: 'unknown operator',
      value: { matchExpressions: [{ key: 'k', operator: 'Is' }] },
      want: true,
    },
    { name: 'a string', value: 'app=web', want: false },
    { name: 'an array', value: [{ matchLabels: {} }], want: false },
    { name: 'a label value that is a number', value: { matchLabels: { app: 1 } }, want: false },
    { name: 'matchLabels an array', value: { matchLabels: ['app'] }, want: false },
    { name: 'matchExpressions an object', value: { matchExpressions: {} }, want: false },
    {
      name: 'an expression without a key',
      value: { matchExpressions: [{ operator: 'Exists' }] },
      want: false,
    },
    {
      name: 'values that are not strings',
      value: { matchExpressions: [{ key: 'k', operator: 'In', values: [1] }] },
      want: false,
    },
    {
      name: 'values not a list',
      value: { matchExpressions: [{ key: 'k', operator: 'In', values: 'a' }] },
      want: false,
    },
  ];
  for (const { name, value, want } of table) {
    it(name, () => assert.equal(isLabelSelectorObject(value), want));
  }
});
