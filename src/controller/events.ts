/**
 * The event recorder interface controllers write through (client-go's `record.EventRecorder`
 * reduced to what controllers call). The implementation that writes `v1` Events through the
 * API, with client-go's aggregation of repeats, is in `src/controller/event-recorder.ts`.
 *
 * @module
 */
import type { KubeObject } from '../api/object.js';

export type EventType = 'Normal' | 'Warning';

export interface EventRecorder {
  /**
   * Records that `reason` happened to `object` (`kubectl describe` lists it). Never throws and
   * never blocks the caller: a failed write is logged and dropped, as upstream's broadcaster.
   */
  event(object: KubeObject, type: EventType, reason: string, message: string): void;
}

/** A recorder that drops everything (tests that do not look at events). */
export const discardEvents: EventRecorder = { event: () => {} };

/** A recorder that keeps events in memory, for tests that assert on them. */
export class MemoryEventRecorder implements EventRecorder {
  readonly events: { object: KubeObject; type: EventType; reason: string; message: string }[] = [];
  event(object: KubeObject, type: EventType, reason: string, message: string): void {
    this.events.push({ object, type, reason, message });
  }
}

/** The host an Event names for its object (a kubelet's node), instead of the process's. */
export type EventHostOf = (object: KubeObject) => string | undefined;
