/**
 * `fleetyard dns <name>`: what the cluster's DNS would answer for a name, computed from the
 * API (Services and EndpointSlices) by the resolver in `src/dns/`. The simulated cluster has
 * no DNS server of its own; this shows the records a CoreDNS in front of the same objects
 * serves, e.g. `web-0.nginx.default.svc.cluster.local` for a StatefulSet's pod.
 *
 * Output follows `dig +short`: one address per line; an unknown name prints
 * `** server can't find <name>: NXDOMAIN` (nslookup's words) and exits 1.
 *
 * @module
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ApiClient } from '../client/api-client.js';
import { resolveThroughApi } from '../dns/index.js';

export const DNS_USAGE = `Usage: fleetyard dns <name> [options]

Prints the addresses cluster DNS answers for a name, from the Services and EndpointSlices:
  <service>.<namespace>.svc.cluster.local            a Service (headless: its ready pods)
  <pod-hostname>.<service>.<namespace>.svc.cluster.local
                                                     one pod of a headless Service

Options:
  --cluster-domain D   The cluster domain (default cluster.local)
  --kubeconfig PATH    Connection (default: DATA_DIR/kubeconfig)
  --data-dir DIR       fleetyard up's data dir (default ./.fleetyard)
`;

export interface DnsIo {
  readonly client?: ApiClient;
  readonly stdout: (line: string) => void;
  readonly stderr: (line: string) => void;
}

/** Runs `fleetyard dns …`; resolves to the exit code (0 found, 1 NXDOMAIN or error, 2 usage). */
export async function runDns(argv: readonly string[], io: DnsIo): Promise<number> {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (err) {
    io.stderr(`error: ${err instanceof Error ? err.message : String(err)}\n${DNS_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(DNS_USAGE);
    return 0;
  }
  const [name, ...extra] = positionals;
  if (name === undefined || extra.length > 0) {
    io.stderr(`error: want exactly one name\n${DNS_USAGE}`);
    return 2;
  }
  const kubeconfig = values.kubeconfig ?? resolve(values['data-dir'], 'kubeconfig');
  const owned = io.client === undefined ? await ApiClient.fromKubeconfig(kubeconfig) : undefined;
  const client = io.client ?? owned!;
  try {
    const answer = await resolveThroughApi(client, name, values['cluster-domain']);
    if ('nxdomain' in answer) {
      io.stderr(`** server can't find ${name}: NXDOMAIN\n`);
      return 1;
    }
    io.stdout(answer.addresses.map((a) => `${a}\n`).join(''));
    return 0;
  } catch (err) {
    io.stderr(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    owned?.close();
  }
}

function parseOptions(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    options: {
      'cluster-domain': { type: 'string', default: 'cluster.local' },
      kubeconfig: { type: 'string' },
      'data-dir': { type: 'string', default: '.fleetyard' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowPositionals: true,
    strict: true,
  });
}
