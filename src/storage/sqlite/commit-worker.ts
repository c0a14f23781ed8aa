/**
 * The commit worker: owns the SQLite connections and runs appends and compaction, so the main
 * thread keeps sequencing and applying writes while a batch is inserted and fsynced.
 *
 * After a failed append every later append to that store is refused without touching the
 * database: the engine may already have sent batches that build on the failed one, and
 * committing them would leave a gap in the log.
 *
 * @module
 */
import { parentPort } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { LogStore, type RowCell } from './log-store.js';
import { prepareDatabase } from './schema.js';
import type { WorkerOp, WorkerReply, WorkerRequest } from './worker-protocol.js';

interface Store {
  readonly db: Database.Database;
  readonly log: LogStore;
  failed?: string;
  closing: boolean;
  /** Compaction runs in chunks between other requests; close waits for it. */
  compaction: Promise<void>;
}

const stores = new Map<number, Store>();

function errorOf(err: unknown): WorkerReply['error'] {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return { message: err.message, code: typeof code === 'string' ? code : undefined };
  }
  return { message: String(err) };
}

function open(id: number, file: string): void {
  const db = new Database(file, { timeout: 0 });
  try {
    prepareDatabase(db);
    stores.set(id, { db, log: new LogStore(db), closing: false, compaction: Promise.resolve() });
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

async function handle(id: number, req: WorkerOp): Promise<void> {
  if (req.op === 'open') return open(id, req.file);
  const store = stores.get(id);
  if (!store) throw new Error(`store ${id} is not open`);
  switch (req.op) {
    case 'append':
      return append(store, req.cells);
    case 'compact':
      return compact(store, req.revision);
    case 'close':
      return close(id, store);
  }
}

const port = parentPort;
if (!port) throw new Error('commit-worker must run in a worker thread');
port.on('message', (req: WorkerRequest) => {
  handle(req.store, req).then(
    () => port.postMessage({ id: req.id } satisfies WorkerReply),
    (err: unknown) => port.postMessage({ id: req.id, error: errorOf(err) } satisfies WorkerReply),
  );
});
