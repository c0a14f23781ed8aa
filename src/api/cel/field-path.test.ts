import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Schema } from '../schema/types.js';
import { displayIssue } from './compile-errors.js';
import { validFieldPath } from './field-path.js';

const SCHEMA: Schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        labels: {
          type: 'object',
          additionalProperties: { type: 'object', properties: { v: { type: 'string' } } },
        },
        list: { type: 'array', items: { type: 'string' } },
      },
    },
  },
};

describe('validFieldPath', () => {
  const CASES: readonly (readonly [string, string])[] = [
    ['.spec', 'ok spec'],
    ['.spec.labels', 'ok spec.labels'],
    [".spec.labels['a.b/c']", 'ok spec.labels[a.b/c]'],
    [".spec.labels['k'].v", 'ok spec.labels[k].v'],
    [".spec['labels']", 'ok spec.labels'],
    ['.spec.nope', 'error does not refer to a valid field'],
    ['.spec.list.x', 'error does not refer to a valid field'],
    ['spec', 'error expected [ or . but got: spec'],
    ['.spec.', 'error unexpected end of JSON path'],
    ['.spec[labels]', 'error expected single quoted string but got labels'],
    [".spec['labels'", 'error unexpected end of JSON path'],
    [".spec['a\\q']", 'error invalid string literal: invalid escape char \\q'],
  ];
  for (const [path, want] of CASES) {
    it(path, () => {
      const r = validFieldPath(path, SCHEMA);
      assert.equal(r.ok ? `ok ${r.path}` : `error ${r.error}`, want);
    });
  }
});

describe('displayIssue', () => {
  it('locates an error on a later line', () => {
    assert.equal(
      displayIssue('self.a &&\n  self.b', { offset: 16, message: "undefined field 'b'" }),
      "ERROR: <input>:2:7: undefined field 'b'\n |   self.b\n | ......^",
    );
  });

  it('counts multi-byte characters as cel-go does', () => {
    assert.equal(
      displayIssue('"é" == self.x', { offset: 11, message: 'm' }),
      'ERROR: <input>:1:12: m\n | "é" == self.x\n | .\uff0e.........^',
    );
  });
});
