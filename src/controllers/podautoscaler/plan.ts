/**
 * One HPA sync as a pure function (upstream `reconcileAutoscaler`): from the HPA, its target's
 * scale, the pods and their samples and the HPA's in-memory history, the count to write (if any)
 * and the status, conditions and events upstream produces. The controller (`controller.ts`)
 * does the reads and writes around it: it writes `/scale` when {@link SyncPlan.rescale} says so
 * and then settles the status with {@link rescaled} or {@link rescaleFailed}.
 *
 * @module
 */
import type {
  AutoscalingV2HorizontalPodAutoscaler as Hpa,
  AutoscalingV2HorizontalPodAutoscalerStatus as HpaStatus,
  MetricSpec,
  MetricStatus,
  Pod,
} from '../../api/model/index.js';
import { parseQuantity } from '../../api/validation/quantity.js';
import {
  type BehaviorHistory,
  convertWithBehaviorRate,
  convertWithRules,
  scaleDownRules,
  scaleUpRules,
  stabilizeRecommendation,
  stabilizeWithBehaviors,
} from './behavior.js';
import {
  computeReplicasForMetrics,
  type HpaEvent,
  type ResourceMetricsLookup,
} from './metric-specs.js';
import { DEFAULT_TOLERANCE, type Tolerances } from './replica-calculator.js';
import { type SelectorCheck, validateSelector } from './selector.js';
import { Draft, referenceOf } from './status-draft.js';

/** What the target's `/scale` says (autoscaling/v1 Scale). */
export interface ScaleView {
  readonly specReplicas: number;
  readonly statusReplicas: number;
  readonly selector: string;
}

/** The controller's flags (kube-controller-manager's `--horizontal-pod-autoscaler-*`). */
export interface HpaOptions {
  readonly tolerance: number;
  readonly downscaleStabilizationMs: number;
  readonly cpuInitializationPeriodMs: number;
  readonly delayOfInitialReadinessStatusMs: number;
}

export interface SyncInput {
  readonly hpa: Hpa;
  readonly now: number;
  /** The target's scale, or why it could not be read (upstream's `FailedGetScale` text). */
  readonly scale: { ok: true; scale: ScaleView } | { ok: false; error: string };
  /** The pods of the HPA's namespace (the planner selects them). */
  readonly pods: readonly Pod[];
  /** Selectors other HPAs of the namespace were last seen with (upstream `hpaSelectors`). */
  readonly otherSelectors: SelectorCheck['others'];
  readonly metrics: ResourceMetricsLookup;
  readonly history: BehaviorHistory;
  readonly options: HpaOptions;
}

export interface SyncPlan {
  /** Write this count to `/scale`, then call {@link rescaled} or {@link rescaleFailed}. */
  readonly rescale?: Rescale;
  /** The status to write when there is no rescale (with one: its conditions so far). */
  readonly status: HpaStatus;
  readonly events: HpaEvent[];
  readonly history: BehaviorHistory;
  /** The selector the HPA's pods were matched with (for the ambiguity check of other HPAs). */
  readonly selector?: string;
  /** The sync's error, after its status is written (upstream returns it to the queue). */
  readonly error?: string;
}

/** A `/scale` write the sync asks for. */
export interface Rescale {
  readonly replicas: number;
  readonly currentReplicas: number;
  /** The event's reason text, e.g. `cpu resource utilization (percentage of request) above target`. */
  readonly reason: string;
  readonly metricStatuses?: MetricStatus[];
}

const DEFAULT_METRICS: MetricSpec[] = [
  {
    type: 'Resource',
    resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } },
  },
];

/** Upstream's tolerances: the flag's, or per direction from `behavior` (HPAConfigurableTolerance). */
export function tolerancesFor(hpa: Hpa, tolerance: number = DEFAULT_TOLERANCE): Tolerances {
  const of = (q: unknown): number | undefined => {
    if (typeof q !== 'string' && typeof q !== 'number') return undefined;
    const r = parseQuantity(q);
    return r.ok ? Number(r.quantity.nanos) / 1e9 : undefined;
  };
  const b = hpa.spec?.behavior;
  return {
    scaleDown: of(b?.scaleDown?.tolerance) ?? tolerance,
    scaleUp: of(b?.scaleUp?.tolerance) ?? tolerance,
  };
}

/** Upstream `reconcileAutoscaler` up to the `/scale` write. */
export function planSync(input: SyncInput): SyncPlan {
  const { hpa, now } = input;
  const draft = new Draft(hpa, now);
  const reference = referenceOf(hpa);
  if (!input.scale.ok) return scaleFailed(draft, input.history, reference, input.scale.error);
  draft.set({
    type: 'AbleToScale',
    status: 'True',
    reason: 'SucceededGetScale',
    message: "the HPA controller was able to get the target's current scale",
  });
  const scale = input.scale.scale;
  const current = scale.specReplicas;
  // Upstream `recordInitialRecommendation`: the count as found is the first recommendation.
  let history = input.history;
  if (history.recommendations.length === 0) {
    history = { ...history, recommendations: [{ replicas: current, at: now }] };
  }
  const minReplicas = hpa.spec?.minReplicas ?? 1;
  const maxReplicas = hpa.spec?.maxReplicas ?? 0;
  const base = { events: draft.events, history };
  if (current === 0 && minReplicas !== 0) {
    draft.set({
      type: 'ScalingActive',
      status: 'False',
      reason: 'ScalingDisabled',
      message: 'scaling is disabled since the replica count of the target is zero',
    });
    draft.setStatus(current, current, undefined);
    return { ...base, status: draft.status };
  }
  if (current > maxReplicas || current < minReplicas) {
    const [replicas, reason] =
      current > maxReplicas
        ? [maxReplicas, 'Current number of replicas above Spec.MaxReplicas']
        : [minReplicas, 'Current number of replicas below Spec.MinReplicas'];
    return {
      ...base,
      status: draft.status,
      rescale: { replicas, currentReplicas: current, reason },
    };
  }
  return fromMetrics(input, draft, history, scale, { minReplicas, maxReplicas, reference });
}

/** Upstream `scaleForResourceMappings` failed: `FailedGetScale`, nothing else changes. */
function scaleFailed(
  draft: Draft,
  history: BehaviorHistory,
  reference: string,
  err: string,
): SyncPlan {
  draft.event('Warning', 'FailedGetScale', err);
  draft.set({
    type: 'AbleToScale',
    status: 'False',
    reason: 'FailedGetScale',
    message: `the HPA controller was unable to get the target's current scale: ${err}`,
  });
  return {
    status: draft.status,
    events: draft.events,
    history,
    error: `failed to query scale subresource for ${reference}: ${err}`,
  };
}

/** The metrics branch of `reconcileAutoscaler`: the selector, the proposals, the normalization. */
function fromMetrics(
  input: SyncInput,
  draft: Draft,
  history: BehaviorHistory,
  scale: ScaleView,
  limits: { minReplicas: number; maxReplicas: number; reference: string },
): SyncPlan {
  const { hpa, now, options } = input;
  const { minReplicas, maxReplicas, reference } = limits;
  const current = scale.specReplicas;
  const sel = validateSelector({
    hpa,
    selector: scale.selector,
    pods: input.pods,
    others: input.otherSelectors,
  });
  if (!sel.ok) {
    draft.event('Warning', sel.reason, sel.error);
    draft.set(sel.condition);
    const failed = failedMetrics(draft, history, current, undefined, reference, sel.error);
    // Upstream records a parsed selector before the ambiguity check: both HPAs see each other.
    return sel.reason === 'AmbiguousSelector' ? { ...failed, selector: scale.selector } : failed;
  }
  const specs =
    hpa.spec?.metrics !== undefined && hpa.spec.metrics.length > 0
      ? hpa.spec.metrics
      : DEFAULT_METRICS;
  const m = computeReplicasForMetrics({
    specs,
    specReplicas: current,
    pods: sel.pods,
    metrics: input.metrics,
    tolerances: tolerancesFor(hpa, options.tolerance),
    timing: {
      nowMs: now,
      cpuInitializationPeriodMs: options.cpuInitializationPeriodMs,
      delayOfInitialReadinessStatusMs: options.delayOfInitialReadinessStatusMs,
    },
  });
  for (const e of m.events) draft.events.push(e);
  draft.set(m.condition);
  if (m.replicas === -1) {
    return {
      ...failedMetrics(draft, history, current, m.statuses, reference, m.error ?? ''),
      selector: scale.selector,
    };
  }
  const desiredRaw = Math.max(m.replicas, 0);
  let reason = '';
  if (desiredRaw > current) reason = `${m.metricName} above target`;
  if (desiredRaw < current) reason = 'All metrics below target';
  const normalized = normalize(
    draft,
    hpa,
    history,
    current,
    desiredRaw,
    minReplicas,
    maxReplicas,
    now,
    options,
  );
  const out = {
    events: draft.events,
    history: normalized.history,
    selector: scale.selector,
    ...(m.error !== undefined ? { error: m.error } : {}),
  };
  if (normalized.replicas !== current) {
    const rescale = {
      replicas: normalized.replicas,
      currentReplicas: current,
      reason,
      metricStatuses: m.statuses,
    };
    return { ...out, status: draft.status, rescale };
  }
  draft.setStatus(current, current, m.statuses);
  return { ...out, status: draft.status };
}

/** The status after a metrics failure: current count and metrics, the old desired count. */
function failedMetrics(
  draft: Draft,
  history: BehaviorHistory,
  current: number,
  statuses: MetricStatus[] | undefined,
  reference: string,
  error: string,
): SyncPlan {
  draft.setStatus(current, draft.status.desiredReplicas, statuses);
  draft.event('Warning', 'FailedComputeMetricsReplicas', error);
  return {
    status: draft.status,
    events: draft.events,
    history,
    error: `failed to compute desired number of replicas based on listed metrics for ${reference}: ${error}`,
  };
}

/** Upstream `normalizeDesiredReplicas` / `normalizeDesiredReplicasWithBehaviors`. */
function normalize(
  draft: Draft,
  hpa: Hpa,
  history: BehaviorHistory,
  current: number,
  desired: number,
  minReplicas: number,
  maxReplicas: number,
  now: number,
  options: HpaOptions,
): { replicas: number; history: BehaviorHistory } {
  const behavior = hpa.spec?.behavior;
  const ready = { reason: 'ReadyForNewScale', message: 'recommended size matches current size' };
  if (behavior === undefined) {
    const s = stabilizeRecommendation(
      history.recommendations,
      desired,
      now,
      options.downscaleStabilizationMs,
    );
    const able =
      s.replicas !== desired
        ? {
            reason: 'ScaleDownStabilized',
            message:
              'recent recommendations were higher than current one, applying the highest recent recommendation',
          }
        : ready;
    draft.set({ type: 'AbleToScale', status: 'True', ...able });
    const c = convertWithRules(current, s.replicas, minReplicas, maxReplicas);
    draft.set({
      type: 'ScalingLimited',
      status: c.replicas === s.replicas ? 'False' : 'True',
      reason: c.reason,
      message: c.message,
    });
    return { replicas: c.replicas, history: { ...history, recommendations: s.history } };
  }
  const args = {
    up: scaleUpRules(behavior.scaleUp),
    down: scaleDownRules(behavior.scaleDown, options.downscaleStabilizationMs),
    minReplicas,
    maxReplicas,
    currentReplicas: current,
    desiredReplicas: desired,
    now,
  };
  const s = stabilizeWithBehaviors(history.recommendations, args);
  const able = s.replicas !== desired ? { reason: s.reason, message: s.message } : ready;
  draft.set({ type: 'AbleToScale', status: 'True', ...able });
  const c = convertWithBehaviorRate(
    { ...args, desiredReplicas: s.replicas },
    history.scaleUpEvents,
    history.scaleDownEvents,
  );
  draft.set({
    type: 'ScalingLimited',
    status: c.replicas === s.replicas ? 'False' : 'True',
    reason: c.reason,
    message: c.message,
  });
  return { replicas: c.replicas, history: { ...history, recommendations: s.history } };
}
