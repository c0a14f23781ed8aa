/**
 * A single-member etcd on 127.0.0.1 in a temp dir, for the side-by-side write benchmark.
 * The binary comes from Debian's `etcd-server` (3.4), installed on demand when running as
 * root; `npm test` never needs it.
 *
 * @module
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { removeDir, stopChild, tempDir, track } from './cleanup.js';
import { freePort, sleep } from './options.js';

export interface EtcdBinary {
  readonly path: string;
  readonly version: string;
}

function probeBinary(): EtcdBinary | undefined {
  const r = spawnSync('etcd', ['--version'], { encoding: 'utf8' });
  if (r.status !== 0) return undefined;
  const version = /etcd Version: (\S+)/.exec(r.stdout)?.[1] ?? 'unknown';
  return { path: 'etcd', version };
}

/** The etcd binary, installing `etcd-server` with apt when absent; a reason string if not. */
export function ensureEtcd(log: (line: string) => void): EtcdBinary | string {
  const found = probeBinary();
  if (found) return found;
  if (process.getuid?.() !== 0) return 'etcd is not installed and installing it needs root';
  log('etcd not found: apt-get update && apt-get install -y etcd-server');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // apt-get install finds nothing before the package lists are fetched.
  const steps: Array<readonly string[]> = [['update'], ['install', '-y', 'etcd-server']];
  for (const args of steps) {
    const r = spawnSync('apt-get', args, { encoding: 'utf8', env, timeout: 300_000 });
    if (r.status !== 0) {
      const tail = `${r.stderr ?? ''}${r.error?.message ?? ''}`
        .trim()
        .split('\n')
        .slice(-2)
        .join(' ');
      return `apt-get ${args.join(' ')} failed (${r.status ?? r.signal}): ${tail}`;
    }
  }
  return probeBinary() ?? 'etcd-server installed but `etcd --version` still fails';
}

export interface EtcdServer {
  readonly pid: number;
  readonly port: number;
  /** The gRPC-gateway put path this version serves: `/v3/kv/put` or `/v3beta/kv/put`. */
  readonly putPath: string;
  stop(): Promise<void>;
}

function post(port: number, path: string, body: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

async function waitReady(child: ChildProcess, port: number, stderr: () => string): Promise<void> {
  const deadline = performance.now() + 15_000;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`etcd exited: ${stderr().slice(-500)}`);
    // A range on an empty key succeeds once the member is the leader and serving.
    if ((await post(port, '/v3/kv/range', '{"key":"AA=="}')) === 200) return;
    await sleep(20);
  }
  throw new Error(`etcd not ready in 15 s: ${stderr().slice(-500)}`);
}

/** Probes which gateway prefix this etcd serves (3.4 has both; 3.3 only /v3beta). */
async function probePutPath(port: number): Promise<string> {
  const body = `{"key":"${Buffer.from('/probe').toString('base64')}","value":"eA=="}`;
  for (const path of ['/v3/kv/put', '/v3beta/kv/put']) {
    if ((await post(port, path, body)) === 200) return path;
  }
  throw new Error('etcd answers neither /v3/kv/put nor /v3beta/kv/put');
}

/** Starts etcd with default quotas and durability (fsync per raft batch). */
export async function startEtcd(binary: EtcdBinary): Promise<EtcdServer> {
  const dir = tempDir('fleetyard-bench-etcd-');
  const [client, peer] = [await freePort(), await freePort()];
  const peerUrl = `http://127.0.0.1:${peer}`;
  const clientUrl = `http://127.0.0.1:${client}`;
  const args = [
    ['--name', 'bench'],
    ['--data-dir', join(dir, 'data')],
    ['--listen-client-urls', clientUrl],
    ['--advertise-client-urls', clientUrl],
    ['--listen-peer-urls', peerUrl],
    ['--initial-advertise-peer-urls', peerUrl],
    ['--initial-cluster', `bench=${peerUrl}`],
    ['--logger', 'zap'],
    ['--log-outputs', 'stderr'],
    ['--log-level', 'warn'],
  ].flat();
  const child = track(spawn(binary.path, args, { stdio: ['ignore', 'ignore', 'pipe'] }));
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (d: string) => {
    stderr = (stderr + d).slice(-20_000);
  });
  const stop = async (): Promise<void> => {
    await stopChild(child);
    removeDir(dir);
  };
  try {
    await waitReady(child, client, () => stderr);
    const putPath = await probePutPath(client);
    return { pid: child.pid!, port: client, putPath, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
