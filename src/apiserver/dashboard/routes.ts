/**
 * The dashboard's routes under `/ui/` on the API server's own port (docs/dashboard.md):
 *
 * | route | who | what |
 * |---|---|---|
 * | `GET /ui/`, `/ui/<file>` | anyone | the page, bundle and stylesheet (`assets.ts`) |
 * | `GET /ui/login?code=` | anyone with a code | redeems a one-time code: session cookie, 303 to `/ui/` |
 * | `GET /ui/api/session` | a session | who is signed in |
 * | `POST /ui/api/logout` | a session | ends it |
 * | `POST /ui/api/login-links` | any credential but a ServiceAccount's | a new one-time code for the caller |
 * | `GET /ui/api/stream`, `/ui/api/history` | a session | the cluster's changes (`change-stream.ts`) |
 *
 * Everything else the page does goes to the Kubernetes API itself with the session cookie, so
 * authorization, admission and audit apply to its reads and writes as to kubectl's.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StatusError, unauthorized } from '../../api/errors.js';
import type { BrowserSessions } from '../authentication/browser-sessions.js';
import { ANONYMOUS_USER, type UserInfo } from '../authentication/user.js';
import type { Authorizer } from '../authorization/types.js';
import type { RequestUrl } from '../http/request-url.js';
import { sendError } from '../http/respond.js';
import {
  type Asset,
  INVALID_LINK_PAGE,
  loadAssets,
  NOT_BUILT_PAGE,
  SECURITY_HEADERS,
} from './assets.js';
import type { ChangeRecorder } from './change-recorder.js';
import { publicUser, type StreamServices, serveHistory, serveStream } from './change-stream.js';
import type { ClockFrame } from './clock-frames.js';
import { LoginLinks } from './login-links.js';

/** Who a request is, as the server's authentication answers (a refusal: a 401/403 error). */
export type Identify = (
  req: IncomingMessage,
) => Promise<{ readonly user: UserInfo } | { readonly refused: StatusError }>;

export interface DashboardOptions {
  readonly recorder: ChangeRecorder;
  readonly sessions: BrowserSessions;
  readonly identify: Identify;
  readonly authorizer?: Authorizer;
  readonly clockFrames: () => ClockFrame;
  /** `dist/ui/`; absent or missing: a page saying the dashboard is not built. */
  readonly assetsDir?: string;
  readonly shutdown: AbortSignal;
}

export const DASHBOARD_PATH = '/ui/';

/** Whether a request path is the dashboard's. */
export function isDashboardPath(pathname: string): boolean {
  return pathname === '/ui' || pathname.startsWith(DASHBOARD_PATH);
}

export class Dashboard {
  readonly links = new LoginLinks();
  readonly #options: DashboardOptions;
  readonly #assets: ReadonlyMap<string, Asset>;
  readonly #stream: StreamServices;

  constructor(options: DashboardOptions) {
    this.#options = options;
    this.#assets = loadAssets(options.assetsDir);
    this.#stream = {
      recorder: options.recorder,
      clockFrames: options.clockFrames,
      ...(options.authorizer !== undefined ? { authorizer: options.authorizer } : {}),
    };
  }

  /** A one-time login path (`/ui/login?code=…`) for `user`: `up` prints it with its URL. */
  loginPath(user: UserInfo): string {
    return `${DASHBOARD_PATH}login?code=${this.links.issue(user)}`;
  }

  async serve(req: IncomingMessage, res: ServerResponse, url: RequestUrl): Promise<void> {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    const path = url.pathname;
    const method = req.method ?? 'GET';
    if (path === '/ui') {
      redirect(res, 301, DASHBOARD_PATH);
      return;
    }
    if (path === '/ui/login') {
      this.#login(res, url, method);
      return;
    }
    if (path.startsWith('/ui/api/')) {
      await this.#api(req, res, path.slice('/ui/api/'.length));
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') {
      sendError(res, notAllowed(method));
      return;
    }
    const name = path === DASHBOARD_PATH ? 'index.html' : path.slice(DASHBOARD_PATH.length);
    const asset = this.#assets.get(name);
    if (asset === undefined) {
      if (name === 'index.html') page(res, 503, NOT_BUILT_PAGE);
      else sendError(res, pageNotFound());
      return;
    }
    res.writeHead(200, {
      'Content-Type': asset.type,
      'Content-Length': asset.body.length,
      // The page and bundle change with each build: revalidate rather than serve a stale app.
      'Cache-Control': 'no-cache',
    });
    res.end(method === 'HEAD' ? undefined : asset.body);
  }

  #login(res: ServerResponse, url: RequestUrl, method: string): void {
    if (method !== 'GET') {
      sendError(res, notAllowed(method));
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    const code = url.searchParams.get('code') ?? '';
    const user = code === '' ? undefined : this.links.redeem(code);
    if (user === undefined) {
      page(res, 401, INVALID_LINK_PAGE);
      return;
    }
    res.setHeader('Set-Cookie', this.#options.sessions.open(user));
    redirect(res, 303, DASHBOARD_PATH);
  }

  async #api(req: IncomingMessage, res: ServerResponse, route: string): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    const method = req.method ?? 'GET';
    const identified = await this.#options.identify(req);
    if ('refused' in identified) return sendError(res, identified.refused);
    const { user } = identified;
    if (user.username === ANONYMOUS_USER) return sendError(res, unauthorized());
    switch (`${method} ${route}`) {
      case 'GET session':
        return json(res, 200, { user: publicUser(user) });
      case 'POST logout':
        res.setHeader('Set-Cookie', this.#options.sessions.close(req.headers));
        res.writeHead(204).end();
        return;
      case 'POST login-links':
        return this.#issueLink(res, user);
      case 'GET stream':
        return serveStream(this.#stream, user, req, res, this.#options.shutdown);
      case 'GET history':
        return serveHistory(this.#stream, user, res);
      default:
        return sendError(res, pageNotFound());
    }
  }

  /**
   * A link for the caller itself (`fleetyard dashboard`). Not for ServiceAccounts: their
   * tokens are bound and short-lived, and a session would outlive them by hours.
   */
  #issueLink(res: ServerResponse, user: UserInfo): void {
    if (user.username.startsWith('system:serviceaccount:')) {
      const why = `User "${user.username}" cannot open a dashboard session: ServiceAccounts cannot sign in to the dashboard`;
      sendError(res, new StatusError(403, 'Forbidden', why));
    } else {
      json(res, 201, { path: this.loginPath(user) });
    }
  }
}

function pageNotFound(): StatusError {
  return new StatusError(404, 'NotFound', 'the server could not find the requested resource');
}

function notAllowed(method: string): StatusError {
  return new StatusError(405, 'MethodNotAllowed', `${method} is not supported here`);
}

function redirect(res: ServerResponse, code: number, location: string): void {
  res.writeHead(code, { Location: location }).end();
}

function page(res: ServerResponse, code: number, html: string): void {
  res.writeHead(code, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
}

function json(res: ServerResponse, code: number, value: unknown): void {
  res.writeHead(code, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
}
