/**
 * PriorityClass defaults and validation (upstream `ValidatePriorityClass`,
 * `ValidatePriorityClassUpdate`), as tables of error texts.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { simulateCreate, simulateUpdate } from './harness.js';
import {
  priorityClassResource,
  SYSTEM_PRIORITY_CLASSES,
  systemPriorityClassObject,
} from './scheduling-priorityclass.js';

const pc = (name: string, fields: Record<string, unknown> = {}): KubeObject => ({
  metadata: { name },
  value: 100,
  ...fields,
});

describe('PriorityClass', () => {
  it('defaults preemptionPolicy to PreemptLowerPriority', () => {
    const { object, errors } = simulateCreate(priorityClassResource, pc('p'));
    assert.deepEqual(errors, []);
    assert.equal(object.preemptionPolicy, 'PreemptLowerPriority');
  });

  const creates: Array<[string, KubeObject, string[]]> = [
    ['user maximum is allowed', pc('p', { value: 1_000_000_000 }), []],
    ['negative values are allowed', pc('p', { value: -5 }), []],
    [
      'above the user maximum',
      pc('p', { value: 1_000_000_001 }),
      ['value: Forbidden: maximum allowed value of a user defined priority is 1000000000'],
    ],
    [
      'unknown system- name',
      pc('system-foo'),
      [
        "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-foo is not a known system priority class",
      ],
    ],
    [
      'system class with the wrong value',
      pc('system-node-critical', { value: 5 }),
      [
        "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000",
      ],
    ],
    [
      'system class as global default',
      pc('system-cluster-critical', { value: 2_000_000_000, globalDefault: true }),
      [
        "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: globalDefault of system-cluster-critical PriorityClass must be false",
      ],
    ],
    [
      'unknown preemption policy',
      pc('p', { preemptionPolicy: 'Sometimes' }),
      [
        'preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"',
      ],
    ],
    [
      'empty preemption policy',
      pc('p', { preemptionPolicy: '' }),
      ['preemptionPolicy: Required value'],
    ],
  ];
  for (const [name, obj, want] of creates) {
    it(name, () => assert.deepEqual(simulateCreate(priorityClassResource, obj).messages, want));
  }

  it('the system classes pass validation', () => {
    for (const c of SYSTEM_PRIORITY_CLASSES) {
      assert.deepEqual(
        simulateCreate(priorityClassResource, systemPriorityClassObject(c)).messages,
        [],
      );
    }
  });

  const updates: Array<[string, Record<string, unknown>, string[]]> = [
    ['description may change', { description: 'new' }, []],
    ['globalDefault may change', { globalDefault: true }, []],
    ['value is immutable', { value: 101 }, ['value: Forbidden: may not be changed in an update.']],
    [
      'preemptionPolicy is immutable',
      { preemptionPolicy: 'Never' },
      ['preemptionPolicy: Invalid value: "Never": field is immutable'],
    ],
  ];
  for (const [name, change, want] of updates) {
    it(name, () => {
      const old = simulateCreate(priorityClassResource, pc('p')).object;
      const next = { ...old, ...change };
      assert.deepEqual(simulateUpdate(priorityClassResource, next, old).messages, want);
    });
  }
});
