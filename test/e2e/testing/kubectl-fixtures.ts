/**
 * Shared pieces of the kubectl end-to-end suites: one `describe` per kubectl version (skipped
 * with a reason when the binary is missing), manifests built as YAML the way a user writes
 * them, JSON read-backs, polling with a deadline, and kubectl runs in the background (`get -w`,
 * `delete --wait`) or with a chosen cache dir (warm-cache auth failures).
 *
 * @module
 */

import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { type Cluster, type StartOptions, startCluster } from './cluster.js';
import { type Kubectl, type KubectlResult, kubectl, kubectlBinary } from './kubectl.js';

/** The kubectl versions every kubectl suite runs against. */
export const KUBECTL_VERSIONS = ['1.27', '1.31', '1.33'] as const;

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
}

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  type?: string;
}

export interface KubeList {
  apiVersion: string;
  kind: string;
  items: KubeObject[];
}

/**
 * Starts one `fleetyard up --ephemeral` for the whole file (root `before`) and stops it in the
 * root `after`, asserting a clean exit (code 0). Returns the getter the suites use.
 */
export function clusterForFile(options: StartOptions = {}): () => Cluster {
  let cluster: Cluster | undefined;
  before(async () => {
    cluster = await startCluster({ ...options, ephemeral: true });
  });
  after(async () => {
    if (!cluster) return;
    const code = await cluster.stop();
    const logs = cluster.stderr();
    cluster.cleanup();
    assert.equal(code, 0, `fleetyard up exited with ${code}; stderr:\n${logs}`);
  });
  return () => {
    if (!cluster) throw new Error('the cluster is not started (root before hook did not run)');
    return cluster;
  };
}

/** What one version's `describe` body gets: its kubectl, the cluster, and a namespace prefix. */
export interface VersionSuite {
  readonly version: string;
  /** `1.31` → `131`, for names that must differ per version. */
  readonly slug: string;
  /** The kubectl for this version (available inside tests and hooks). */
  k(): Kubectl;
  cluster(): Cluster;
  /** The absolute path of `kubectl.<version>`. */
  readonly bin: string;
}

/**
 * `describe('kubectl <version>')`; when `kubectl.<version>` is not installed, the describe
 * holds one skipped test that says why.
 */
export function describeKubectl(
  version: string,
  getCluster: () => Cluster,
  body: (suite: VersionSuite) => void,
): void {
  const bin = kubectlBinary(version);
  describe(`kubectl ${version}`, () => {
    if (!bin) {
      const reason = `kubectl.${version} is not installed beside the kubectl on the PATH`;
      it(`runs kubectl.${version}`, (t) => {
        t.diagnostic(reason);
        t.skip(reason);
      });
      return;
    }
    let client: Kubectl | undefined;
    before(() => {
      client = kubectl(version, getCluster().kubeconfig);
    });
    body({
      version,
      slug: version.replace('.', ''),
      bin,
      cluster: getCluster,
      k: () => {
        if (!client) throw new Error(`kubectl.${version} is not set up (before hook did not run)`);
        return client;
      },
    });
  });
}

/**
 * Manifests as a multi-document YAML stream (what `kubectl create -f -` reads). String values
 * are double-quoted: kubectl's YAML 1.1 reader would turn a plain `y` or `on` into a bool.
 */
export function manifest(...objects: readonly KubeObject[]): string {
  return objects
    .map((o) => stringify(o, { defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN' }))
    .join('---\n');
}

export interface MetaOptions {
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
  readonly finalizers?: string[];
}

function meta(name: string, options: MetaOptions): ObjectMeta {
  return {
    name,
    ...(options.labels ? { labels: options.labels } : {}),
    ...(options.annotations ? { annotations: options.annotations } : {}),
    ...(options.finalizers ? { finalizers: options.finalizers } : {}),
  };
}

export function namespaceObject(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
}

export function configMap(
  name: string,
  options: MetaOptions & { readonly data?: Record<string, string> } = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: meta(name, options),
    data: options.data ?? { key: 'value' },
  };
}

export function secret(
  name: string,
  options: MetaOptions & { readonly stringData?: Record<string, string> } = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: meta(name, options),
    type: 'Opaque',
    stringData: options.stringData ?? { password: 's3cr3t' },
  };
}

export function deployment(
  name: string,
  options: MetaOptions & { readonly replicas?: number } = {},
): KubeObject {
  const app = { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta(name, { ...options, labels: options.labels ?? app }),
    spec: {
      replicas: options.replicas ?? 1,
      selector: { matchLabels: app },
      template: {
        metadata: { labels: app },
        spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] },
      },
    },
  };
}

export function service(name: string, options: MetaOptions = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta(name, options),
    spec: { selector: { app: name }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] },
  };
}

export function pod(name: string, options: MetaOptions = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta(name, options),
    spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] },
  };
}

/** `create -f - --validate=false` in `namespace`; fails the test unless kubectl exits 0. */
export function createFromManifest(
  k: Kubectl,
  namespace: string | undefined,
  ...objects: readonly KubeObject[]
): Promise<string> {
  const ns = namespace === undefined ? [] : ['-n', namespace];
  return k.ok([...ns, 'create', '-f', '-', '--validate=false'], { input: manifest(...objects) });
}

/** `get … -o json`, parsed. */
export async function getJson<T = KubeObject>(k: Kubectl, args: readonly string[]): Promise<T> {
  return JSON.parse(await k.ok(['get', ...args, '-o', 'json'])) as T;
}

/** The stdout lines, without the trailing empty one. */
export function lines(text: string): string[] {
  return text.split('\n').filter((l) => l !== '');
}

/** Polls `check` until it returns a value (not undefined) or the deadline passes. */
export async function pollUntil<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 10_000,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** A kubectl run whose promise the test awaits later (e.g. `delete --wait`). */
export interface PendingRun {
  readonly result: Promise<KubectlResult>;
  settled(): boolean;
}

export function runPending(
  k: Kubectl,
  args: readonly string[],
  options?: { input?: string; timeoutMs?: number },
): PendingRun {
  let done = false;
  const result = k.run(args, options).then((r) => {
    done = true;
    return r;
  });
  return { result, settled: () => done };
}

/** A copy of `kubeconfig` whose bearer token is replaced. */
export function kubeconfigWithToken(kubeconfig: string, token: string): string {
  const text = readFileSync(kubeconfig, 'utf8');
  if (!/^\s*token: \S+$/m.test(text)) throw new Error(`no token line in ${kubeconfig}`);
  const path = join(mkdtempSync(join(tmpdir(), 'kubeconfig-')), 'config');
  writeFileSync(path, text.replace(/^(\s*token: )\S+$/m, `$1${token}`), { mode: 0o600 });
  return path;
}

/** A new empty kubectl cache dir (also used as HOME, like the helper does). */
export function newCacheDir(version: string): string {
  return mkdtempSync(join(tmpdir(), `kubectl-${version}-cache-`));
}

/** Runs `bin` once with an explicit kubeconfig and cache dir (to share a warm cache). */
export function runWithCache(
  bin: string,
  kubeconfig: string,
  cacheDir: string,
  args: readonly string[],
): Promise<KubectlResult> {
  return new Promise((resolve) => {
    execFile(
      bin,
      ['--kubeconfig', kubeconfig, '--cache-dir', cacheDir, ...args],
      { timeout: 30_000, env: { ...process.env, HOME: cacheDir } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A long-running kubectl (`get -w`) whose stdout lines the test reads as they arrive. */
export interface BackgroundKubectl {
  /** Complete stdout lines so far. */
  lines(): string[];
  stderr(): string;
  /** Resolves once `predicate` holds for the lines so far; rejects at the deadline or exit. */
  waitForLines(
    what: string,
    predicate: (lines: string[]) => boolean,
    timeoutMs?: number,
  ): Promise<void>;
  /** Resolves with the exit code (null when killed by a signal) when kubectl ends by itself. */
  readonly exited: Promise<number | null>;
  /** SIGTERM (if still running) and wait for the exit. */
  stop(): Promise<number | null>;
}

export function startBackground(
  bin: string,
  kubeconfig: string,
  args: readonly string[],
): BackgroundKubectl {
  const cacheDir = newCacheDir('bg');
  const child: ChildProcess = spawn(
    bin,
    ['--kubeconfig', kubeconfig, '--cache-dir', cacheDir, ...args],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HOME: cacheDir } },
  );
  let out = '';
  let err = '';
  let running = true;
  const waiters = new Set<() => void>();
  const notify = (): void => {
    for (const w of [...waiters]) w();
  };
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (d: string) => {
    out += d;
    notify();
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (d: string) => {
    err += d;
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once('close', (code) => {
      running = false;
      notify();
      resolve(code);
    });
  });
  const complete = (): string[] => lines(out.slice(0, out.lastIndexOf('\n') + 1));
  return {
    lines: complete,
    stderr: () => err,
    exited,
    waitForLines: (what, predicate, timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (predicate(complete())) {
            finish();
            resolve();
          } else if (!running) {
            finish();
            reject(new Error(`kubectl exited before ${what}; stdout: ${out}; stderr: ${err}`));
          }
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`timed out waiting for ${what}; stdout: ${out}; stderr: ${err}`));
        }, timeoutMs);
        const finish = (): void => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
    stop: async () => {
      if (running) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** kubectl bound to one namespace of a version suite: the calls every test file makes. */
export function inNamespace(s: VersionSuite, ns: string) {
  return {
    /** Runs and fails the test unless kubectl exits 0; resolves with its stdout. */
    kc: (...args: string[]) => s.k().ok(['-n', ns, ...args]),
    /** Runs and resolves with the exit code and both outputs. */
    run: (...args: string[]) => s.k().run(['-n', ns, ...args]),
    /** `get KIND NAME -o json`, parsed. */
    read: (kind: string, name: string) => getJson(s.k(), ['-n', ns, kind, name]),
    /** `create -f -` of the objects, into this namespace. */
    create: (...objects: KubeObject[]) => createFromManifest(s.k(), ns, ...objects),
  };
}
