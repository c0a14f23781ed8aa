/**
 * The invariant engine: fed every watch event of the kinds the invariants name, in stream
 * order, it keeps its own cache per kind and, after each event, re-evaluates the invariants
 * of that kind whose namespace and selector match the object (before or after the change)
 * against the matching objects. The first violation is kept; later events still enter the
 * history (a few, to show what followed) but are no longer evaluated.
 *
 * It knows nothing of HTTP or clocks — the runner feeds it from informers, tests feed it
 * synthetic sequences — so the rule "checked at every event" is testable exactly.
 *
 * An invariant with `after: STEP` is inactive until that step has finished; it is then
 * checked once against the current state (event type `SYNC`), as is every invariant when
 * its kind's first list arrives.
 *
 * @module
 */
import { type LabelSelector, parseLabelSelector } from '../../api/labels/selector.js';
import type { KubeObject } from '../../api/object.js';
import { countMet, countOf, describeBounds } from './conditions.js';
import { summarize } from './summary.js';
import type { Invariant } from './types.js';

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface ObservedEvent {
  /** Order of arrival, from 1. */
  readonly seq: number;
  /** Virtual time of arrival, ms. */
  readonly time: number;
  readonly type: EventType;
  /** The resource the event is of (the runner's key, e.g. `apps/statefulsets`). */
  readonly key: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  readonly resourceVersion?: string;
  readonly summary: string;
  readonly object: KubeObject;
  /** The cached state before the event, if there was one. */
  readonly oldObject?: KubeObject;
}

export interface Violation {
  readonly invariant: Invariant;
  readonly time: number;
  /** `objects.filter(...).size() <= 1 is false (3 objects)`, `count is 2, want at most 1`. */
  readonly message: string;
  /** The event after which it failed; absent for a check on sync or activation. */
  readonly event?: ObservedEvent;
  /** The rule could not be evaluated (rather than being false). */
  readonly error: boolean;
}

export interface InvariantStatus {
  readonly invariant: Invariant;
  /** How many times it was evaluated. */
  readonly checks: number;
  readonly violation?: Violation;
}

interface Slot {
  readonly invariant: Invariant;
  /** The resource key its kind resolved to; unbound slots are not checked. */
  key: string | undefined;
  readonly selector: LabelSelector | undefined;
  active: boolean;
  checks: number;
}

/** Events kept after a violation, to show what followed it. */
const EVENTS_AFTER_VIOLATION = 5;

export class InvariantEngine {
  readonly #slots: Slot[];
  readonly #caches = new Map<string, Map<string, KubeObject>>();
  readonly #historySize: number;
  #history: ObservedEvent[] = [];
  #seq = 0;
  #violation: Violation | undefined;
  /** History length when the violation happened. */
  #violationAt = 0;

  constructor(invariants: readonly Invariant[], options: { historySize?: number } = {}) {
    this.#historySize = options.historySize ?? 20;
    this.#slots = invariants.map((invariant) => ({
      invariant,
      key: undefined,
      selector: invariant.target.selector
        ? parseLabelSelector(invariant.target.selector)
        : undefined,
      active: invariant.after === undefined,
      checks: 0,
    }));
  }

  /**
   * Ties an invariant to the resource key its kind resolved to (the runner resolves kinds
   * through discovery; a custom resource's only once its CRD is served). If that kind is
   * already synced, the invariant is checked at once.
   */
  bind(invariant: Invariant, key: string, time: number): Violation | undefined {
    const slot = this.#slots.find((s) => s.invariant === invariant);
    if (slot === undefined || slot.key !== undefined) return undefined;
    slot.key = key;
    return this.#caches.has(key) ? this.#checkAll((s) => s === slot, time, undefined) : undefined;
  }

  /** Invariants not bound to a resource yet. */
  unbound(): Invariant[] {
    return this.#slots.filter((s) => s.key === undefined).map((s) => s.invariant);
  }

  get violation(): Violation | undefined {
    return this.#violation;
  }

  /** The first list of a kind: its cache becomes `objects`; its invariants are checked once. */
  sync(key: string, objects: readonly KubeObject[], time: number): Violation | undefined {
    this.#caches.set(key, new Map(objects.map((o) => [cacheKey(o), o])));
    return this.#checkAll((s) => s.key === key, time, undefined);
  }

  /** One watch event: the event as recorded, and the violation it caused, if any. */
  observe(
    input: Pick<ObservedEvent, 'time' | 'type' | 'key' | 'object'> & { readonly kind?: string },
  ): { readonly event: ObservedEvent; readonly violation?: Violation } {
    // Before its first list a kind has no cache: the event is history, not yet state.
    const cache = this.#caches.get(input.key);
    const k = cacheKey(input.object);
    const oldObject = cache?.get(k);
    if (input.type === 'DELETED') cache?.delete(k);
    else cache?.set(k, input.object);
    const meta = input.object.metadata;
    const event: ObservedEvent = {
      seq: ++this.#seq,
      time: input.time,
      type: input.type,
      key: input.key,
      kind: input.kind ?? input.object.kind ?? input.key,
      namespace: meta?.namespace || undefined,
      name: meta?.name ?? '',
      resourceVersion: meta?.resourceVersion,
      summary: summarize(input.object),
      object: input.object,
      oldObject,
    };
    this.#record(event);
    if (this.#violation !== undefined || cache === undefined) return { event };
    const relevant = (s: Slot): boolean =>
      s.key === input.key &&
      (matches(s, input.object) || (oldObject !== undefined && matches(s, oldObject)));
    const violation = this.#checkAll(relevant, input.time, event);
    return violation ? { event, violation } : { event };
  }

  /** Activates the invariants that start after step `name` and checks them now. */
  stepDone(name: string, time: number): Violation | undefined {
    const starting = this.#slots.filter((s) => !s.active && s.invariant.after === name);
    for (const s of starting) s.active = true;
    return this.#checkAll((s) => starting.includes(s), time, undefined);
  }

  /** The events before the violation (up to the history size, the violating one last) and after it. */
  history(): {
    readonly before: readonly ObservedEvent[];
    readonly after: readonly ObservedEvent[];
  } {
    if (this.#violation === undefined) return { before: this.#history, after: [] };
    return {
      before: this.#history.slice(0, this.#violationAt),
      after: this.#history.slice(this.#violationAt),
    };
  }

  /** Every invariant: how often it was checked, and its violation. */
  statuses(): InvariantStatus[] {
    return this.#slots.map((s) => ({
      invariant: s.invariant,
      checks: s.checks,
      ...(this.#violation?.invariant === s.invariant ? { violation: this.#violation } : {}),
    }));
  }

  #record(event: ObservedEvent): void {
    if (this.#violation === undefined) {
      this.#history.push(event);
      // Trim in batches: one splice per history size of events rather than one per event.
      if (this.#history.length > this.#historySize * 2) {
        this.#history = this.#history.slice(-this.#historySize);
      }
    } else if (this.#history.length < this.#violationAt + EVENTS_AFTER_VIOLATION) {
      this.#history.push(event);
    }
  }

  #checkAll(
    which: (s: Slot) => boolean,
    time: number,
    event: ObservedEvent | undefined,
  ): Violation | undefined {
    if (this.#violation !== undefined) return undefined;
    for (const slot of this.#slots) {
      if (!slot.active || slot.key === undefined || !which(slot)) continue;
      const violation = this.#check(slot, time, event);
      if (violation === undefined) continue;
      this.#violation = violation;
      this.#history = this.#history.slice(-this.#historySize);
      this.#violationAt = this.#history.length;
      return violation;
    }
    return undefined;
  }

  #check(slot: Slot, time: number, event: ObservedEvent | undefined): Violation | undefined {
    slot.checks++;
    const invariant = slot.invariant;
    const cache = this.#caches.get(slot.key ?? '') ?? new Map<string, KubeObject>();
    const objects = [...cache.values()].filter((o) => matches(slot, o)).sort(byKey);
    const fail = (message: string, error = false): Violation => ({
      invariant,
      time,
      message,
      error,
      ...(event ? { event } : {}),
    });
    const rule = invariant.rule;
    try {
      if (rule.form === 'count') {
        const n = countOf(rule.count, objects);
        return countMet(rule.count, n)
          ? undefined
          : fail(`count is ${n}, want ${describeBounds(rule.count)}`);
      }
      const ok = rule.cel.evaluate({
        objects,
        now: time,
        event: event
          ? { type: event.type, object: event.object, oldObject: event.oldObject }
          : { type: 'SYNC' },
      });
      return ok ? undefined : fail(`${rule.cel.source} is false (${objects.length} objects)`);
    } catch (err) {
      // CEL evaluation errors, JSONPath errors: the rule cannot say whether it holds.
      if (!(err instanceof Error)) throw err;
      return fail(`could not be evaluated: ${err.message}`, true);
    }
  }
}

function matches(slot: Slot, o: KubeObject): boolean {
  const ns = slot.invariant.target.namespace;
  if (ns !== undefined && (o.metadata?.namespace ?? '') !== ns) return false;
  return slot.selector === undefined || slot.selector.matches(o.metadata?.labels);
}

function cacheKey(o: KubeObject): string {
  return `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
}

function byKey(a: KubeObject, b: KubeObject): number {
  const ka = cacheKey(a);
  const kb = cacheKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}
