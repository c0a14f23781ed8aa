/**
 * The HorizontalPodAutoscaler controller (upstream `pkg/controller/podautoscaler/horizontal.go`):
 * every HPA is synced once per sync period (15 s, `--horizontal-pod-autoscaler-sync-period`) on
 * the injected clock, and its first sync comes one period after it appears, as upstream's
 * fixed-interval queue does. A sync reads the target's `/scale`, the pods of its selector and
 * their usage from the Metrics API, asks the pure {@link planSync} what to do, writes `/scale`
 * when the count changes, then the status when it changed, and records upstream's events.
 *
 * The recommendations and scale events behind stabilization and `behavior` policies live in
 * memory, per HPA key, as upstream's do (a restart forgets them).
 *
 * @module
 */
import { type LabelSelector, parseLabelSelector } from '../../api/labels/selector.js';
import type { AutoscalingV2HorizontalPodAutoscaler as Hpa } from '../../api/model/index.js';
import { deepEqual } from '../../api/object.js';
import { isNotFound } from '../../client/api-client.js';
import { deletedObject } from '../../client/shared-informer.js';
import { objectKey, splitKey } from '../../client/store.js';
import {
  type ControllerContext,
  type ControllerDefinition,
  RESOURCES,
} from '../../controller/context.js';
import { type ReconcileResult, runController } from '../../controller/controller.js';
import type { EventRecorder } from '../../controller/events.js';
import { type KindInformer, kindInformer } from '../../controller/kind-informer.js';
import { WorkQueue } from '../../controller/workqueue.js';
import { type BehaviorHistory, DEFAULT_DOWNSCALE_STABILIZATION_MS } from './behavior.js';
import type { MetricsFetch } from './metric-specs.js';
import {
  ApiPodMetricsSource,
  type PodMetricsItem,
  type PodMetricsSource,
  resourceMetrics,
} from './metrics-source.js';
import { type HpaOptions, planSync, type SyncInput, type SyncPlan } from './plan.js';
import {
  DEFAULT_CPU_INITIALIZATION_PERIOD_MS,
  DEFAULT_INITIAL_READINESS_DELAY_MS,
  DEFAULT_TOLERANCE,
} from './replica-calculator.js';
import { ApiScaleClient, type ScaleClient, type TargetScale } from './scale-target.js';
import { rescaled, rescaleFailed } from './status-draft.js';

export const HPA_CONTROLLER_NAME = 'horizontal-pod-autoscaler-controller';
/** Upstream's event source component. */
export const HPA_EVENT_COMPONENT = 'horizontal-pod-autoscaler';
/** `--horizontal-pod-autoscaler-sync-period` default. */
export const DEFAULT_SYNC_PERIOD_MS = 15_000;

export const HPA_RESOURCE = {
  group: 'autoscaling',
  version: 'v2',
  plural: 'horizontalpodautoscalers',
} as const;

export interface HpaControllerOptions extends Partial<HpaOptions> {
  /** @default 15 s */
  readonly syncPeriodMs?: number;
  /** Where pod usage comes from. @default the Metrics API through the controller's client */
  readonly metricsSource?: (ctx: ControllerContext) => PodMetricsSource;
  /** How targets' `/scale` is read and written. @default discovery + `/scale` through the client */
  readonly scaleClient?: (ctx: ControllerContext) => ScaleClient;
}

/** The HPA controller for the controller manager (`fleetyard up` runs it). */
export function horizontalPodAutoscalerController(
  options: HpaControllerOptions = {},
): ControllerDefinition {
  return { name: HPA_CONTROLLER_NAME, start: (ctx) => run(ctx, options) };
}

interface Deps {
  readonly ctx: ControllerContext;
  readonly hpas: KindInformer<'AutoscalingV2HorizontalPodAutoscaler'>;
  readonly pods: KindInformer<'Pod'>;
  readonly metrics: PodMetricsSource;
  readonly scales: ScaleClient;
  readonly recorder: EventRecorder;
  readonly options: HpaOptions;
  readonly syncPeriodMs: number;
  /** Per HPA key: upstream's `recommendations`, `scaleUpEvents`, `scaleDownEvents`. */
  readonly history: Map<string, BehaviorHistory>;
  /** Per HPA key: the selector of its last sync (upstream's `hpaSelectors`). */
  readonly selectors: Map<string, LabelSelector>;
}

async function run(ctx: ControllerContext, options: HpaControllerOptions): Promise<void> {
  const deps: Deps = {
    ctx,
    hpas: kindInformer(
      ctx.informers.informer(HPA_RESOURCE),
      'AutoscalingV2HorizontalPodAutoscaler',
    ),
    pods: kindInformer(ctx.informers.informer(RESOURCES.pods), 'Pod'),
    metrics: options.metricsSource?.(ctx) ?? new ApiPodMetricsSource(ctx.client),
    scales: options.scaleClient?.(ctx) ?? new ApiScaleClient(ctx.client),
    recorder: ctx.eventRecorder(HPA_EVENT_COMPONENT),
    options: {
      tolerance: options.tolerance ?? DEFAULT_TOLERANCE,
      downscaleStabilizationMs:
        options.downscaleStabilizationMs ?? DEFAULT_DOWNSCALE_STABILIZATION_MS,
      cpuInitializationPeriodMs:
        options.cpuInitializationPeriodMs ?? DEFAULT_CPU_INITIALIZATION_PERIOD_MS,
      delayOfInitialReadinessStatusMs:
        options.delayOfInitialReadinessStatusMs ?? DEFAULT_INITIAL_READINESS_DELAY_MS,
    },
    syncPeriodMs: options.syncPeriodMs ?? DEFAULT_SYNC_PERIOD_MS,
    history: new Map(),
    selectors: new Map(),
  };
  const queue = new WorkQueue<string>({
    clock: ctx.clock,
    name: 'horizontalpodautoscaler',
    metrics: ctx.metrics.queue,
  });
  // Upstream adds every key rate-limited by the sync period: a new or changed HPA waits for it.
  const enqueue = (hpa: Hpa) => queue.addAfter(objectKey(hpa), deps.syncPeriodMs);
  deps.hpas.addEventHandler({
    onAdd: enqueue,
    onUpdate: (_, hpa) => enqueue(hpa),
    onDelete: (d) => {
      const key = objectKey(deletedObject(d));
      queue.forget(key);
      deps.selectors.delete(key);
    },
  });
  if (!(await ctx.informers.waitForSync([deps.hpas.informer, deps.pods.informer], ctx.signal)))
    return;
  await runController({
    name: HPA_CONTROLLER_NAME,
    queue,
    clock: ctx.clock,
    log: ctx.log,
    metrics: ctx.metrics.controller,
    signal: ctx.signal,
    reconcile: (key, signal) => reconcileKey(deps, key, signal),
  });
}

/** Upstream `reconcileKey`: a gone HPA's memory is dropped; any other key comes back in a period. */
async function reconcileKey(
  deps: Deps,
  key: string,
  signal: AbortSignal,
): Promise<ReconcileResult> {
  const [namespace, name] = splitKey(key);
  const hpa = deps.hpas.lister.get(namespace, name);
  if (hpa === undefined) {
    deps.history.delete(key);
    deps.selectors.delete(key);
    return {};
  }
  try {
    const error = await reconcileAutoscaler(deps, key, hpa, signal);
    if (error !== undefined) deps.ctx.log.info({ hpa: key, err: error }, 'HPA sync failed');
  } catch (err) {
    if (signal.aborted) throw err;
    deps.ctx.log.error({ hpa: key, err }, 'HPA sync failed');
  }
  return { requeueAfter: deps.syncPeriodMs };
}

async function reconcileAutoscaler(
  deps: Deps,
  key: string,
  hpa: Hpa,
  signal: AbortSignal,
): Promise<string | undefined> {
  const namespace = hpa.metadata?.namespace ?? '';
  const target = await readScale(deps, hpa, signal);
  const items =
    target.ok && needsMetrics(hpa, target.scale)
      ? await readMetrics(deps, namespace, target.scale.view.selector, signal)
      : [];
  const input: SyncInput = {
    hpa,
    now: deps.ctx.clock.now(),
    scale: target.ok ? { ok: true, scale: target.scale.view } : target,
    pods: deps.pods.lister.listInNamespace(namespace),
    otherSelectors: [...deps.selectors]
      .filter(([k]) => k !== key && splitKey(k)[0] === namespace)
      .map(([k, selector]) => ({ key: k, selector })),
    metrics: (resource, container): MetricsFetch =>
      Array.isArray(items) ? resourceMetrics(items, resource, container) : items,
    history: deps.history.get(key) ?? {
      recommendations: [],
      scaleUpEvents: [],
      scaleDownEvents: [],
    },
    options: deps.options,
  };
  let plan: SyncPlan = planSync(input);
  const rescale = plan.rescale;
  if (rescale !== undefined && target.ok) {
    try {
      await deps.scales.update(
        namespace,
        hpa.spec?.scaleTargetRef.name ?? '',
        target.scale,
        rescale.replicas,
        signal,
      );
      plan = rescaled(input, plan, rescale);
    } catch (err) {
      if (signal.aborted) throw err;
      plan = rescaleFailed(input, plan, rescale, err instanceof Error ? err.message : String(err));
    }
  }
  deps.history.set(key, plan.history);
  if (plan.selector !== undefined) deps.selectors.set(key, parseLabelSelector(plan.selector));
  for (const e of plan.events) deps.recorder.event(hpa, e.type, e.reason, e.message);
  await writeStatus(deps, hpa, plan, signal);
  return plan.error;
}

/** Only a count within [min, max] (and not a disabled zero) is computed from metrics. */
function needsMetrics(hpa: Hpa, target: TargetScale): boolean {
  const current = target.view.specReplicas;
  const min = hpa.spec?.minReplicas ?? 1;
  const max = hpa.spec?.maxReplicas ?? 0;
  return !(current === 0 && min !== 0) && current >= min && current <= max;
}

async function readScale(
  deps: Deps,
  hpa: Hpa,
  signal: AbortSignal,
): Promise<{ ok: true; scale: TargetScale } | { ok: false; error: string }> {
  const ref = hpa.spec?.scaleTargetRef;
  if (ref === undefined) return { ok: false, error: 'the HPA has no scaleTargetRef' };
  try {
    return { ok: true, scale: await deps.scales.get(hpa.metadata?.namespace ?? '', ref, signal) };
  } catch (err) {
    if (signal.aborted) throw err;
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** One Metrics API listing per sync (upstream lists once per resource metric: same answer). */
async function readMetrics(
  deps: Deps,
  namespace: string,
  selector: string,
  signal: AbortSignal,
): Promise<PodMetricsItem[] | MetricsFetch> {
  if (selector === '') return [];
  try {
    return await deps.metrics.list(namespace, selector, signal);
  } catch (err) {
    if (signal.aborted) throw err;
    const msg = err instanceof Error ? err.message : String(err);
    return { ok: false, error: `unable to fetch metrics from resource metrics API: ${msg}` };
  }
}

/** Upstream `updateStatusIfNeeded`: only a changed status is written. */
async function writeStatus(
  deps: Deps,
  hpa: Hpa,
  plan: SyncPlan,
  signal: AbortSignal,
): Promise<void> {
  if (deepEqual(hpa.status ?? {}, plan.status)) return;
  const ref = {
    ...HPA_RESOURCE,
    namespace: hpa.metadata?.namespace ?? '',
    name: hpa.metadata?.name ?? '',
  };
  try {
    const body = {
      ...hpa,
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      status: plan.status,
    };
    await deps.ctx.client.updateStatus(ref, body, { signal });
  } catch (err) {
    if (signal.aborted || isNotFound(err)) return;
    deps.recorder.event(
      hpa,
      'Warning',
      'FailedUpdateStatus',
      err instanceof Error ? err.message : String(err),
    );
  }
}
