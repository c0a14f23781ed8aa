/**
 * A controller test bench: an in-process API server on the memory backend (plain HTTP on a
 * free loopback port) and a {@link ControllerContext} that talks to it over HTTP, exactly as
 * controllers talk to a remote server. Tests create objects through `client`, run the
 * controllers under test, and wait for states with {@link eventually}.
 *
 * Controllers get a real clock by default: their waits are short (slow start, expectations).
 * Pass a `FakeClock` for planners whose timed waits (minReadySeconds, deadlines) a test must
 * step; the API server then runs on the same clock, so the creationTimestamp and
 * deletionTimestamp it stamps agree with the controllers' idea of now.
 *
 * @module
 */
import pino from 'pino';
import type { KubeObject } from '../../api/object.js';
import { apiExtensions } from '../../apiextensions/index.js';
import { startTestServer, type TestServer } from '../../apiserver/testing/test-server.js';
import { ApiClient, isNotFound } from '../../client/api-client.js';
import { HttpListerWatcher } from '../../client/http-lister-watcher.js';
import type { CollectionRef, ObjectRef } from '../../client/resource-path.js';
import { type Clock, realClock } from '../../util/clock.js';
import type { ControllerContext, ControllerDefinition } from '../context.js';
import { MemoryEventRecorder } from '../events.js';
import { createInformerFactory } from '../informer-factory.js';

export interface Harness {
  readonly api: TestServer;
  readonly client: ApiClient;
  readonly ctx: ControllerContext;
  /** Every event any controller recorded, in order. */
  readonly events: MemoryEventRecorder;
  /** Starts controllers in the harness's context; they stop with {@link Harness.close}. */
  run(...controllers: ControllerDefinition[]): void;
  /** Lists a collection's items (narrow them with `asKind`). */
  list(ref: CollectionRef, labelSelector?: string): Promise<KubeObject[]>;
  /** Gets an object, or undefined when it does not exist (narrow it with `asKind`). */
  get(ref: ObjectRef): Promise<KubeObject | undefined>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  readonly clock?: Clock;
  /** Log level of the context's logger. @default 'silent' */
  readonly logLevel?: string;
  /** Metrics hooks the controllers get (tests that assert on what is recorded). */
  readonly metrics?: ControllerContext['metrics'];
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const api = await startTestServer({
    extensions: apiExtensions(),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const clock = options.clock ?? realClock;
  const stop = new AbortController();
  const client = new ApiClient({ server: api.url, clock });
  const log = pino({ level: options.logLevel ?? 'silent' });
  const events = new MemoryEventRecorder();
  const informers = createInformerFactory({
    clock,
    signal: stop.signal,
    listerWatcher: (path) => new HttpListerWatcher({ server: api.url, path, clock }),
    log,
  });
  const ctx: ControllerContext = {
    client,
    informers,
    clock,
    random: Math.random,
    log,
    eventRecorder: () => events,
    metrics: options.metrics ?? { controller: {}, queue: {} },
    signal: stop.signal,
    clientAs: () => client,
  };
  const running: Promise<void>[] = [];
  return {
    api,
    client,
    ctx,
    events,
    run: (...controllers) => {
      for (const c of controllers) {
        running.push(
          c.start({ ...ctx, log: log.child({ controller: c.name }) }).catch((err: unknown) => {
            log.error({ err, controller: c.name }, 'controller failed');
          }),
        );
      }
    },
    list: async (ref, labelSelector) =>
      (await client.list(ref, labelSelector ? { labelSelector } : {})).items,
    get: async (ref) => {
      try {
        return await client.get(ref);
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
    close: async () => {
      stop.abort();
      await Promise.all(running);
      await api.close();
    },
  };
}

/**
 * Polls `probe` until it returns a value other than undefined/false, or throws the last
 * assertion error after `timeoutMs` (wall time: the server runs on real time).
 */
export async function eventually<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  { timeoutMs = 10_000, intervalMs = 20 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value as T;
      last = undefined;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw last ?? new Error(`eventually: condition not met within ${timeoutMs} ms`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
