/**
 * The two system PriorityClasses every cluster has, `system-node-critical` (2000001000) and
 * `system-cluster-critical` (2000000000), after upstream's `scheduling/bootstrap-system-
 * priority-classes` post-start hook (`pkg/registry/scheduling/rest`): created at start when
 * missing, through the object store (so validation applies as to any write).
 *
 * Upstream runs the hook once (retrying until it succeeds) and relies on the REST `Delete`
 * refusing to delete them; a DeleteCollection still can, so this checks again every 10 s of
 * the injected clock (the bootstrap reconciler's interval) and restores a missing class. An
 * existing class is never rewritten: its value and policy are immutable and validation pins
 * the value, so there is nothing to correct.
 *
 * @module
 */
import { StatusError } from '../../api/errors.js';
import {
  SYSTEM_PRIORITY_CLASSES,
  type SystemPriorityClass,
  systemPriorityClassObject,
} from '../../api/kinds/scheduling-priorityclass.js';
import type { ResourceDefinition } from '../../api/resource.js';
import type { Clock } from '../../util/clock.js';
import type { ResourceRegistry } from '../registry.js';
import { objectKey } from '../store/keys.js';
import type { ObjectStore } from '../store/object-store.js';
import { RECONCILE_INTERVAL_MS } from './reconciler.js';

export interface SystemPriorityClassesOptions {
  readonly store: ObjectStore;
  readonly registry: ResourceRegistry;
  readonly clock: Pick<Clock, 'setTimer'>;
  readonly onError?: (message: string, error: unknown) => void;
}

/** The system classes missing from `exists` (a pure plan, in upstream's order). */
export function missingSystemClasses(
  exists: (name: string) => boolean,
): readonly SystemPriorityClass[] {
  return SYSTEM_PRIORITY_CLASSES.filter((c) => !exists(c.name));
}

/** Keeps the system PriorityClasses present: once at start, then every 10 s. */
export class SystemPriorityClassReconciler {
  readonly #o: SystemPriorityClassesOptions;
  #cancel: (() => void) | undefined;
  #stopped = false;

  constructor(options: SystemPriorityClassesOptions) {
    this.#o = options;
  }

  /** Creates the missing classes (done on return), then checks every interval. */
  async start(): Promise<void> {
    const def = this.#o.registry.get('scheduling.k8s.io', 'v1', 'priorityclasses');
    if (def === undefined) return;
    await this.#pass(def);
    this.#schedule(def);
  }

  stop(): void {
    this.#stopped = true;
    this.#cancel?.();
  }

  #schedule(def: ResourceDefinition): void {
    if (this.#stopped) return;
    this.#cancel = this.#o.clock.setTimer(RECONCILE_INTERVAL_MS, () => {
      void this.#pass(def).finally(() => this.#schedule(def));
    });
  }

  async #pass(def: ResourceDefinition): Promise<void> {
    const { store } = this.#o;
    const exists = (name: string) =>
      store.backend.getLatest(objectKey(def, '', name)) !== undefined;
    for (const c of missingSystemClasses(exists)) {
      try {
        await store.create(def, '', systemPriorityClassObject(c));
      } catch (e) {
        // 409: created meanwhile; anything else is reported and retried next pass.
        if (e instanceof StatusError && e.code === 409) continue;
        if (!this.#stopped) this.#o.onError?.(`unable to create PriorityClass ${c.name}`, e);
      }
    }
  }
}
