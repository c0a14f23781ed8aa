/**
 * `fleetyard chaos`: fault injection into the simulated cluster as plain API writes. Each
 * subcommand is one JSON merge patch of an annotation the simulated kubelet reads:
 *
 * | subcommand                          | object | annotation                                 |
 * |-------------------------------------|--------|--------------------------------------------|
 * | `node-down <node>`                  | Node   | `sim.fleetyard.dev/state: down`            |
 * | `node-up <node>`                    | Node   | `sim.fleetyard.dev/state: up`              |
 * | `crash <pod> [--exit-code N]`       | Pod    | `sim.fleetyard.dev/exit-code: N` (def. 1)  |
 * | `break-readiness <pod>`             | Pod    | `sim.fleetyard.dev/ready: false`           |
 * | `restore-readiness <pod>`           | Pod    | `sim.fleetyard.dev/ready` removed          |
 *
 * Storage faults (`lose-volume`, `fail-zone`, …) are in `chaos-storage.ts`.
 *
 * Pods take `-n/--namespace` (default `default`). The connection comes from `--kubeconfig`,
 * else the `kubeconfig` in `--data-dir` (default `.fleetyard`, as `fleetyard up`). Output is
 * kubectl's: `node/<name> annotated`; a missing object prints the server's error and exits 1.
 *
 * @module
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ApiClient } from '../../client/api-client.js';
import { StatusCodeError } from '../../client/lister-watcher.js';
import type { ObjectRef } from '../../client/resource-path.js';
import {
  runStorageChaos,
  STORAGE_SUBCOMMANDS,
  type StorageChaos,
  type StorageChaosClient,
  storageChaos,
} from './storage-chaos.js';

export const CHAOS_USAGE = `Usage: fleetyard chaos <subcommand> <name> [options]

Subcommands:
  node-down <node>          Stop the node's kubelet (no heartbeats, pods stay as they are)
  node-up <node>            Bring the node's kubelet back
  crash <pod>               Make the pod's containers exit (--exit-code N, default 1)
  break-readiness <pod>     Make the pod's readiness probe fail
  restore-readiness <pod>   Undo break-readiness
  lose-volume <claim>       Delete the claim's PersistentVolume under it (the claim turns Lost)
  fail-zone <zone>          Make the zonal provisioner (ebs.csi.aws.com) fail in a zone,
                            e.g. local-b
  restore-zone <zone>       Undo fail-zone
  fail-node-storage <node>  Make the node-local provisioner (hostpath.csi.k8s.io) fail on a node
  restore-node-storage <node>
                            Undo fail-node-storage

Options:
  -n, --namespace NS   The pod's or claim's namespace (default default)
  --exit-code N        crash: the containers' exit code (default 1)
  --kubeconfig PATH    Connection (default: DATA_DIR/kubeconfig)
  --data-dir DIR       fleetyard up's data dir (default ./.fleetyard)
`;

/** Every subcommand, in the usage's order (the scenario format's fault verbs are these). */
export const CHAOS_SUBCOMMANDS = [
  'node-down',
  'node-up',
  'crash',
  'break-readiness',
  'restore-readiness',
  ...STORAGE_SUBCOMMANDS,
] as const;

const ANNOTATION = {
  state: 'sim.fleetyard.dev/state',
  exitCode: 'sim.fleetyard.dev/exit-code',
  ready: 'sim.fleetyard.dev/ready',
} as const;

/** One parsed invocation: an annotation patch, or a storage fault. */
export type ChaosCommand = AnnotateCommand | StorageCommand;

export interface StorageCommand {
  readonly subcommand: string;
  readonly storage: StorageChaos;
  readonly kubeconfig: string;
}

export interface AnnotateCommand {
  readonly storage?: undefined;
  readonly subcommand: string;
  /** The object to patch. */
  readonly ref: ObjectRef;
  /** kubectl's short resource name in the output line. */
  readonly kind: 'node' | 'pod';
  /** Annotation values to set; null removes one. */
  readonly annotations: Readonly<Record<string, string | null>>;
  readonly kubeconfig: string;
}

/** A command line that cannot be run; the CLI prints it with the usage and exits 2. */
export class ChaosUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChaosUsageError';
  }
}

/** Parses `argv` (after `chaos`); pure apart from resolving the default kubeconfig path. */
export function parseChaosArgs(argv: readonly string[]): ChaosCommand {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (err) {
    throw new ChaosUsageError(err instanceof Error ? err.message : String(err));
  }
  const { values, positionals } = parsed;
  const [subcommand, name, ...extra] = positionals;
  if (subcommand === undefined) throw new ChaosUsageError('a subcommand is required');
  if (name === undefined || name === '')
    throw new ChaosUsageError(`${subcommand}: a name is required`);
  if (extra.length > 0)
    throw new ChaosUsageError(`${subcommand}: unexpected arguments: ${extra.join(' ')}`);
  const kubeconfig = values.kubeconfig ?? resolve(values['data-dir'], 'kubeconfig');
  const node = (state: string): AnnotateCommand => ({
    subcommand,
    ref: { group: '', version: 'v1', plural: 'nodes', name },
    kind: 'node',
    annotations: { [ANNOTATION.state]: state },
    kubeconfig,
  });
  const pod = (annotations: Record<string, string | null>): AnnotateCommand => ({
    subcommand,
    ref: { group: '', version: 'v1', plural: 'pods', namespace: values.namespace, name },
    kind: 'pod',
    annotations,
    kubeconfig,
  });
  if (values['exit-code'] !== undefined && subcommand !== 'crash') {
    throw new ChaosUsageError(`${subcommand}: --exit-code applies to crash only`);
  }
  const storage = storageChaos(subcommand, name, values.namespace);
  if (storage !== undefined) return { subcommand, storage, kubeconfig };
  switch (subcommand) {
    case 'node-down':
      return node('down');
    case 'node-up':
      return node('up');
    case 'crash':
      return pod({ [ANNOTATION.exitCode]: String(exitCode(values['exit-code'])) });
    case 'break-readiness':
      return pod({ [ANNOTATION.ready]: 'false' });
    case 'restore-readiness':
      return pod({ [ANNOTATION.ready]: null });
    default:
      throw new ChaosUsageError(`unknown subcommand "${subcommand}"`);
  }
}

function parseOptions(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    options: {
      namespace: { type: 'string', short: 'n', default: 'default' },
      'exit-code': { type: 'string' },
      kubeconfig: { type: 'string' },
      'data-dir': { type: 'string', default: '.fleetyard' },
    },
    allowPositionals: true,
    strict: true,
  });
}

function exitCode(text: string | undefined): number {
  if (text === undefined) return 1;
  const n = Number(text);
  // A process exit status is 0–255.
  if (!/^\d+$/.test(text) || n > 255) {
    throw new ChaosUsageError(`invalid --exit-code ${text}: want an integer 0-255`);
  }
  return n;
}

/** Where `fleetyard chaos` writes and prints; tests pass a client and collect the output. */
export interface ChaosIo {
  /** A client to use instead of the kubeconfig's (tests: a plain HTTP server). */
  readonly client?: StorageChaosClient;
  readonly stdout: (line: string) => void;
  readonly stderr: (line: string) => void;
}

/** Runs `fleetyard chaos …`; resolves to the exit code (0 done, 1 failed, 2 usage). */
export async function runChaos(argv: readonly string[], io: ChaosIo): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv.includes('--help') || argv.includes('-h')) {
    io.stdout(CHAOS_USAGE);
    return argv.length === 0 ? 2 : 0;
  }
  let command: ChaosCommand;
  try {
    command = parseChaosArgs(argv);
  } catch (err) {
    if (!(err instanceof ChaosUsageError)) throw err;
    io.stderr(`error: ${err.message}\n${CHAOS_USAGE}`);
    return 2;
  }
  const owned =
    io.client === undefined ? await ApiClient.fromKubeconfig(command.kubeconfig) : undefined;
  const client = io.client ?? owned!;
  try {
    if (command.storage !== undefined) {
      io.stdout(await runStorageChaos(client, command.storage));
      return 0;
    }
    await client.patch(command.ref, { metadata: { annotations: command.annotations } }, 'merge', {
      fieldManager: 'fleetyard-chaos',
    });
    io.stdout(`${command.kind}/${command.ref.name} annotated\n`);
    return 0;
  } catch (err) {
    io.stderr(`${describeError(err)}\n`);
    return 1;
  } finally {
    owned?.close();
  }
}

/** kubectl's `Error from server (Reason): message` for a Status answer. */
function describeError(err: unknown): string {
  if (err instanceof StatusCodeError) {
    const reason = err.status?.reason;
    return `Error from server${reason ? ` (${reason})` : ''}: ${err.message}`;
  }
  return `error: ${err instanceof Error ? err.message : String(err)}`;
}
