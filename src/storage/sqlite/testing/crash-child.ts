/**
 * Crash-test child: opens the SQLite store and writes as fast as it can, with 32 writes in
 * flight, printing one line per acknowledged write (`ACK <rev> <type> <key> <digest>`), until
 * the parent SIGKILLs it. stdout is a pipe, and pipe writes are synchronous on Linux, so a
 * printed line is never lost to the kill.
 *
 * Usage: node --import tsx crash-child.ts <dir> <seed> <worker|main> [maxPad]
 *
 * `maxPad` (default 1,500) bounds each value's filler; with 20,000 each compaction frees
 * megabytes, so kills also land inside incremental vacuum steps (`log-store.ts`).
 *
 * @module
 */
import { openSqliteBackend } from '../backend.js';
import { digest, makeValue } from './crash-value.js';

const [dir, seedArg, commitThread, maxPadArg] = process.argv.slice(2);
const maxPad = Number(maxPadArg ?? 1500) || 1500;
if (!dir || (commitThread !== 'worker' && commitThread !== 'main')) {
  throw new Error('usage: crash-child.ts <dir> <seed> <worker|main>');
}
let seed = Number(seedArg ?? 1) || 1;
/** Lehmer generator: reproducible from the seed the parent prints on failure. */
function random(n: number): number {
  seed = (seed * 48271) % 2147483647;
  return seed % n;
}

// A small history makes background compaction run every 1,000 revisions, so kills also land
// inside compaction chunks.
const store = await openSqliteBackend({ path: dir, historyLimit: 200, commitThread });
process.stdout.write(`READY ${store.currentRevision()}\n`);

async function writeOne(): Promise<void> {
  const key = `/crash/${random(64)}`;
  const encode = (rv: number) => makeValue(key, rv, random(maxPad));
  const latest = store.getLatest(key);
  const roll = random(10);
  let type: string;
  let write: Promise<{ modRevision: number; value: string }>;
  if (!latest) {
    type = 'create';
    write = store.create(key, encode);
  } else if (roll < 7) {
    type = 'update';
    write = store.update(key, encode, latest.modRevision);
  } else {
    type = 'delete';
    write = store.delete(key, latest.modRevision, encode);
  }
  const kv = await write;
  process.stdout.write(`ACK ${kv.modRevision} ${type} ${key} ${digest(kv.value)}\n`);
}

async function worker(): Promise<never> {
  for (;;) await writeOne();
}

await Promise.all(Array.from({ length: 32 }, worker));
