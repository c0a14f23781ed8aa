/**
 * Upstream's `MergeItem` test type (`strategicpatch/patch_test.go`) as a schema, so its test
 * cases can be replayed: a merged list of items by `name`, a merged set of integers, a
 * replaced list, a `retainKeys` map, a `merge,retainKeys` list and a `replace` map.
 *
 * @module
 */
import { SchemaNavigator } from '../../../schema/navigator.js';
import type { Schema } from '../../../schema/types.js';

const item: Schema = { $ref: '#/components/schemas/MergeItem' };
const retainItem: Schema = { $ref: '#/components/schemas/RetainKeysMergeItem' };
const ints: Schema = { type: 'array', items: { type: 'integer' } };
const mergingList: Schema = {
  type: 'array',
  items: item,
  'x-kubernetes-patch-strategy': 'merge',
  'x-kubernetes-patch-merge-key': 'name',
};
const mergingIntList: Schema = { ...ints, 'x-kubernetes-patch-strategy': 'merge' };
const simpleMap: Schema = { type: 'object', additionalProperties: { type: 'string' } };

export const mergeItemNav = new SchemaNavigator({
  MergeItem: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      value: { type: 'string' },
      other: { type: 'string' },
      mergingList,
      nonMergingList: { type: 'array', items: item },
      mergingIntList,
      nonMergingIntList: ints,
      mergeItemPtr: { ...item, 'x-kubernetes-patch-strategy': 'merge' },
      simpleMap,
      replacingItem: {
        type: 'object',
        'x-kubernetes-patch-strategy': 'replace',
        'x-kubernetes-preserve-unknown-fields': true,
      },
      retainKeysMap: { ...retainItem, 'x-kubernetes-patch-strategy': 'retainKeys' },
      retainKeysMergingList: { ...mergingList, 'x-kubernetes-patch-strategy': 'merge,retainKeys' },
    },
  },
  RetainKeysMergeItem: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      value: { type: 'string' },
      other: { type: 'string' },
      simpleMap,
      mergingIntList,
      mergingList,
      nonMergingList: { type: 'array', items: item },
    },
  },
});

export const mergeItemSchema: Schema = item;
