/**
 * The garbage collector as a {@link ControllerDefinition} (upstream `garbagecollector.go: Run,
 * Sync`): discover the deletable resources, start their monitors, wait for their caches, then
 * run the `attemptToDelete` and `attemptToOrphan` workers while discovery is rescanned every
 * 30 s (upstream `--garbage-collector` resync period), so custom resources of CRDs created
 * later are collected too.
 *
 * @module
 */
import { setMaxListeners } from 'node:events';
import type { ControllerContext, ControllerDefinition } from '../../controller/context.js';
import { runController } from '../../controller/controller.js';
import { GarbageCollector } from './collector.js';
import {
  type DiscoveredResource,
  deletableResources,
  discoverResources,
  type GetPath,
  mergeDiscovery,
  RestMapper,
} from './discovery.js';
import { Monitors } from './monitors.js';
import { GcOperations } from './operations.js';

export interface GarbageCollectorOptions {
  /** Discovery rescan period. @default 30_000 (upstream's 30 s) */
  readonly resyncPeriodMs?: number;
  /** Workers per queue (upstream `--concurrent-gc-syncs`). @default 20 */
  readonly workers?: number;
  /** How long to wait for the first caches before collecting anyway. @default 60_000 */
  readonly initialSyncTimeoutMs?: number;
  /** Reads discovery documents. @default `ctx.client.getPath` */
  readonly getPath?: (ctx: ControllerContext) => GetPath;
}

/** The event source upstream's collector writes as. */
export const GC_COMPONENT = 'garbage-collector-controller';

/** A garbage collector with non-default options (tests shorten the rescan period). */
export function createGarbageCollectorController(
  options: GarbageCollectorOptions = {},
): ControllerDefinition {
  return { name: 'garbage-collector', start: (ctx) => runGarbageCollector(ctx, options) };
}

/** The garbage collector with upstream's defaults; what `fleetyard up` runs. */
export const garbageCollectorController: ControllerDefinition = createGarbageCollectorController();

async function runGarbageCollector(
  ctx: ControllerContext,
  options: GarbageCollectorOptions,
): Promise<void> {
  const { clock } = ctx;
  // Up to 2 × workers requests wait on this signal at once (a listener each): no leak warning.
  const signal = linkedSignal(ctx.signal);
  const getPath =
    options.getPath?.(ctx) ?? ((path: string) => ctx.client.getPath(path, { signal }));
  let mapper = new RestMapper([]);
  const ops = new GcOperations(ctx.client, () => mapper, signal);
  const gc = new GarbageCollector(ctx, ops, ctx.eventRecorder(GC_COMPONENT));
  const monitors = new Monitors(ctx.informers, gc);
  let known: DiscoveredResource[] = [];

  /** One rescan; false when discovery could not be read at all. */
  const resync = async (): Promise<boolean> => {
    try {
      known = mergeDiscovery(known, await discoverResources(getPath));
    } catch (err) {
      if (!signal.aborted) ctx.log.warn({ err }, 'garbage collector: discovery failed');
      return false;
    }
    mapper = new RestMapper(known);
    monitors.sync(deletableResources(known));
    return true;
  };

  // Upstream retries discovery until the first success before anything else.
  while (!(await resync())) {
    if (!(await sleep(ctx, 1_000))) return;
  }
  await waitForCaches(ctx, monitors, options.initialSyncTimeoutMs ?? 60_000);
  const period = options.resyncPeriodMs ?? 30_000;
  const rescans = (async () => {
    while (await sleep(ctx, period)) await resync();
  })();
  const workers = options.workers ?? 20;
  const common = { clock, workers, log: ctx.log, metrics: ctx.metrics.controller, signal };
  await Promise.all([
    runController({
      ...common,
      name: 'garbage-collector-attempt-to-delete',
      queue: gc.attemptToDelete,
      reconcile: (uid) => gc.reconcile(uid, 'delete'),
    }),
    runController({
      ...common,
      name: 'garbage-collector-attempt-to-orphan',
      queue: gc.attemptToOrphan,
      reconcile: (uid) => gc.reconcile(uid, 'orphan'),
    }),
    rescans,
  ]);
  monitors.stop();
}

/** Waits for the monitors' first lists, at most `timeoutMs` (a broken resource must not block). */
async function waitForCaches(ctx: ControllerContext, monitors: Monitors, timeoutMs: number) {
  const limit = new AbortController();
  // One listener per informer (one per watched resource, ~25 built-in ones).
  setMaxListeners(0, limit.signal);
  const cancel = ctx.clock.setTimer(timeoutMs, () => limit.abort());
  const stop = (): void => limit.abort();
  ctx.signal.addEventListener('abort', stop, { once: true });
  try {
    const synced = await ctx.informers.waitForSync(monitors.informers(), limit.signal);
    if (!synced && !ctx.signal.aborted) {
      ctx.log.warn({ timeoutMs }, 'garbage collector: not all caches synced, collecting anyway');
    }
  } finally {
    cancel();
    ctx.signal.removeEventListener('abort', stop);
  }
}

/** A signal that aborts with `parent`, without a listener limit. */
function linkedSignal(parent: AbortSignal): AbortSignal {
  const child = new AbortController();
  setMaxListeners(0, child.signal);
  if (parent.aborted) child.abort(parent.reason);
  else parent.addEventListener('abort', () => child.abort(parent.reason), { once: true });
  return child.signal;
}

/** Sleeps on the context's clock; false when the controller stops first. */
async function sleep(ctx: ControllerContext, ms: number): Promise<boolean> {
  try {
    await ctx.clock.sleep(ms, ctx.signal);
    return true;
  } catch {
    return false;
  }
}
