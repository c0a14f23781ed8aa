/**
 * Waits for a condition on a few objects through one watch stream (list once, then watch from
 * its resourceVersion), the way `kubectl rollout status` does. A benchmark that waits for a
 * 1,000-replica Deployment must not poll or list 1,000 pods meanwhile: that would load the
 * server it measures. A watch on one Deployment costs the server one event per status write.
 *
 * @module
 */
import type { ClientRequest, IncomingMessage } from 'node:http';
import { request } from 'node:https';
import type { Fleetyard } from './fleetyard.js';

/** A Kubernetes object, as far as this module looks into it. */
export interface KObject {
  readonly metadata: { readonly name: string; readonly generation?: number };
  readonly spec?: Record<string, unknown>;
  readonly status?: Record<string, unknown>;
}

export interface WatchUntil {
  /** `performance.now()` when the predicate first held. */
  readonly at: number;
  /** The objects (by name) at that moment. */
  readonly objects: ReadonlyMap<string, KObject>;
  /** Watch events received. */
  readonly events: number;
}

interface ListBody {
  readonly metadata: { readonly resourceVersion: string };
  readonly items: KObject[];
}

/**
 * A started wait: `done` resolves when `predicate(objects)` holds (checked after the list and
 * after every event), rejects on timeout or a broken stream. `stop` closes the stream.
 */
export interface Waiter {
  readonly done: Promise<WatchUntil>;
  stop(): void;
}

/**
 * Lists `collection` (a path such as `/apis/apps/v1/namespaces/default/deployments`, with an
 * optional `?labelSelector=…`) and watches it until `predicate` holds. Resolves once the watch
 * is open, so that a write made afterwards is certainly seen.
 */
export async function watchUntil(
  fy: Fleetyard,
  collection: string,
  predicate: (objects: ReadonlyMap<string, KObject>) => boolean,
  timeoutMs: number,
): Promise<Waiter> {
  const list = await getJson<ListBody>(fy, collection);
  const objects = new Map<string, KObject>(list.items.map((o) => [o.metadata.name, o]));
  const sep = collection.includes('?') ? '&' : '?';
  const path = `${collection}${sep}watch=true&allowWatchBookmarks=true&resourceVersion=${list.metadata.resourceVersion}`;
  let events = 0;
  let close = (): void => {};
  const done = new Promise<WatchUntil>((resolve, reject) => {
    const timer = setTimeout(() => {
      close();
      reject(new Error(`watch ${collection}: condition not met in ${timeoutMs} ms`));
    }, timeoutMs);
    const finish = (e: Error | undefined): void => {
      clearTimeout(timer);
      close();
      if (e) reject(e);
      else resolve({ at: performance.now(), objects: new Map(objects), events });
    };
    if (predicate(objects)) {
      finish(undefined);
      return;
    }
    const req = authedGet(fy, path, (res) => {
      if (res.statusCode !== 200) {
        finish(new Error(`watch ${collection}: HTTP ${res.statusCode}`));
        return;
      }
      onCompleteLines(res, (lines) => {
        const applied = applyLines(objects, lines);
        events += applied.events;
        if (applied.error !== undefined) finish(new Error(`watch ${collection}: ${applied.error}`));
        else if (predicate(objects)) finish(undefined);
      });
      res.on('end', () => finish(new Error(`watch ${collection}: stream ended early`)));
    });
    req.on('error', (e) => finish(e));
    req.end();
    close = () => {
      close = () => {};
      req.destroy();
    };
  });
  // Swallow here; the caller awaits `done` and sees the rejection.
  done.catch(() => {});
  return { done, stop: () => close() };
}

/** Applies newline-separated watch events to `objects`; an ERROR event stops there. */
function applyLines(
  objects: Map<string, KObject>,
  lines: string,
): { events: number; error?: string } {
  let events = 0;
  for (const raw of lines.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const ev = JSON.parse(line) as { type: string; object: KObject };
    if (ev.type === 'ERROR') return { events, error: JSON.stringify(ev.object) };
    if (ev.type === 'BOOKMARK') continue;
    events++;
    if (ev.type === 'DELETED') objects.delete(ev.object.metadata.name);
    else objects.set(ev.object.metadata.name, ev.object);
  }
  return { events };
}

/** A GET of `path` as the admin, on a connection of its own (a watch holds it). */
export function authedGet(
  fy: Fleetyard,
  path: string,
  onResponse: (res: IncomingMessage) => void,
): ClientRequest {
  return request(
    {
      host: fy.target.host,
      port: fy.target.port,
      path,
      ca: fy.target.ca,
      agent: false,
      headers: { Authorization: `Bearer ${fy.token}`, Accept: 'application/json' },
    },
    onResponse,
  );
}

/** GET that must answer 200; the parsed JSON body. */
export async function getJson<T>(fy: Fleetyard, path: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const req = authedGet(fy, path, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200)
          reject(new Error(`GET ${path}: HTTP ${res.statusCode} ${body}`));
        else resolve(JSON.parse(body) as T);
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** A status field as a number (absent counts 0, as Kubernetes omits zero counts). */
export function statusNumber(o: KObject | undefined, field: string): number {
  const v = o?.status?.[field];
  return typeof v === 'number' ? v : 0;
}

/**
 * Feeds the complete lines of a watch stream to `onLines`, a chunk's worth at a time joined by
 * newlines (a line cut by a chunk boundary waits for the rest of it).
 */
export function onCompleteLines(res: IncomingMessage, onLines: (lines: string) => void): void {
  res.setEncoding('utf8');
  let buffer = '';
  res.on('data', (chunk: string) => {
    buffer += chunk;
    const nl = buffer.lastIndexOf('\n');
    if (nl < 0) return;
    const lines = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    onLines(lines);
  });
}
