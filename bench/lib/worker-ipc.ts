/**
 * Forked benchmark workers (load generators, watchers): a child process that receives its
 * config, reports `ready`, waits for `start` (so all generators begin together), and reports
 * its result. Workers also exit by themselves after `lifetimeMs` and when the parent goes
 * away, so no generator outlives the benchmark.
 *
 * @module
 */
import { type ChildProcess, fork } from 'node:child_process';
import { stopChild, track } from './cleanup.js';

type ParentMessage<C> =
  | { readonly type: 'config'; readonly config: C; readonly lifetimeMs: number }
  | { readonly type: 'start'; readonly payload?: unknown };

type ChildMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'result'; readonly result: unknown }
  | { readonly type: 'error'; readonly message: string };

export interface WorkerHandle<R> {
  readonly child: ChildProcess;
  /** Resolves once the worker has set itself up (e.g. opened its connections). */
  readonly ready: Promise<void>;
  /** Tells the worker to begin; `payload` is passed to its `run`. */
  start(payload?: unknown): void;
  readonly result: Promise<R>;
  stop(): Promise<void>;
}

/** Forks `file` (a TypeScript module run through tsx) as a worker with `config`. */
export function forkWorker<C, R>(file: URL, config: C, lifetimeMs: number): WorkerHandle<R> {
  const child = track(
    fork(file, [], {
      execArgv: ['--import', 'tsx'],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  let onReady: () => void = () => {};
  let onResult: (r: R) => void = () => {};
  let onError: (e: Error) => void = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    onReady = resolve;
    onError = reject;
  });
  const result = new Promise<R>((resolve, reject) => {
    onResult = resolve;
    const prev = onError;
    onError = (e) => {
      prev(e);
      reject(e);
    };
  });
  // Callers may await only one of the two; the other must not become an unhandled rejection.
  ready.catch(() => {});
  result.catch(() => {});
  child.on('message', (m: ChildMessage) => {
    if (m.type === 'ready') onReady();
    else if (m.type === 'result') onResult(m.result as R);
    else onError(new Error(`worker ${file.pathname}: ${m.message}`));
  });
  child.once('exit', (code, signal) =>
    onError(new Error(`worker ${file.pathname} exited (${code ?? signal}) before its result`)),
  );
  child.send({ type: 'config', config, lifetimeMs } satisfies ParentMessage<C>);
  return {
    child,
    ready,
    result,
    start: (payload?: unknown) => {
      child.send({ type: 'start', payload } satisfies ParentMessage<C>);
    },
    stop: () => stopChild(child),
  };
}

export interface WorkerMain<C, S, R> {
  /** Sets up (connections, watches) and returns the state `run` uses. */
  setup(config: C): Promise<S>;
  run(state: S, config: C, payload: unknown): Promise<R>;
}

/** The child side: call from a worker module's top level. */
export function workerMain<C, S, R>(main: WorkerMain<C, S, R>): void {
  const send = (m: ChildMessage, then?: () => void): void => {
    process.send?.(m, undefined, {}, () => then?.());
  };
  let state: S | undefined;
  let config: C | undefined;
  process.on('disconnect', () => process.exit(0));
  process.on('message', (m: ParentMessage<C>) => {
    if (m.type === 'config') {
      config = m.config;
      // Hard bound: a worker never outlives its budget, whatever the parent does.
      setTimeout(() => process.exit(3), m.lifetimeMs).unref();
      main.setup(m.config).then(
        (s) => {
          state = s;
          send({ type: 'ready' });
        },
        (e: unknown) => send({ type: 'error', message: String(e) }),
      );
      return;
    }
    main.run(state as S, config as C, m.payload).then(
      // Disconnecting (which exits, see above) only once the result is flushed to the parent.
      (result) => send({ type: 'result', result }, () => process.disconnect()),
      (e: unknown) =>
        send({ type: 'error', message: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
    );
  });
}
