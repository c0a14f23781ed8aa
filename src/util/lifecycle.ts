/**
 * A process's components, started in order and stopped in reverse. `fleetyard up` adds the
 * storage, the API server and (in later issues) controllers, simulated nodes and the
 * operator; stopping unwinds them so in-flight writes finish before the database closes.
 *
 * @module
 */

export interface Component {
  readonly name: string;
  start(): Promise<void> | void;
  stop(): Promise<void> | void;
}

export class Lifecycle {
  readonly #components: Component[] = [];
  readonly #started: Component[] = [];
  #stopping: Promise<void> | undefined;

  add(component: Component): this {
    this.#components.push(component);
    return this;
  }

  /**
   * Starts every component in order. All or nothing: when one fails, the ones already started
   * are stopped (in reverse) before the start's error is thrown, so a failed start never
   * leaves a half-started process (a server listening, the database locked). The start's
   * error is the one thrown even when stopping fails too; the stop errors ride along as its
   * `suppressed` property (an AggregateError).
   */
  async start(): Promise<void> {
    for (const c of this.#components) {
      try {
        await c.start();
      } catch (e) {
        try {
          await this.stop();
        } catch (stopError) {
          if (e instanceof Error) Object.assign(e, { suppressed: stopError });
        }
        throw e;
      }
      this.#started.push(c);
    }
  }

  /** Stops started components in reverse order. Idempotent; errors are collected, not fatal. */
  stop(): Promise<void> {
    this.#stopping ??= this.#stopAll();
    return this.#stopping;
  }

  async #stopAll(): Promise<void> {
    const errors: unknown[] = [];
    while (this.#started.length > 0) {
      const c = this.#started.pop()!;
      try {
        await c.stop();
      } catch (e) {
        errors.push(e);
      }
    }
    if (errors.length > 0) throw new AggregateError(errors, 'some components failed to stop');
  }
}
