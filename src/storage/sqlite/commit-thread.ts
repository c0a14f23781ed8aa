/**
 * The process's one commit worker, started on first use and shared by every SQLite store
 * (the first open costs ~75 ms from built JavaScript, ~350 ms from sources under tsx; later
 * opens ~2 ms).
 * It keeps the process alive only while a request is outstanding, like a same-thread
 * connection would, and a new one is started if it ever dies.
 *
 * @module
 */
import { Worker } from 'node:worker_threads';
import type { WorkerOp, WorkerReply, WorkerRequest } from './worker-protocol.js';

interface Waiting {
  readonly resolve: (result: boolean | undefined) => void;
  readonly reject: (err: Error) => void;
}

function toError(error: NonNullable<WorkerReply['error']>): Error {
  const err = new Error(`storage: sqlite: ${error.message}`);
  if (error.code) Object.assign(err, { code: error.code });
  return err;
}

/**
 * Starts the worker. From TypeScript sources (tests and benchmarks under tsx) the entry is a
 * `.ts` file, and Node 20 does not apply the parent's `--import tsx` hooks to a worker's
 * entry, so the worker registers tsx itself before importing it.
 */
function spawnWorker(): Worker {
  const self = import.meta.url;
  if (!self.endsWith('.ts')) return new Worker(new URL('./commit-worker.js', self));
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const entry = JSON.stringify(new URL('./commit-worker.ts', self).href);
  const boot = `import(${tsx}).then((t) => { t.register(); return import(${entry}); });`;
  return new Worker(boot, { eval: true });
}

/** One running worker and the requests it owes answers to. */
export class CommitThread {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, Waiting>();
  #nextId = 1;
  #dead: Error | undefined;

  constructor() {
    this.#worker = spawnWorker();
    this.#worker.on('message', (reply: WorkerReply) => this.#onReply(reply));
    this.#worker.on('error', (err) => this.#die(err));
    this.#worker.on('exit', (code) =>
      this.#die(new Error(`storage: commit worker exited (${code})`)),
    );
    this.#worker.unref();
  }

  /** Set once the worker died; every request then fails with it. */
  get dead(): Error | undefined {
    return this.#dead;
  }

  /** Sends `op` for `store`; resolves (with a probe's answer) or rejects with the worker's. */
  request(store: number, op: WorkerOp): Promise<boolean | undefined> {
    if (this.#dead) return Promise.reject(this.#dead);
    const id = this.#nextId++;
    if (this.#waiting.size === 0) this.#worker.ref();
    const answer = new Promise<boolean | undefined>((resolve, reject) =>
      this.#waiting.set(id, { resolve, reject }),
    );
    this.#worker.postMessage({ ...op, id, store } satisfies WorkerRequest);
    return answer;
  }

  #onReply(reply: WorkerReply): void {
    const waiting = this.#waiting.get(reply.id);
    if (!waiting) return;
    this.#waiting.delete(reply.id);
    if (this.#waiting.size === 0) this.#worker.unref();
    if (reply.error) waiting.reject(toError(reply.error));
    else waiting.resolve(reply.result);
  }

  #die(err: Error): void {
    this.#dead ??= err;
    for (const waiting of this.#waiting.values()) waiting.reject(this.#dead);
    this.#waiting.clear();
  }
}

let shared: CommitThread | undefined;
let nextStore = 1;

/** The shared worker (a fresh one if the last one died) and a new store id on it. */
export function commitThread(): { thread: CommitThread; store: number } {
  if (!shared || shared.dead) shared = new CommitThread();
  return { thread: shared, store: nextStore++ };
}
