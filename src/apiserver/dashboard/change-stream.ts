/**
 * `GET /ui/api/stream` and `GET /ui/api/history`: the recorder's changes as the dashboard
 * reads them, filtered by what the signed-in user may `list`.
 *
 * The stream is one connection for every kind the page shows. A browser holds at most six
 * HTTP/1.1 connections to one origin, and the dashboard needs a dozen kinds live: a watch per
 * kind would leave the page's own writes queued behind them. Each object is checked with the
 * same authorizer as a `list` of its resource in its namespace would be (RBAC, the Node
 * authorizer), so the page sees what `kubectl get` would show the same user.
 *
 * Frames are NDJSON (contract in docs/dashboard.md): HELLO, the current objects as ADDED,
 * SYNCED, then each change as it is recorded, and CLOCK frames when the cluster clock's
 * speed or state changes or its time departs from what the page extrapolates.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { UserInfo } from '../authentication/user.js';
import type { Authorizer } from '../authorization/types.js';
import type { Change, ChangeRecorder } from './change-recorder.js';
import { type ClockFrame, ClockWatch } from './clock-frames.js';

/** How long one stream trusts an authorization answer: RBAC edits show within this. */
const DECISION_TTL_MS = 5000;

/** Writes beyond this many buffered bytes end the stream: a page that stopped reading. */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

export interface StreamServices {
  readonly recorder: ChangeRecorder;
  /** Absent: every change is shown (a server without access control). */
  readonly authorizer?: Authorizer;
  readonly clockFrames: () => ClockFrame;
}

/** Whether `user` may list the change's resource in its namespace, cached per stream. */
export function visibility(
  authorizer: Authorizer | undefined,
  user: UserInfo,
  now: () => number = Date.now,
): (c: Pick<Change, 'group' | 'resource' | 'namespace'>) => boolean {
  if (authorizer === undefined) return () => true;
  const cache = new Map<string, { allowed: boolean; at: number }>();
  return (c) => {
    const key = `${c.group}/${c.resource}/${c.namespace}`;
    const hit = cache.get(key);
    const t = now();
    if (hit !== undefined && t - hit.at < DECISION_TTL_MS) return hit.allowed;
    const allowed =
      authorizer.authorize({
        user,
        verb: 'list',
        resourceRequest: true,
        apiGroup: c.group,
        resource: c.resource,
        ...(c.namespace !== '' ? { namespace: c.namespace } : {}),
      }).decision === 'Allow';
    cache.set(key, { allowed, at: t });
    return allowed;
  };
}

/** One change as a frame line (the stored JSON spliced in, never re-encoded). */
export function changeFrame(c: Change, type: string = c.type): string {
  const time = new Date(c.time).toISOString();
  return `{"type":"${type}","seq":${c.seq},"time":"${time}","group":${JSON.stringify(c.group)},"resource":${JSON.stringify(c.resource)},"object":${c.json}}\n`;
}

/** Serves the live stream until the client goes or the server shuts down. */
export function serveStream(
  services: StreamServices,
  user: UserInfo,
  req: IncomingMessage,
  res: ServerResponse,
  shutdown: AbortSignal,
): void {
  const visible = visibility(services.authorizer, user);
  res.writeHead(200, {
    'Content-Type': 'application/x-ndjson',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  const { recorder } = services;
  const seq = recorder.seq;
  const hello = { type: 'HELLO', seq, user: publicUser(user), clock: services.clockFrames() };
  // HELLO at once: the page learns who it is while the snapshot is put together.
  res.write(`${JSON.stringify(hello)}\n`);
  let lines: string[] = [];
  let bytes = 0;
  for (const c of recorder.current()) {
    if (!visible(c)) continue;
    const frame = changeFrame(c, 'ADDED');
    lines.push(frame);
    bytes += frame.length;
    // In ~1 MB writes, so the first objects travel while the rest are joined.
    if (bytes > 1 << 20) {
      res.write(lines.join(''));
      lines = [];
      bytes = 0;
    }
  }
  lines.push(`{"type":"SYNCED","seq":${seq}}\n`);
  res.write(lines.join(''));
  let closed = false;
  const write = (text: string) => {
    if (closed) return;
    if (res.writableLength > MAX_BUFFERED_BYTES) return end();
    res.write(text);
  };
  const unsubscribe = recorder.subscribe((c) => {
    if (visible(c)) write(changeFrame(c));
  });
  const clockWatch = new ClockWatch(services.clockFrames, (frame) =>
    write(`${JSON.stringify({ type: 'CLOCK', clock: frame })}\n`),
  );
  const end = () => {
    if (closed) return;
    closed = true;
    unsubscribe();
    clockWatch.stop();
    shutdown.removeEventListener('abort', end);
    res.end();
  };
  shutdown.addEventListener('abort', end);
  req.once('close', end);
  res.once('close', end);
}

/** The whole recorded history the user may see, as one JSON document. */
export function serveHistory(services: StreamServices, user: UserInfo, res: ServerResponse): void {
  const visible = visibility(services.authorizer, user);
  const { base, changes } = services.recorder.history();
  const start = new Date(services.recorder.startTime).toISOString();
  const entries: string[] = [];
  for (const c of base) if (visible(c)) entries.push(changeFrame(c, 'ADDED').trimEnd());
  for (const c of changes) if (visible(c)) entries.push(changeFrame(c).trimEnd());
  const body = `{"start":"${start}","seq":${services.recorder.seq},"entries":[${entries.join(',')}]}`;
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(body);
}

/** The user as the page shows it: name and groups (never `extra`, which may hold claims). */
export function publicUser(user: UserInfo): { username: string; groups: readonly string[] } {
  return { username: user.username, groups: user.groups };
}
