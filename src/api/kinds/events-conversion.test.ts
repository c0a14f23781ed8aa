import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { KubeObject } from '../object.js';
import { coreToEventsEvent, eventsEventResource, eventsToCoreEvent } from './events.js';

const regarding = { kind: 'Pod', namespace: 'default', name: 'web-0', uid: 'u1', apiVersion: 'v1' };

describe('core/v1 ↔ events.k8s.io/v1 Event (upstream pkg/apis/events/v1/conversion.go)', () => {
  it('renames the fields events.k8s.io renamed', () => {
    const core: KubeObject = {
      kind: 'Event',
      apiVersion: 'v1',
      metadata: { name: 'web-0.1', namespace: 'default' },
      involvedObject: regarding,
      reason: 'Pulled',
      message: 'Pulled image',
      source: { component: 'kubelet', host: 'n1' },
      firstTimestamp: '2026-01-01T00:00:00Z',
      lastTimestamp: '2026-01-01T00:01:00Z',
      count: 3,
      type: 'Normal',
      reportingComponent: 'kubelet',
      reportingInstance: 'n1',
    };
    assert.deepEqual(coreToEventsEvent(core), {
      kind: 'Event',
      apiVersion: 'events.k8s.io/v1',
      metadata: { name: 'web-0.1', namespace: 'default' },
      eventTime: null,
      reportingController: 'kubelet',
      reportingInstance: 'n1',
      reason: 'Pulled',
      regarding,
      note: 'Pulled image',
      type: 'Normal',
      deprecatedSource: { component: 'kubelet', host: 'n1' },
      deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
      deprecatedLastTimestamp: '2026-01-01T00:01:00Z',
      deprecatedCount: 3,
    });
  });

  it('writes core/v1’s non-omitempty fields when storing an events.k8s.io event', () => {
    const core = eventsToCoreEvent({
      metadata: { name: 'e' },
      eventTime: '2026-01-01T00:00:00.000000Z',
      reason: 'Scaled',
      regarding,
      type: 'Normal',
    });
    assert.equal(core.reportingComponent, '');
    assert.equal(core.reportingInstance, '');
    assert.deepEqual(core.source, {});
    assert.deepEqual(core.involvedObject, regarding);
  });

  it('does not change its input', () => {
    const ev: KubeObject = { metadata: { name: 'e' }, regarding: { ...regarding }, note: 'x' };
    const before = structuredClone(ev);
    eventsToCoreEvent(ev);
    coreToEventsEvent(eventsToCoreEvent(ev));
    assert.deepEqual(ev, before);
  });

  it('field selectors of events.k8s.io read the served form', () => {
    const fields = eventsEventResource.strategy.selectableFields?.(
      coreToEventsEvent({
        metadata: { name: 'e' },
        involvedObject: regarding,
        source: { component: 'kubelet' },
        reportingComponent: '',
      }),
    );
    assert.equal(fields?.['regarding.name'], 'web-0');
    assert.equal(fields?.source, 'kubelet');
  });

  const text = fc.string({ minLength: 1, maxLength: 8 });
  const time = fc.constantFrom('2026-01-01T00:00:00Z', '2026-03-04T05:06:07Z');
  const canonicalCore = fc
    .record(
      {
        reason: text,
        message: text,
        source: fc.record({ component: text }, { requiredKeys: [] }),
        firstTimestamp: time,
        lastTimestamp: time,
        count: fc.integer({ min: 1, max: 100 }),
        type: fc.constantFrom('Normal', 'Warning'),
        eventTime: fc.constantFrom('2026-01-01T00:00:00.000000Z'),
        series: fc.record({ count: fc.integer({ min: 2, max: 9 }), lastObservedTime: time }),
        action: text,
        related: fc.constant({ kind: 'Node', name: 'n1' }),
        reportingComponent: fc.constantFrom('', 'kubelet'),
        reportingInstance: fc.constantFrom('', 'n1'),
      },
      { requiredKeys: ['source', 'reportingComponent', 'reportingInstance'] },
    )
    .map(
      (r): KubeObject =>
        JSON.parse(
          JSON.stringify({
            kind: 'Event',
            apiVersion: 'v1',
            metadata: { name: 'e', namespace: 'default' },
            involvedObject: regarding,
            ...r,
          }),
        ),
    );

  it('core → events.k8s.io → core is the identity on stored core events', () => {
    fc.assert(
      fc.property(canonicalCore, (core) => {
        assert.deepEqual(eventsToCoreEvent(coreToEventsEvent(core)), core);
      }),
    );
  });

  it('events.k8s.io → core → events.k8s.io is the identity on served events', () => {
    fc.assert(
      fc.property(canonicalCore, (core) => {
        const served = coreToEventsEvent(core);
        assert.deepEqual(coreToEventsEvent(eventsToCoreEvent(served)), served);
      }),
    );
  });
});
