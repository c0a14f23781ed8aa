/**
 * Preloaded into a benchmarked server with `NODE_OPTIONS=--import …` (node refuses
 * `--cpu-prof` there): profiles the main thread from start to exit and writes a
 * `.cpuprofile` (Chrome DevTools format) into $FLEETYARD_BENCH_PROFILE_DIR. Worker threads
 * (the controller manager) are profiled too, through the inspector's NodeWorker domain: each
 * writes `server-PID-worker-N.cpuprofile` when the process receives SIGTERM or SIGINT (a
 * worker is gone by the main thread's `exit`). Plain JavaScript because the server runs
 * compiled code without a TypeScript loader.
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
  const workers = new Map();
  let nextMessageId = 1;
  const toWorker = (sessionId, method) =>
    session.post('NodeWorker.sendMessageToWorker', {
      sessionId,
      message: JSON.stringify({ id: nextMessageId++, method }),
    });
  session.on('NodeWorker.attachedToWorker', ({ params }) => {
    workers.set(params.sessionId, workers.size + 1);
    toWorker(params.sessionId, 'Profiler.enable');
    toWorker(params.sessionId, 'Profiler.start');
    // Tell the paused worker to go on (waitForDebuggerOnStart lets us start before its code).
    toWorker(params.sessionId, 'Runtime.runIfWaitingForDebugger');
  });
  session.on('NodeWorker.receivedMessageFromWorker', ({ params }) => {
    const message = JSON.parse(params.message);
    const profile = message.result?.profile;
    if (profile === undefined) return;
    mkdirSync(dir, { recursive: true });
    const n = workers.get(params.sessionId) ?? 0;
    writeFileSync(
      join(dir, `server-${process.pid}-worker-${n}.cpuprofile`),
      JSON.stringify(profile),
    );
  });
  session.post('NodeWorker.enable', { waitForDebuggerOnStart: true });
  const stopWorkers = () => {
    for (const sessionId of workers.keys()) toWorker(sessionId, 'Profiler.stop');
  };
  process.once('SIGTERM', stopWorkers);
  process.once('SIGINT', stopWorkers);
  process.once('exit', () => {
    // An in-thread inspector session answers synchronously, so this completes before exit.
    session.post('Profiler.stop', (err, result) => {
      if (err || !result) return;
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `server-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
