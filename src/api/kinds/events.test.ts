import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { coreEventResource, eventsEventResource } from './events.js';
import { simulateCreate, simulateUpdate } from './harness.js';

const regarding = { kind: 'Pod', namespace: 'default', name: 'web-0', uid: 'u1', apiVersion: 'v1' };

describe('core/v1 Event', () => {
  const ev = (extra: Record<string, unknown> = {}): KubeObject => ({
    metadata: { name: 'web-0.17a8b', namespace: 'default' },
    involvedObject: regarding,
    reason: 'Scheduled',
    message: 'Successfully assigned default/web-0 to node-1',
    source: { component: 'default-scheduler' },
    type: 'Normal',
    ...extra,
  });
  it('accepts legacy events and fills the non-omitempty fields', () => {
    const { object, errors } = simulateCreate(coreEventResource, ev());
    assert.deepEqual(errors, []);
    assert.equal(object.reportingComponent, '');
    assert.equal(object.reportingInstance, '');
  });
  it('needs the involved object in the same namespace', () => {
    assert.deepEqual(
      simulateCreate(
        coreEventResource,
        ev({ involvedObject: { ...regarding, namespace: 'other' } }),
      ).messages,
      ['involvedObject.namespace: Invalid value: "other": does not match event.namespace'],
    );
  });
  it('checks new-style events (with eventTime)', () => {
    assert.deepEqual(
      simulateCreate(coreEventResource, ev({ eventTime: '2026-01-01T00:00:00.000000Z' })).messages,
      [
        'reportingController: Required value',
        `reportingController: Invalid value: "": name part must be non-empty`,
        `reportingController: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
        'reportingInstance: Required value',
        'action: Required value',
      ],
    );
  });
  it('selects on the involved object, reason, source and type', () => {
    const fields = coreEventResource.strategy.selectableFields?.(ev());
    assert.equal(fields?.['involvedObject.name'], 'web-0');
    assert.equal(fields?.['involvedObject.uid'], 'u1');
    assert.equal(fields?.['involvedObject.kind'], 'Pod');
    assert.equal(fields?.source, 'default-scheduler');
    assert.equal(fields?.reportingComponent, '');
    assert.equal(fields?.type, 'Normal');
  });
});

describe('events.k8s.io/v1 Event', () => {
  const ev = (extra: Record<string, unknown> = {}): KubeObject => ({
    metadata: { name: 'web-0.17a8b', namespace: 'default' },
    eventTime: '2026-01-01T00:00:00.000000Z',
    regarding,
    reason: 'Started',
    note: 'Started container web',
    type: 'Normal',
    action: 'Start',
    reportingController: 'kubelet',
    reportingInstance: 'kubelet-node-1',
    ...extra,
  });
  it('accepts a complete event', () => {
    assert.deepEqual(simulateCreate(eventsEventResource, ev()).messages, []);
  });
  it('applies the strict create rules', () => {
    assert.deepEqual(
      simulateCreate(
        eventsEventResource,
        ev({ eventTime: undefined, type: 'Info', deprecatedCount: 3, series: { count: 1 } }),
      ).messages,
      [
        'series.count: Invalid value: "": should be at least 2',
        'series.lastObservedTime: Required value',
        'eventTime: Required value',
        'type: Invalid value: "": has invalid value: Info',
        'count: Invalid value: "": needs to be unset',
      ],
    );
  });
  it('keeps what happened immutable', () => {
    const stored = simulateCreate(eventsEventResource, ev()).object;
    assert.deepEqual(
      simulateUpdate(eventsEventResource, { ...stored, note: 'changed' }, stored).messages,
      ['message: Invalid value: "changed": field is immutable'],
    );
    const series = {
      ...stored,
      series: { count: 2, lastObservedTime: '2026-01-01T00:01:00.000000Z' },
    };
    assert.deepEqual(simulateUpdate(eventsEventResource, series, stored).messages, []);
  });
  it('selects on regarding.*, reportingController and source', () => {
    const fields = eventsEventResource.strategy.selectableFields?.(ev());
    assert.equal(fields?.['regarding.name'], 'web-0');
    assert.equal(fields?.reportingController, 'kubelet');
    assert.equal(fields?.source, 'kubelet');
  });
});
