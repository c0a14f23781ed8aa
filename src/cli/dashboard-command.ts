/**
 * `fleetyard dashboard`: prints a new one-time login link to the dashboard of a running
 * `fleetyard up` (the one `up` printed at start works once and for an hour). The link signs in
 * as whoever the kubeconfig authenticates as, so the page can do what that user may do.
 *
 * @module
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ApiClient } from '../client/api-client.js';

export const DASHBOARD_USAGE = `Usage: fleetyard dashboard [options]

Prints a new one-time login link to the dashboard (https://<server>/ui/) of a running
fleetyard up. The link works once, for an hour, and signs in as the kubeconfig's user.

Options:
  --kubeconfig PATH    Connection (default: DATA_DIR/kubeconfig)
  --data-dir DIR       fleetyard up's data dir (default ./.fleetyard)
`;

export interface DashboardIo {
  readonly client?: Pick<ApiClient, 'postPath' | 'server' | 'close'>;
  readonly stdout: (line: string) => void;
  readonly stderr: (line: string) => void;
}

/** Runs `fleetyard dashboard …`; resolves to the exit code (0, 1 refused, 2 usage). */
export async function runDashboard(argv: readonly string[], io: DashboardIo): Promise<number> {
  let values: { kubeconfig?: string | undefined; 'data-dir': string; help?: boolean | undefined };
  try {
    const parsed = parseArgs({
      args: [...argv],
      options: {
        kubeconfig: { type: 'string' },
        'data-dir': { type: 'string', default: '.fleetyard' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    });
    values = parsed.values;
  } catch (err) {
    io.stderr(`error: ${err instanceof Error ? err.message : String(err)}\n${DASHBOARD_USAGE}`);
    return 2;
  }
  if (values.help) {
    io.stdout(DASHBOARD_USAGE);
    return 0;
  }
  const kubeconfig = values.kubeconfig ?? resolve(values['data-dir'], 'kubeconfig');
  const client = io.client ?? (await ApiClient.fromKubeconfig(kubeconfig));
  try {
    const answer = await client.postPath('/ui/api/login-links', {});
    const path =
      typeof answer === 'object' && answer !== null && 'path' in answer ? answer.path : undefined;
    if (typeof path !== 'string') throw new Error('the server did not answer with a login link');
    io.stdout(`${client.server.replace(/\/$/, '')}${path}\n`);
    return 0;
  } catch (err) {
    io.stderr(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    if (io.client === undefined) client.close();
  }
}
