/**
 * The dashboard as the API server makes it: its routes, its change recorder and where its
 * clock frames come from.
 *
 * @module
 */
import type { IncomingMessage } from 'node:http';
import type { StatusError } from '../../api/errors.js';
import type { Clock } from '../../util/clock.js';
import type { BrowserSessions } from '../authentication/browser-sessions.js';
import type { UserInfo } from '../authentication/user.js';
import type { Authorizer } from '../authorization/types.js';
import type { ApiServerOptions } from '../server-options.js';
import { ChangeRecorder } from './change-recorder.js';
import { clockFrame, clockFrames, wallClockStatus } from './clock-frames.js';
import { Dashboard } from './routes.js';

/** What the dashboard needs of the server's access control (`access-control.ts`). */
export interface DashboardAccess {
  readonly sessions: BrowserSessions;
  readonly authorizer: Authorizer;
  identify(
    req: IncomingMessage,
    requestUri: string,
  ): Promise<
    | { readonly identity: { readonly user: UserInfo } }
    | { readonly refused: StatusError; readonly plainTextBody?: string }
  >;
}

/**
 * The dashboard under `/ui/` and its change recorder (started with the server), when the
 * options ask for it; it needs access control (its sessions are an authenticator).
 */
export function dashboardOf(
  options: Pick<ApiServerOptions, 'backend' | 'dashboard' | 'clockControl'>,
  control: DashboardAccess | undefined,
  clock: Clock,
  shutdown: AbortSignal,
): { readonly dashboard?: Dashboard; readonly recorder?: ChangeRecorder } {
  if (options.dashboard === undefined || control === undefined) return {};
  const maxBytes = options.dashboard?.recorderMaxBytes;
  const recorder = new ChangeRecorder(
    options.backend,
    clock,
    maxBytes !== undefined ? { maxBytes } : {},
  );
  const assetsDir = options.dashboard?.assetsDir;
  const dashboard = new Dashboard({
    recorder,
    sessions: control.sessions,
    identify: async (req) => {
      const identified = await control.identify(req, req.url ?? '');
      return 'refused' in identified ? identified : { user: identified.identity.user };
    },
    authorizer: control.authorizer,
    clockFrames: options.clockControl
      ? clockFrames(options.clockControl)
      : () => clockFrame(wallClockStatus(clock.now())),
    ...(assetsDir !== undefined ? { assetsDir } : {}),
    shutdown,
  });
  return { dashboard, recorder };
}
