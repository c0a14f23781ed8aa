/**
 * A scripted {@link ListerWatcher} for tests: lists answer from a queue the test fills (a
 * list waits until an answer is queued), and every watch call opens a {@link FakeWatch} the
 * test drives event by event, then ends or fails.
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import type {
  ListerWatcher,
  ListOptions,
  ListResult,
  WatchEvent,
  WatchEventType,
  WatchOptions,
} from '../lister-watcher.js';

type ListAnswer<T extends KubeObject> = ListResult<T> | Error;

/** One open watch stream. */
export class FakeWatch<T extends KubeObject = KubeObject> {
  readonly options: WatchOptions;
  readonly #onEvent: (event: WatchEvent<T>) => void;
  readonly #resolve: () => void;
  readonly #reject: (err: unknown) => void;
  #closed = false;

  constructor(
    options: WatchOptions,
    onEvent: (event: WatchEvent<T>) => void,
    resolve: () => void,
    reject: (err: unknown) => void,
  ) {
    this.options = options;
    this.#onEvent = onEvent;
    this.#resolve = resolve;
    this.#reject = reject;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Delivers one event; if the consumer throws, the stream fails with that error. */
  emit(type: WatchEventType, object: T): void {
    if (this.#closed) throw new Error('emit on a closed fake watch');
    try {
      this.#onEvent({ type, object });
    } catch (err) {
      this.fail(err);
    }
  }

  /** The server ends the stream normally. */
  end(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#resolve();
  }

  /** The stream fails (e.g. with an ExpiredError, as an ERROR 410 event would). */
  fail(err: unknown): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#reject(err);
  }
}

export class FakeListerWatcher<T extends KubeObject = KubeObject> implements ListerWatcher<T> {
  /** Every list call's options, in order. */
  readonly listCalls: ListOptions[] = [];
  /** Every watch opened, in order. */
  readonly watches: FakeWatch<T>[] = [];
  #defaultList: ListResult<T> | undefined;
  /** Called with each new watch, e.g. to fail it at once. */
  onWatch: ((watch: FakeWatch<T>) => void) | undefined;
  /** The clock time of each list call, when a clock is given. */
  readonly listTimes: number[] = [];
  readonly #now: (() => number) | undefined;
  readonly #answers: ListAnswer<T>[] = [];

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now;
  }
  #listWaiter: (() => void) | undefined;

  /** Answers lists while no scripted answer is queued (else lists wait for one). */
  setDefaultList(answer: ListResult<T>): void {
    this.#defaultList = answer;
    this.#listWaiter?.();
  }

  /** Queues the answer to the next list call. */
  answerList(answer: ListAnswer<T>): void {
    this.#answers.push(answer);
    this.#listWaiter?.();
  }

  /** Waits for an answer; rejects with the signal's reason when it aborts first. */
  async list(options: ListOptions, signal?: AbortSignal): Promise<ListResult<T>> {
    this.listCalls.push(options);
    if (this.#now) this.listTimes.push(this.#now());
    while (this.#answers.length === 0 && this.#defaultList === undefined) {
      await new Promise<void>((resolve, reject) => {
        const onAbort = (): void => reject(signal?.reason);
        if (signal?.aborted) onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        this.#listWaiter = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
      });
    }
    const answer = this.#answers.shift() ?? this.#defaultList!;
    if (answer instanceof Error) throw answer;
    return answer;
  }

  watch(
    options: WatchOptions,
    onEvent: (event: WatchEvent<T>) => void,
    signal: AbortSignal,
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => w.end();
      const settle =
        <A extends unknown[]>(fn: (...args: A) => void) =>
        (...args: A): void => {
          signal.removeEventListener('abort', onAbort);
          fn(...args);
        };
      const w = new FakeWatch<T>(options, onEvent, settle(resolve), settle(reject));
      signal.addEventListener('abort', onAbort, { once: true });
      this.watches.push(w);
      this.onWatch?.(w);
    });
  }

  /** The most recently opened watch. */
  get current(): FakeWatch<T> | undefined {
    return this.watches.at(-1);
  }
}
