/**
 * The controller manager: runs a set of {@link ControllerDefinition}s over one connection to
 * an API server, sharing one informer per resource, one clock, one event pipeline and one set
 * of metrics, as kube-controller-manager does. `fleetyard up` runs one in-process (over its
 * own HTTPS listener, see ADR 0008); the same code runs against any cluster from a kubeconfig.
 *
 * Each controller gets a write client of its own agent, so its writes carry the field manager
 * upstream's component appears as in `managedFields` (`kube-controller-manager`,
 * `kube-scheduler`, `kubelet`); reads are shared.
 *
 * @module
 */
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import type { Registry } from 'prom-client';
import { ApiClient } from '../client/api-client.js';
import type { ConnectionOptions } from '../client/http-lister-watcher.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { seededRandom } from '../util/seeded-random.js';
import type { ControllerContext, ControllerDefinition } from './context.js';
import { createEventRecorderFactory, type EventRecorderFactory } from './event-recorder.js';
import { httpInformerFactory } from './informer-factory.js';
import { createControllerMetrics } from './metrics.js';

export interface ControllerManagerOptions {
  readonly connection: ConnectionOptions;
  readonly controllers: readonly ControllerDefinition[];
  /** The cluster clock: queues, timers, timestamps, and the holds a virtual clock waits on. */
  readonly clock: Clock;
  /**
   * Times the transport (request timeouts, watch reconnects and their backoff). Under
   * `--clock virtual` the wall clock: a request does not time out because the cluster's time
   * ran ahead. @default clock
   */
  readonly transportClock?: Clock;
  readonly random?: () => number;
  /**
   * `--seed`: each controller (and its events, and the informers) draws from a stream of its
   * own derived from this seed and its name, so runs repeat however the work interleaves.
   */
  readonly seed?: number;
  readonly log: Logger;
  /** Time limit of one write request. @default 30_000 */
  readonly requestTimeoutMs?: number;
  /**
   * Bearer tokens by username, for controllers that act as their own identity
   * (`ControllerDefinition.identity`, `ctx.clientAs`); a user without one uses the
   * connection's token. @default {}
   */
  readonly credentials?: Readonly<Record<string, string>>;
  /**
   * The user the shared informers list and watch as (kube-controller-manager's own,
   * `system:kube-controller-manager`, which may list and watch everything); absent: the
   * connection's.
   */
  readonly informerIdentity?: string;
}

export interface RunningControllerManager {
  /** Adds the controllers' and queues' metrics to a Prometheus registry (e.g. the server's). */
  registerMetrics(registry: Registry): Promise<void>;
  /** Stops every controller, waits for in-flight reconciles, then writes queued events. */
  stop(): Promise<void>;
}

/** The Kubernetes version the components report in their User-Agent. */
const AGENT_VERSION = 'v1.33.0';

/** Starts the controllers; they run until {@link RunningControllerManager.stop}. */
export function startControllerManager(
  options: ControllerManagerOptions,
): RunningControllerManager {
  const stopping = new AbortController();
  // Every informer, request and queue waits on this one signal: hundreds of listeners is normal.
  setMaxListeners(0, stopping.signal);
  const { clock, log } = options;
  const transportClock = options.transportClock ?? clock;
  const random = options.random ?? Math.random;
  const { seed } = options;
  const randomFor = (name: string): (() => number) =>
    seed === undefined ? random : seededRandom(seed, name);
  const credentials = options.credentials ?? {};
  /** The connection as `username`, or the manager's own when it holds no token for that user. */
  const connectionAs = (username: string | undefined): ConnectionOptions => {
    const token = username === undefined ? undefined : credentials[username];
    return token === undefined ? options.connection : { ...options.connection, token };
  };
  const informersAs = (username: string | undefined, name: string) =>
    httpInformerFactory(connectionAs(username), {
      clock: transportClock,
      activity: clock,
      signal: stopping.signal,
      random: randomFor(name),
      log: log.child({ informers: name }),
    });
  const informers = informersAs(options.informerIdentity, 'informers');
  const clients = new Map<string, ApiClient>();
  /**
   * One client (one connection pool) per agent, user and purpose: events never wait behind
   * binds, and each identity's requests carry its own token.
   */
  const clientFor = (
    agent: string,
    purpose: 'writes' | 'events' = 'writes',
    username?: string,
  ): ApiClient => {
    const connection = connectionAs(username);
    const key = `${agent} ${purpose} ${connection === options.connection ? '' : username}`;
    let client = clients.get(key);
    if (client === undefined) {
      client = new ApiClient({
        ...connection,
        clock: transportClock,
        activity: clock,
        userAgent: `${agent}/${AGENT_VERSION} (fleetyard)`,
        timeoutMs: options.requestTimeoutMs ?? 30_000,
      });
      clients.set(key, client);
    }
    return client;
  };
  // One event pipeline per controller, as each upstream controller has its own broadcaster:
  // a busy kubelet's events do not queue behind the scheduler's.
  const pipelines: EventRecorderFactory[] = [];
  const eventsFor = (def: ControllerDefinition): EventRecorderFactory => {
    const factory = createEventRecorderFactory({
      client: clientFor(def.agent ?? 'kube-controller-manager', 'events', def.identity),
      clock,
      log: log.child({ events: def.name }),
      host: hostname(),
      random: randomFor(`events/${def.name}`),
    });
    pipelines.push(factory);
    return factory;
  };
  const metrics = createControllerMetrics();
  const rootCA = options.connection.ca?.toString();
  const running = options.controllers.map((def) => {
    const agent = def.agent ?? 'kube-controller-manager';
    const ctx: ControllerContext = {
      client: clientFor(agent, 'writes', def.identity),
      clientAs: (username) => clientFor(agent, 'writes', username),
      informers: def.ownInformers === true ? informersAs(def.identity, def.name) : informers,
      clock,
      random: randomFor(def.name),
      log: log.child({ controller: def.name }),
      eventRecorder: eventsFor(def),
      metrics: { controller: metrics.controller, queue: metrics.queue },
      signal: stopping.signal,
      ...(rootCA !== undefined ? { rootCA } : {}),
    };
    return def.start(ctx).catch((err: unknown) => {
      if (!stopping.signal.aborted) log.error({ err, controller: def.name }, 'controller failed');
    });
  });
  log.info({ controllers: options.controllers.map((c) => c.name) }, 'controllers started');
  return {
    registerMetrics: async (registry) => {
      await metrics.register(registry);
      for (const def of options.controllers) await def.registerMetrics?.(registry);
    },
    stop: async () => {
      stopping.abort();
      await Promise.all(running);
      await Promise.all(pipelines.map((p) => p.close()));
      for (const client of clients.values()) client.close();
    },
  };
}
