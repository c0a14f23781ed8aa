import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { simulateCreate, simulateUpdate } from './harness.js';
import { runtimeClassResource } from './node-runtimeclass.js';

const rc = (fields: Record<string, unknown>): KubeObject => ({
  metadata: { name: 'gvisor' },
  handler: 'runsc',
  ...fields,
});

describe('RuntimeClass', () => {
  const cases: [string, KubeObject, string[]][] = [
    ['a handler', rc({}), []],
    [
      'a handler that is no DNS label',
      rc({ handler: 'Run.SC' }),
      [
        "handler: Invalid value: \"Run.SC\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
    ['a pod overhead', rc({ overhead: { podFixed: { cpu: '250m', memory: '120Mi' } } }), []],
    [
      'a duplicate toleration',
      rc({
        scheduling: {
          tolerations: [
            { key: 'a', operator: 'Exists' },
            { key: 'a', operator: 'Exists' },
          ],
        },
      }),
      ['scheduling.tolerations[1]: Duplicate value: {"key":"a","operator":"Exists"}'],
    ],
  ];
  for (const [name, obj, want] of cases) {
    it(`validates ${name}`, () => {
      assert.deepEqual(simulateCreate(runtimeClassResource, obj).messages, want);
    });
  }

  it('keeps the handler immutable', () => {
    const old = simulateCreate(runtimeClassResource, rc({})).object;
    assert.deepEqual(simulateUpdate(runtimeClassResource, rc({ handler: 'kata' }), old).messages, [
      'handler: Invalid value: "kata": field is immutable',
    ]);
  });
});
