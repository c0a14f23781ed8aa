/**
 * What the soak group checks of the API while it runs: a watch kept open the whole time that
 * must see every change of its collection in resourceVersion order (a break or a 410 Gone is
 * noticed and counted, then it resumes or relists, as a client-go reflector does), and a
 * ledger of acknowledged writes (ConfigMaps carrying counters) checked against the store.
 *
 * "Fell behind unnoticed" is what matters: at the end the watcher's view of every object must
 * equal a fresh list's at the same revision, unless it noticed a gap (410) and relisted.
 *
 * @module
 */
import type { ClientRequest } from 'node:http';
import type { ApiClient, Fleetyard } from './fleetyard.js';
import { authedGet, getJson, onCompleteLines } from './watch-until.js';

interface Meta {
  readonly name: string;
  readonly namespace?: string;
  readonly resourceVersion: string;
}
interface Item {
  readonly metadata: Meta;
}
interface ListBody {
  readonly metadata: { readonly resourceVersion: string };
  readonly items: Item[];
}

/** What a {@link WatchChecker} saw. */
export interface WatchFacts {
  readonly events: number;
  /** Streams that ended (server timeout, restart) and were resumed from the last revision. */
  readonly resumes: number;
  /** 410 Gone answers: the watcher noticed it fell behind the history window and relisted. */
  readonly relists: number;
  /** Events whose resourceVersion was not above the previous one (must be 0). */
  readonly outOfOrder: number;
}

/** One collection watched for the whole soak (`fy` may be swapped after a restart). */
export class WatchChecker {
  readonly #collection: string;
  #fy: Fleetyard;
  readonly #seen = new Map<string, string>();
  #rv = 0;
  #req: ClientRequest | undefined;
  #stopped = false;
  #events = 0;
  #resumes = 0;
  #relists = 0;
  #outOfOrder = 0;
  #failure: Error | undefined;

  constructor(fy: Fleetyard, collection: string) {
    this.#fy = fy;
    this.#collection = collection;
  }

  get revision(): number {
    return this.#rv;
  }

  facts(): WatchFacts {
    return {
      events: this.#events,
      resumes: this.#resumes,
      relists: this.#relists,
      outOfOrder: this.#outOfOrder,
    };
  }

  async start(): Promise<void> {
    await this.#relist();
  }

  /** Points the checker at a restarted server; the next stream resumes from the last RV. */
  retarget(fy: Fleetyard): void {
    this.#fy = fy;
    this.#open();
  }

  stop(): void {
    this.#stopped = true;
    this.#req?.destroy();
  }

  /**
   * Waits (wall time, up to `timeoutMs`) until the watch reached a fresh list's revision, then
   * returns the objects whose last seen version differs from the list's: 0 unless the watch
   * fell behind without noticing.
   */
  async unnoticedDifferences(timeoutMs = 60_000): Promise<number> {
    const list = await getJson<ListBody>(this.#fy, this.#collection);
    const target = Number(list.metadata.resourceVersion);
    const deadline = Date.now() + timeoutMs;
    while (this.#rv < target && Date.now() < deadline && !this.#failure) {
      await new Promise((r) => setTimeout(r, 50));
    }
    if (this.#failure) throw this.#failure;
    const listed = new Map(list.items.map((o) => [key(o.metadata), o.metadata.resourceVersion]));
    let differ = 0;
    for (const [k, rv] of listed) if (this.#seen.get(k) !== rv) differ++;
    for (const k of this.#seen.keys()) if (!listed.has(k)) differ++;
    return differ;
  }

  async #relist(): Promise<void> {
    const list = await getJson<ListBody>(this.#fy, this.#collection);
    this.#seen.clear();
    for (const o of list.items) this.#seen.set(key(o.metadata), o.metadata.resourceVersion);
    this.#rv = Number(list.metadata.resourceVersion);
    this.#open();
  }

  #open(): void {
    this.#req?.destroy();
    if (this.#stopped) return;
    const sep = this.#collection.includes('?') ? '&' : '?';
    const path = `${this.#collection}${sep}watch=true&allowWatchBookmarks=true&resourceVersion=${this.#rv}`;
    const req = authedGet(this.#fy, path, (res) => {
      if (res.statusCode === 410) return this.#gone();
      if (res.statusCode !== 200) return this.#broken(`HTTP ${res.statusCode}`);
      onCompleteLines(res, (lines) => {
        for (const line of lines.split('\n')) if (line.trim() !== '') this.#event(line);
      });
      res.on('end', () => this.#broken('stream ended'));
      res.on('error', () => this.#broken('stream error'));
    });
    req.on('error', () => this.#broken('connection error'));
    req.end();
    this.#req = req;
  }

  #event(line: string): void {
    const ev = JSON.parse(line) as { type: string; object: Item & { code?: number } };
    if (ev.type === 'ERROR') {
      if (ev.object.code === 410) this.#gone();
      else this.#broken(JSON.stringify(ev.object));
      return;
    }
    const rv = Number(ev.object.metadata.resourceVersion);
    if (ev.type !== 'BOOKMARK') {
      this.#events++;
      if (rv <= this.#rv) this.#outOfOrder++;
      const k = key(ev.object.metadata);
      if (ev.type === 'DELETED') this.#seen.delete(k);
      else this.#seen.set(k, ev.object.metadata.resourceVersion);
    }
    if (rv > this.#rv) this.#rv = rv;
  }

  /** A stream ended: resume from the last revision after a short pause (noticed). */
  #broken(_why: string): void {
    if (this.#stopped) return;
    this.#req?.destroy();
    this.#req = undefined;
    this.#resumes++;
    setTimeout(() => this.#open(), 200).unref();
  }

  /** 410 Gone: the watcher fell behind the history window and knows it; relist. */
  #gone(): void {
    if (this.#stopped) return;
    this.#req?.destroy();
    this.#req = undefined;
    this.#relists++;
    this.#relist().catch((err: unknown) => {
      this.#failure = err instanceof Error ? err : new Error(String(err));
    });
  }
}

function key(m: Meta): string {
  return m.namespace === undefined ? m.name : `${m.namespace}/${m.name}`;
}

/** ConfigMaps `ledger-<i>` in `namespace`, each holding a counter bumped by acknowledged PUTs. */
export class Ledger {
  readonly #namespace: string;
  readonly #acked = new Map<string, number>();
  #writes = 0;

  constructor(namespace: string) {
    this.#namespace = namespace;
  }

  get acknowledged(): number {
    return this.#writes;
  }

  #path(name?: string): string {
    const base = `/api/v1/namespaces/${this.#namespace}/configmaps`;
    return name === undefined ? base : `${base}/${name}`;
  }

  /** Bumps each of `count` counters once (creating them first); resolves once all are acked. */
  async bump(client: ApiClient, count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const name = `ledger-${i}`;
      const next = (this.#acked.get(name) ?? 0) + 1;
      const body = JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, namespace: this.#namespace },
        data: { counter: String(next) },
      });
      const res =
        next === 1
          ? await client.request('POST', this.#path(), body)
          : await client.request('PUT', this.#path(name), body);
      if (res.status !== 200 && res.status !== 201) {
        throw new Error(`ledger ${name}: HTTP ${res.status} ${res.body.toString()}`);
      }
      this.#acked.set(name, next);
      this.#writes++;
    }
  }

  /** Counters that are missing or below their last acknowledged value. */
  async lost(client: ApiClient): Promise<string[]> {
    const list = await client.getJson<{
      items: Array<{ metadata: Meta; data?: { counter?: string } }>;
    }>(this.#path());
    const stored = new Map(list.items.map((o) => [o.metadata.name, Number(o.data?.counter ?? 0)]));
    const lost: string[] = [];
    for (const [name, counter] of this.#acked) {
      const got = stored.get(name) ?? 0;
      if (got < counter) lost.push(`${name}: acked ${counter}, stored ${got}`);
    }
    return lost;
  }
}
