/**
 * Preloaded into a benchmarked server with `NODE_OPTIONS=--import …` (node refuses
 * `--cpu-prof` there): profiles the main thread from start to exit and writes a
 * `.cpuprofile` (Chrome DevTools format) into $FLEETYARD_BENCH_PROFILE_DIR. Plain JavaScript
 * because the server runs compiled code without a TypeScript loader.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const dir = process.env.FLEETYARD_BENCH_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.start');
  process.once('exit', () => {
    // An in-thread inspector session answers synchronously, so this completes before exit.
    session.post('Profiler.stop', (err, result) => {
      if (err || !result) return;
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `server-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
