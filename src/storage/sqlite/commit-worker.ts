/**
 * The commit worker: owns the SQLite connections and runs appends and compaction, so the main
 * thread keeps sequencing and applying writes while a batch is inserted and fsynced.
 *
 * After a failed append every later append to that store is refused without touching the
 * database until the engine sends `reset`: the engine may already have sent batches that build
 * on the failed one, and committing them would leave a gap in the log. A failure for lack of
 * space also gives the store's space reserve back (`reserve.ts`); `probe` takes it again.
 *
 * @module
 */
import { parentPort } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { LogStore, type RowCell } from './log-store.js';
import { SpaceReserve } from './reserve.js';
import { prepareDatabase } from './schema.js';
import { afterFailedAppend, probeDisk } from './space.js';
import type { WorkerOp, WorkerReply, WorkerRequest } from './worker-protocol.js';

interface Store {
  readonly db: Database.Database;
  readonly log: LogStore;
  readonly reserve: SpaceReserve;
  failed?: string | undefined;
  closing: boolean;
  /** Compaction runs in chunks between other requests; close waits for it. */
  compaction: Promise<void>;
}

const stores = new Map<number, Store>();

function errorOf(err: unknown): WorkerReply['error'] {
  if (err instanceof Error) {
    const code = 'code' in err ? err.code : undefined;
    return { message: err.message, code: typeof code === 'string' ? code : undefined };
  }
  return { message: String(err) };
}

function open(id: number, file: string, reserveBytes: number): void {
  const db = new Database(file, { timeout: 0 });
  try {
    prepareDatabase(db);
    stores.set(id, {
      db,
      log: new LogStore(db),
      reserve: new SpaceReserve(file, reserveBytes),
      closing: false,
      compaction: Promise.resolve(),
    });
  } catch (err) {
    db.close();
    throw err;
  }
}

function append(store: Store, cells: readonly RowCell[]): void {
  if (store.failed) throw new Error(`an earlier append failed: ${store.failed}`);
  try {
    store.log.append(cells);
  } catch (err) {
    store.failed = err instanceof Error ? err.message : String(err);
    afterFailedAppend(store.reserve, err);
    throw err;
  }
}

function compact(store: Store, revision: number): Promise<void> {
  const stop = () => store.closing || store.failed !== undefined;
  const run = store.compaction.then(() => store.log.compact(revision, stop));
  store.compaction = run.catch(() => {});
  return run;
}

async function close(id: number, store: Store): Promise<void> {
  store.closing = true;
  await store.compaction;
  stores.delete(id);
  store.db.close();
}

async function handle(id: number, req: WorkerOp): Promise<boolean | undefined> {
  if (req.op === 'open') {
    open(id, req.file, req.reserveBytes);
    return undefined;
  }
  const store = stores.get(id);
  if (!store) throw new Error(`store ${id} is not open`);
  switch (req.op) {
    case 'append':
      append(store, req.cells);
      return undefined;
    case 'reset':
      store.failed = undefined;
      return undefined;
    case 'probe':
      return probeDisk(store.reserve, store.log);
    case 'compact':
      await compact(store, req.revision);
      return undefined;
    case 'close':
      await close(id, store);
      return undefined;
  }
}

const port = parentPort;
if (!port) throw new Error('commit-worker must run in a worker thread');
port.on('message', (req: WorkerRequest) => {
  handle(req.store, req).then(
    (result) => port.postMessage({ id: req.id, result } satisfies WorkerReply),
    (err: unknown) => port.postMessage({ id: req.id, error: errorOf(err) } satisfies WorkerReply),
  );
});
