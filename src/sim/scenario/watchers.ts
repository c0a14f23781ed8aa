/**
 * The runner's watches: one shared informer per watched kind (every namespace), each event
 * passed on in stream order with the virtual time it arrived at. Objects get their `kind`
 * and `apiVersion` stamped (list items carry neither).
 *
 * {@link KindWatchers.settle} is the barrier between steps: after the cluster went quiescent,
 * it waits until every informer's cache equals a fresh list of its kind (same objects, same
 * resourceVersions), so the events a step caused are reported under that step and checked
 * before the next step changes anything.
 *
 * @module
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeObject } from '../../api/object.js';
import { deletedObject, SharedInformer } from '../../client/shared-informer.js';
import { realClock } from '../../util/clock.js';
import type { ScenarioCluster } from './cluster.js';
import type { EventType } from './invariants.js';
import { collectionPath, type ResourceInfo } from './kinds.js';

export interface WatchedEvent {
  readonly type: EventType;
  readonly key: string;
  readonly kind: string;
  readonly object: KubeObject;
  /** Virtual time of arrival. */
  readonly time: number;
}

export interface WatchSink {
  /** A kind's first list arrived (its current objects). */
  synced(key: string, objects: readonly KubeObject[], time: number): void;
  event(e: WatchedEvent): void;
}

interface Watched {
  readonly info: ResourceInfo;
  readonly informer: SharedInformer;
}

/** How long {@link KindWatchers.settle} waits for the watches to catch up (wall time). */
const SETTLE_LIMIT_MS = 10_000;
const SETTLE_POLL_MS = 5;
const RELIST_MS = 200;

/** The key a resource's events and invariants share: `apps/statefulsets`, `/pods`. */
export function resourceKey(info: Pick<ResourceInfo, 'group' | 'plural'>): string {
  return `${info.group}/${info.plural}`;
}

export class KindWatchers {
  readonly #cluster: ScenarioCluster;
  readonly #sink: WatchSink;
  readonly #stop = new AbortController();
  readonly #watched = new Map<string, Watched>();
  readonly #runs: Promise<void>[] = [];

  constructor(cluster: ScenarioCluster, sink: WatchSink) {
    this.#cluster = cluster;
    this.#sink = sink;
  }

  has(info: ResourceInfo): boolean {
    return this.#watched.has(resourceKey(info));
  }

  /** Starts watching `info` (once per resource) and resolves when its first list is in. */
  async watch(info: ResourceInfo): Promise<void> {
    const key = resourceKey(info);
    if (this.#watched.has(key)) return;
    const stamp = (o: KubeObject): KubeObject =>
      o.kind === info.kind ? o : { ...o, kind: info.kind, apiVersion: info.apiVersion };
    const informer = new SharedInformer({
      listerWatcher: this.#cluster.listerWatcher(collectionPath(info)),
      // Wall time: these are the observer's retries and watch renewals, not cluster behaviour.
      clock: realClock,
      name: `scenario-${info.plural}`,
    });
    const emit = (type: EventType, object: KubeObject): void =>
      this.#sink.event({
        type,
        key,
        kind: info.kind,
        object: stamp(object),
        time: this.#cluster.clock.now().getTime(),
      });
    informer.addEventHandler({
      onAdd: (o, initial) => {
        if (!initial) emit('ADDED', o);
      },
      onUpdate: (_old, o) => emit('MODIFIED', o),
      onDelete: (d) => emit('DELETED', deletedObject(d)),
    });
    this.#watched.set(key, { info, informer });
    this.#runs.push(informer.run(this.#stop.signal).catch(() => undefined));
    await informer.waitForSync(this.#stop.signal);
    const now = this.#cluster.clock.now().getTime();
    this.#sink.synced(key, informer.lister.list().map(stamp), now);
  }

  /** Waits until every cache equals a fresh list; false when one did not catch up in time. */
  async settle(): Promise<boolean> {
    const deadline = Date.now() + SETTLE_LIMIT_MS;
    for (const { info, informer } of this.#watched.values()) {
      const listNow = async (): Promise<Map<string, string>> =>
        versions((await this.#cluster.client.list(info)).items);
      let want = await listNow();
      let listedAt = Date.now();
      while (!sameVersions(want, versions(informer.lister.list()))) {
        if (Date.now() > deadline) return false;
        await sleep(SETTLE_POLL_MS);
        // Something may still have changed after the list (a due timer): look again.
        if (Date.now() - listedAt >= RELIST_MS) {
          want = await listNow();
          listedAt = Date.now();
        }
      }
    }
    return true;
  }

  async stop(): Promise<void> {
    this.#stop.abort();
    await Promise.all(this.#runs);
  }
}

function versions(objects: readonly KubeObject[]): Map<string, string> {
  return new Map(
    objects.map((o) => [
      `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`,
      o.metadata?.resourceVersion ?? '',
    ]),
  );
}

function sameVersions(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}
