/**
 * The real `fleetyard up` (compiled, as a user runs it) for the benchmarks, registered with
 * the cleanup safety net, plus a lean authenticated client for it.
 *
 * @module
 */
import { type Cluster, startCluster } from '../../test/e2e/testing/cluster.js';
import { removeDir, tempDir, track } from './cleanup.js';
import { RawConnection, type RawResponse, type Target, targetFromUrl } from './raw-http.js';

export interface Fleetyard {
  readonly cluster: Cluster;
  readonly pid: number;
  readonly target: Target;
  /** `127.0.0.1:PORT`, for Host headers. */
  readonly authority: string;
  readonly token: string;
  /** SIGTERM, wait, remove the data dir. */
  stop(): Promise<void>;
}

export interface FleetyardOptions {
  readonly ephemeral?: boolean;
  /** An existing data dir (kept); a fresh temp dir otherwise (removed on stop). */
  readonly dataDir?: string;
  /** Extra `fleetyard up` flags, e.g. `['--nodes', '10']`. */
  readonly args?: readonly string[];
  /**
   * Run the whole cluster (controllers, scheduler, simulated nodes). Off by default: the API
   * figures (writes, lists, watches, memory of stored objects) are the API server's, so the
   * server runs alone (`--controllers=`), as the targets of issues 2 and 3 were set for it.
   */
  readonly cluster?: boolean;
  /** How long to wait for the ready line. @default 15 s */
  readonly timeoutMs?: number;
}

let profileDir: string | undefined;
const PROFILE_PRELOAD = new URL('./cpu-profile-preload.mjs', import.meta.url).href;

/**
 * Servers started from now on write a V8 CPU profile into `dir` when they exit
 * (`npm run bench -- --profile DIR`); open it in Chrome DevTools or summarise its hot
 * functions.
 */
export function profileServersInto(dir: string): void {
  profileDir = dir;
}

export async function startFleetyard(options: FleetyardOptions = {}): Promise<Fleetyard> {
  const dataDir = options.dataDir ?? tempDir('fleetyard-bench-');
  // startCluster spawns with this process's environment, so the preload reaches only the
  // server (node refuses --cpu-prof in NODE_OPTIONS, hence an inspector-based preload).
  const saved = { ...process.env };
  if (profileDir !== undefined) {
    process.env.NODE_OPTIONS = `${saved.NODE_OPTIONS ?? ''} --import ${PROFILE_PRELOAD}`.trim();
    process.env.FLEETYARD_BENCH_PROFILE_DIR = profileDir;
  }
  let cluster: Cluster;
  try {
    cluster = await startCluster({
      dataDir,
      ephemeral: options.ephemeral ?? false,
      args: [...(options.cluster ? [] : ['--controllers=']), ...(options.args ?? [])],
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
  } finally {
    for (const key of ['NODE_OPTIONS', 'FLEETYARD_BENCH_PROFILE_DIR']) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  }
  track(cluster.process);
  const target = targetFromUrl(cluster.url, cluster.ca);
  return {
    cluster,
    pid: cluster.process.pid!,
    target,
    authority: `${target.host}:${target.port}`,
    token: cluster.token,
    stop: async () => {
      await cluster.stop();
      if (options.dataDir === undefined) removeDir(dataDir);
    },
  };
}

/** One keep-alive authenticated connection to a running fleetyard. */
export class ApiClient {
  readonly #conn: RawConnection;
  readonly #prefix: string;

  private constructor(conn: RawConnection, fy: Fleetyard) {
    this.#conn = conn;
    this.#prefix = `Host: ${fy.authority}\r\nAuthorization: Bearer ${fy.token}\r\nAccept: application/json\r\n`;
  }

  static async open(fy: Fleetyard): Promise<ApiClient> {
    return new ApiClient(await RawConnection.open(fy.target), fy);
  }

  async request(method: string, path: string, body?: string): Promise<RawResponse> {
    return body === undefined
      ? this.#conn.request(`${method} ${path} HTTP/1.1\r\n${this.#prefix}`)
      : this.requestWithType(method, path, body, 'application/json');
  }

  /** A request whose body has `contentType` (a patch type, for instance). */
  async requestWithType(
    method: string,
    path: string,
    body: string,
    contentType: string,
  ): Promise<RawResponse> {
    const head = `${method} ${path} HTTP/1.1\r\n${this.#prefix}Content-Type: ${contentType}\r\n`;
    return this.#conn.request(head, body);
  }

  /** GET that must answer 200; the parsed JSON body. */
  async getJson<T>(path: string): Promise<T> {
    const res = await this.request('GET', path);
    if (res.status !== 200)
      throw new Error(`GET ${path}: HTTP ${res.status} ${res.body.toString()}`);
    return JSON.parse(res.body.toString('utf8')) as T;
  }

  close(): void {
    this.#conn.close();
  }
}
