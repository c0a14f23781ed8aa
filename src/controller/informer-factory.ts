/**
 * client-go's `SharedInformerFactory`: one list and one watch per resource type per process,
 * however many controllers read it. Informers start on first request and stop with the
 * factory's signal.
 *
 * @module
 */
import type { KubeObject } from '../api/object.js';
import type { ConnectionOptions } from '../client/http-lister-watcher.js';
import { HttpListerWatcher } from '../client/http-lister-watcher.js';
import type { ListerWatcher } from '../client/lister-watcher.js';
import { type ResourceType, resourcePath } from '../client/resource-path.js';
import {
  type InformerLogger,
  SharedInformer,
  stripManagedFields,
} from '../client/shared-informer.js';
import type { Indexers } from '../client/store.js';
import type { Clock } from '../util/clock.js';
import type { InformerFactory } from './context.js';

export interface InformerFactoryOptions {
  /** Times lists, reconnects and backoffs (transport: the wall clock under `--clock virtual`). */
  readonly clock: Clock;
  /** The cluster clock the caches hold while they are behind (see `ReflectorOptions`). */
  readonly activity?: Pick<Clock, 'hold' | 'watchEvents' | 'turns'>;
  readonly signal: AbortSignal;
  /** Builds the list/watch source of a collection path. */
  readonly listerWatcher: (path: string) => ListerWatcher<KubeObject>;
  readonly random?: () => number;
  readonly log?: InformerLogger;
}

/** A factory whose informers list and watch over HTTP(S). */
export function httpInformerFactory(
  connection: ConnectionOptions,
  options: Omit<InformerFactoryOptions, 'listerWatcher'>,
): InformerFactory {
  return createInformerFactory({
    ...options,
    listerWatcher: (path) =>
      new HttpListerWatcher({
        ...connection,
        path,
        clock: options.clock,
        ...(options.activity !== undefined ? { activity: options.activity } : {}),
      }),
  });
}

export function createInformerFactory(options: InformerFactoryOptions): InformerFactory {
  const informers = new Map<string, SharedInformer<KubeObject>>();
  return {
    informer(
      type: ResourceType,
      opts: { readonly indexers?: Indexers<KubeObject> } = {},
    ): SharedInformer<KubeObject> {
      const path = resourcePath(type);
      let informer = informers.get(path);
      if (informer === undefined) {
        informer = new SharedInformer({
          listerWatcher: options.listerWatcher(path),
          clock: options.clock,
          activity: options.activity,
          name: type.group ? `${type.plural}.${type.group}` : type.plural,
          // As kube-controller-manager's and the scheduler's informers (kubernetes#118455).
          transform: stripManagedFields,
          ...(opts.indexers !== undefined ? { indexers: opts.indexers } : {}),
          ...(options.random !== undefined ? { random: options.random } : {}),
          ...(options.log !== undefined ? { log: options.log } : {}),
        });
        informers.set(path, informer);
        if (!options.signal.aborted) {
          informer.run(options.signal).catch((err: unknown) => {
            options.log?.error({ informer: path, err }, 'informer stopped');
          });
        }
      } else if (opts.indexers !== undefined) {
        informer.addIndexers(opts.indexers);
      }
      return informer;
    },
    async waitForSync(list, signal) {
      const results = await Promise.all(list.map((i) => i.waitForSync(signal)));
      return results.every(Boolean);
    },
  };
}
