/**
 * `exec` in a simulated container: the command runs in a small shell (`shell.ts`,
 * `commands.ts`) over the container's in-memory filesystem (`memfs.ts`), with the environment
 * the kubelet would give it (the spec's `env` values and the downward-API fields it can
 * resolve, `HOSTNAME`, `HOME`, `PATH`, the `kubernetes` Service's variables). `sh` with no
 * `-c` reads commands from stdin line by line, with a prompt and echo on a terminal (`-it`).
 *
 * One filesystem per container run (pod UID, container, container ID), the most recently
 * used {@link MAX_FILESYSTEMS} kept: a restarted container starts from a fresh one.
 *
 * @module
 */
import type { Container, Pod } from '../../api/model/index.js';
import type { Clock } from '../../util/clock.js';
import type { ShellState } from './commands.js';
import { LineEditor } from './line-editor.js';
import { MemFs } from './memfs.js';
import { type RunIo, runCommand, runScript } from './shell.js';

export const MAX_FILESYSTEMS = 256;

/** What the API server hands an exec (`apiserver/kubelet/types.ts`'s `SessionIO`). */
export interface ExecIo {
  readonly stdin?: AsyncIterable<Uint8Array>;
  readonly stdout?: (chunk: Uint8Array) => void;
  readonly stderr?: (chunk: Uint8Array) => void;
  readonly tty: boolean;
  readonly signal: AbortSignal;
}

function findContainer(pod: Pod, name: string): Container | undefined {
  const s = pod.spec;
  return [
    ...(s?.containers ?? []),
    ...(s?.initContainers ?? []),
    ...(s?.ephemeralContainers ?? []),
  ].find((c) => c.name === name);
}

function fieldValue(pod: Pod, path: string): string | undefined {
  const m = pod.metadata;
  const fields: Record<string, string | undefined> = {
    'metadata.name': m?.name,
    'metadata.namespace': m?.namespace,
    'metadata.uid': m?.uid,
    'spec.nodeName': pod.spec?.nodeName,
    'spec.serviceAccountName': pod.spec?.serviceAccountName,
    'status.podIP': pod.status?.podIP,
    'status.hostIP': pod.status?.hostIP,
  };
  const label = /^metadata\.labels\['(.+)'\]$/.exec(path);
  if (label !== null) return m?.labels?.[label[1]!];
  const annotation = /^metadata\.annotations\['(.+)'\]$/.exec(path);
  if (annotation !== null) return m?.annotations?.[annotation[1]!];
  return fields[path];
}

/** The container's environment, as far as the pod object says it. */
export function containerEnv(
  pod: Pod,
  container: Container | undefined,
  tty: boolean,
): Map<string, string> {
  const hostname = pod.spec?.hostname ?? pod.metadata?.name ?? '';
  const env = new Map<string, string>([
    ['PATH', '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
    ['HOSTNAME', hostname],
    ['HOME', '/root'],
    ['KUBERNETES_SERVICE_HOST', '10.96.0.1'],
    ['KUBERNETES_SERVICE_PORT', '443'],
    ['KUBERNETES_SERVICE_PORT_HTTPS', '443'],
  ]);
  if (tty) env.set('TERM', 'xterm');
  for (const e of container?.env ?? []) {
    const path = e.valueFrom?.fieldRef?.fieldPath;
    const value = e.value ?? (path === undefined ? undefined : fieldValue(pod, path));
    if (value !== undefined) env.set(e.name, value);
  }
  return env;
}

function initialFiles(pod: Pod): Record<string, string> {
  const name = pod.spec?.hostname ?? pod.metadata?.name ?? '';
  const ns = pod.metadata?.namespace ?? 'default';
  const ip = pod.status?.podIP ?? '';
  return {
    '/etc/hostname': `${name}\n`,
    '/etc/hosts': `127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n${ip === '' ? '' : `${ip}\t${name}\n`}`,
    '/etc/resolv.conf': `search ${ns}.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n`,
  };
}

/** Runs execs against per-container filesystems. */
export class SimulatedExec {
  readonly #clock: Clock;
  readonly #filesystems = new Map<string, MemFs>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  #fs(pod: Pod, container: string): MemFs {
    const status = [
      ...(pod.status?.containerStatuses ?? []),
      ...(pod.status?.initContainerStatuses ?? []),
      ...(pod.status?.ephemeralContainerStatuses ?? []),
    ].find((s) => s.name === container);
    const key = `${pod.metadata?.uid ?? ''}/${container}/${status?.containerID ?? ''}`;
    let fs = this.#filesystems.get(key);
    if (fs === undefined) {
      fs = new MemFs(() => this.#clock.now(), initialFiles(pod));
      if (this.#filesystems.size >= MAX_FILESYSTEMS) {
        const oldest = this.#filesystems.keys().next().value;
        if (oldest !== undefined) this.#filesystems.delete(oldest);
      }
    } else this.#filesystems.delete(key);
    this.#filesystems.set(key, fs);
    return fs;
  }

  async exec(
    pod: Pod,
    container: string,
    command: readonly string[],
    io: ExecIo,
  ): Promise<{ exitCode: number }> {
    const spec = findContainer(pod, container);
    const state: ShellState = {
      fs: this.#fs(pod, container),
      env: containerEnv(pod, spec, io.tty),
      cwd: spec?.workingDir || '/',
      hostname: pod.spec?.hostname ?? pod.metadata?.name ?? '',
      now: () => this.#clock.now(),
      sleep: (ms) => this.#clock.sleep(ms, io.signal),
      lastExit: 0,
    };
    // A terminal turns every \n the program writes into \r\n (the tty's ONLCR).
    const out = (sink: ((c: Uint8Array) => void) | undefined) => (chunk: Buffer) => {
      if (sink === undefined) return;
      sink(io.tty ? Buffer.from(chunk.toString('utf8').replace(/\r?\n/g, '\r\n')) : chunk);
    };
    const stdout = out(io.stdout);
    const stderr = io.tty ? stdout : out(io.stderr);
    const interactive =
      command.length === 1 && /^(\/bin\/)?(sh|bash)$/.test(command[0]!) && io.stdin !== undefined;
    try {
      if (interactive)
        return { exitCode: await readLoop(state, io.stdin!, io.tty, stdout, stderr) };
      const run: RunIo = { stdin: readAll(io.stdin), stdout, stderr };
      return { exitCode: await runCommand(state, command, run) };
    } catch (e) {
      if (io.signal.aborted) return { exitCode: 130 };
      throw e;
    }
  }
}

function readAll(stdin: AsyncIterable<Uint8Array> | undefined): () => Promise<Buffer> {
  let read: Promise<Buffer> | undefined;
  return () => {
    read ??= (async () => {
      const chunks: Buffer[] = [];
      if (stdin !== undefined) for await (const c of stdin) chunks.push(Buffer.from(c));
      return Buffer.concat(chunks);
    })();
    return read;
  };
}

/** `sh` reading commands from stdin: each line runs when it is complete. */
async function readLoop(
  state: ShellState,
  stdin: AsyncIterable<Uint8Array>,
  tty: boolean,
  stdout: (b: Buffer) => void,
  stderr: (b: Buffer) => void,
): Promise<number> {
  const write = (s: string) => stdout(Buffer.from(s));
  const prompt = () => tty && write(`${state.cwd} # `);
  const io = { stdin: async () => Buffer.alloc(0), stdout, stderr };
  const editor = new LineEditor(tty, write);
  prompt();
  for await (const chunk of stdin) {
    for (const ch of Buffer.from(chunk).toString('utf8')) {
      const key = editor.type(ch);
      if (key === undefined) continue;
      if ('eof' in key) return state.lastExit;
      await runScript(state, key.line, io);
      if (state.exited !== undefined) return state.exited;
      prompt();
    }
  }
  return editor.pending.trim() === '' ? state.lastExit : runScript(state, editor.pending, io);
}
