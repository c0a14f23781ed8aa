/**
 * `fleetyard up` as a bare process, for the tests that watch how it starts or fails to:
 * a chosen umask, a start that must fail, the exact exit code and stderr. (cluster.ts is
 * for tests that want a running cluster.)
 *
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { FLEETYARD_BIN } from './cluster.js';

export interface UpProcess {
  readonly child: ChildProcess;
  /** Resolves with the `ready` line's URL; rejects if the process exits first. */
  readonly ready: Promise<string>;
  /** Resolves when the process has exited. */
  readonly exited: Promise<UpExit>;
  stdout(): string;
  stderr(): string;
  /** SIGTERM, and wait for the exit. */
  stop(): Promise<UpExit>;
}

export interface UpExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** From spawn to exit. */
  readonly ms: number;
}

export interface UpProcessOptions {
  /** A umask to run under (`sh -c 'umask …; exec node …'`). */
  readonly umask?: string;
}

/** Spawns `fleetyard up <args>`. */
export function spawnUp(args: readonly string[], options: UpProcessOptions = {}): UpProcess {
  const started = Date.now();
  const argv = [FLEETYARD_BIN, 'up', ...args];
  const child =
    options.umask === undefined
      ? spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(
          '/bin/sh',
          ['-c', `umask ${options.umask} && exec "$0" "$@"`, process.execPath, ...argv],
          {
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (d: string) => {
    err += d;
  });
  const exited = new Promise<UpExit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, ms: Date.now() - started })),
  );
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (d: string) => {
      out += d;
      const m = /^fleetyard ready url=(\S+)/m.exec(out);
      if (m) resolve(m[1]!);
    });
    void exited.then((e) => reject(new Error(`fleetyard up exited with ${e.code}: ${err}`)));
  });
  ready.catch(() => undefined);
  return {
    child,
    ready,
    exited,
    stdout: () => out,
    stderr: () => err,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Waits for the exit, SIGKILLing the process (and failing) after `ms`. */
export async function exitWithin(up: UpProcess, ms: number): Promise<UpExit> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      up.child.kill('SIGKILL');
      reject(new Error(`fleetyard up still running after ${ms} ms; stderr: ${up.stderr()}`));
    }, ms);
  });
  try {
    return await Promise.race([up.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Whether `port` can be bound on `host` (nothing is left listening there). */
export async function portIsFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}
