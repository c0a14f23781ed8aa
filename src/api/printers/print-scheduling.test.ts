/**
 * `kubectl get priorityclasses` rows and columns (upstream `printPriorityClass`, 1.33).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { builtinPrinter } from './registry.js';

const NOW = new Date('2026-01-01T00:10:00Z');

const pc = (fields: Record<string, unknown>): KubeObject => ({
  apiVersion: 'scheduling.k8s.io/v1',
  kind: 'PriorityClass',
  metadata: { name: 'p', creationTimestamp: '2026-01-01T00:00:00Z' },
  ...fields,
});

describe('kubectl get priorityclass (printPriorityClass)', () => {
  const printer = builtinPrinter('scheduling.k8s.io', 'PriorityClass');

  it('has upstream columns and types', () => {
    assert.deepEqual(
      printer.columns.map((c) => [c.name, c.type]),
      [
        ['Name', 'string'],
        ['Value', 'integer'],
        ['Global-Default', 'boolean'],
        ['Age', 'string'],
        ['PreemptionPolicy', 'string'],
      ],
    );
  });

  const rows: Array<[string, KubeObject, unknown[]]> = [
    [
      'a default class',
      pc({ value: 1000, globalDefault: true, preemptionPolicy: 'Never' }),
      ['p', 1000, true, '10m', 'Never'],
    ],
    ['unset fields', pc({}), ['p', 0, false, '10m', '']],
  ];
  for (const [name, obj, want] of rows) {
    it(name, () => assert.deepEqual(printer.row(obj, NOW).cells, want));
  }
});
