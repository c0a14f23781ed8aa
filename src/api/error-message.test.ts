import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorMessage } from './error-message.js';

describe('errorMessage', () => {
  const table: { name: string; thrown: unknown; want: string }[] = [
    { name: 'an Error', thrown: new Error('boom'), want: 'boom' },
    { name: 'a subclass', thrown: new RangeError('out of range'), want: 'out of range' },
    // An Error from another realm fails instanceof but keeps its message.
    {
      name: 'an error-like object',
      thrown: { name: 'Error', message: 'elsewhere' },
      want: 'elsewhere',
    },
    { name: 'a string', thrown: 'plain', want: 'plain' },
    { name: 'an object without a string message', thrown: { message: 3 }, want: '[object Object]' },
    { name: 'undefined', thrown: undefined, want: 'undefined' },
  ];
  for (const { name, thrown, want } of table) {
    it(name, () => assert.equal(errorMessage(thrown), want));
  }
});
