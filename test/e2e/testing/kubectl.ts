/**
 * The versioned kubectl binaries (`kubectl.1.27` … `kubectl.1.33`) that sit beside the
 * `kubectl` on the PATH. The plain `kubectl` there may be a dispatcher that calls `/version`
 * first to pick one, so tests call the versioned binaries directly.
 *
 * @module
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const p = join(dir, name);
    if (existsSync(p)) return p;
  }
  return undefined;
}

/** The path of `kubectl.<version>` (e.g. `1.31`), or undefined when it is not installed. */
export function kubectlBinary(version: string): string | undefined {
  const name = `kubectl.${version}`;
  const direct = findOnPath(name);
  if (direct) return direct;
  const plain = findOnPath('kubectl');
  if (!plain) return undefined;
  const beside = join(dirname(realpathSync(plain)), name);
  return existsSync(beside) ? beside : undefined;
}

export interface KubectlResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface Kubectl {
  readonly version: string;
  run(
    args: readonly string[],
    options?: { input?: string; timeoutMs?: number },
  ): Promise<KubectlResult>;
  /** Runs and fails the test with kubectl's output unless it exits 0. */
  ok(args: readonly string[], options?: { input?: string; timeoutMs?: number }): Promise<string>;
}

export function kubectl(version: string, kubeconfig: string): Kubectl | undefined {
  const bin = kubectlBinary(version);
  if (!bin) return undefined;
  const cacheDir = mkdtempSync(join(tmpdir(), `kubectl-${version}-cache-`));
  const run = (
    args: readonly string[],
    options: { input?: string; timeoutMs?: number } = {},
  ): Promise<KubectlResult> =>
    new Promise((resolve) => {
      const child = execFile(
        bin,
        ['--kubeconfig', kubeconfig, '--cache-dir', cacheDir, ...args],
        {
          timeout: options.timeoutMs ?? 30_000,
          env: { ...process.env, HOME: cacheDir },
          maxBuffer: 32 * 1024 * 1024,
        },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
          resolve({ code, stdout, stderr });
        },
      );
      if (options.input !== undefined) child.stdin?.end(options.input);
    });
  return {
    version,
    run,
    ok: async (args, options) => {
      const r = await run(args, options);
      if (r.code !== 0) {
        throw new Error(
          `kubectl.${version} ${args.join(' ')} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`,
        );
      }
      return r.stdout;
    },
  };
}
