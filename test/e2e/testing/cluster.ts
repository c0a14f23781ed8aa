/**
 * Starts the real `fleetyard up` (the compiled CLI, as a user runs it) in a temp data dir on
 * a free port, and stops it like a user would (SIGTERM) or like a crash (SIGKILL).
 *
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '../../..');
export const FLEETYARD_BIN = join(REPO_ROOT, 'bin', 'fleetyard.js');

export interface Cluster {
  readonly url: string;
  readonly kubeconfig: string;
  readonly dataDir: string;
  readonly token: string;
  readonly ca: string;
  readonly process: ChildProcess;
  /**
   * The dashboard's URL and the one-time login link `up` printed on the line after the ready
   * line (`fleetyard dashboard url=… login=…`); undefined with `--dashboard=false`.
   */
  readonly dashboard?: { readonly url: string; readonly login: string };
  /** Everything the process wrote to stderr so far (its logs). */
  stderr(): string;
  /** SIGTERM and wait; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL and wait (a crash). */
  kill(): Promise<void>;
  /** Removes the data dir (call after stop/kill). */
  cleanup(): void;
}

/**
 * `fleetyard up` with the API server alone (no controllers, no simulated nodes): envtest's
 * mode. The wire-protocol suites use it, because they build their fixtures by hand (a
 * ReplicaSet with pods of their choosing, finalizers left in place) and count the server's
 * requests; the workload suites (`workloads-*`, `cluster-*`, `controllers-*`) run everything.
 */
export const API_ONLY = ['--controllers='] as const;

export interface StartOptions {
  readonly dataDir?: string;
  readonly ephemeral?: boolean;
  readonly args?: readonly string[];
  readonly timeoutMs?: number;
}

export function newDataDir(prefix = 'fleetyard-e2e-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function startCluster(options: StartOptions = {}): Promise<Cluster> {
  const dataDir = options.dataDir ?? newDataDir();
  const args = [FLEETYARD_BIN, 'up', '--data-dir', dataDir, '--port', '0', '--log-level', 'warn'];
  if (options.ephemeral) args.push('--ephemeral');
  args.push(...(options.args ?? []));
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (d: string) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  let out = '';
  child.stdout?.setEncoding('utf8');
  /**
   * The dashboard line follows the ready line at once; 1 s covers a slow machine. An `up`
   * without it (`--dashboard=false`) is not waited for.
   */
  const dashboardLine = () =>
    new Promise<{ dashboard: { url: string; login: string } } | undefined>((resolveLine) => {
      const find = (): boolean => {
        const m = /^fleetyard dashboard url=(\S+) login=(\S+)$/m.exec(out);
        if (m) resolveLine({ dashboard: { url: m[1]!, login: m[2]! } });
        return m !== null;
      };
      if (find()) return;
      const timer = setTimeout(() => {
        child.stdout?.off('data', onData);
        resolveLine(undefined);
      }, 1000);
      const onData = (): void => {
        if (!find()) return;
        clearTimeout(timer);
        child.stdout?.off('data', onData);
      };
      child.stdout?.on('data', onData);
    });
  const ready = await new Promise<{ url: string; kubeconfig: string }>((resolveReady, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`fleetyard up not ready in time; stderr: ${stderr}`)),
      options.timeoutMs ?? 15_000,
    );
    child.stdout?.on('data', (d: string) => {
      out += d;
      const m = /^fleetyard ready url=(\S+) kubeconfig=(\S+)$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveReady({ url: m[1]!, kubeconfig: m[2]! });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`fleetyard up exited with ${code}; stderr: ${stderr}`));
    });
  });
  const noDashboard =
    args.includes('--dashboard=false') ||
    args.some((a, i) => a === '--dashboard' && args[i + 1] === 'false');
  const dashboard = (noDashboard ? undefined : await dashboardLine()) ?? {};
  return {
    ...ready,
    ...dashboard,
    dataDir,
    token: readFileSync(join(dataDir, 'token'), 'utf8').trim(),
    ca: readFileSync(join(dataDir, 'pki', 'ca.crt'), 'utf8'),
    process: child,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
    cleanup: () => rmSync(dataDir, { recursive: true, force: true }),
  };
}
