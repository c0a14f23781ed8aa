/**
 * The HPA status a sync builds (upstream mutates a copy of the HPA: `setCondition`, `setStatus`),
 * and the two endings of a sync that wrote `/scale`: {@link rescaled} and {@link rescaleFailed}.
 *
 * @module
 */
import type {
  AutoscalingV2HorizontalPodAutoscaler as Hpa,
  AutoscalingV2HorizontalPodAutoscalerStatus as HpaStatus,
  MetricStatus,
} from '../../api/model/index.js';
import { formatTime } from '../../api/time.js';
import { storeScaleEvent } from './behavior.js';
import { type ConditionChange, setCondition } from './conditions.js';
import type { HpaEvent } from './metric-specs.js';
import type { Rescale, SyncInput, SyncPlan } from './plan.js';

/** A status being built: conditions are set in place as upstream's `setCondition`. */
export class Draft {
  status: HpaStatus;
  readonly events: HpaEvent[] = [];
  readonly #nowIso: string;
  constructor(hpa: Hpa, now: number) {
    this.status = { ...(hpa.status ?? { desiredReplicas: 0 }) };
    this.#nowIso = formatTime(now);
  }
  set(change: ConditionChange): void {
    this.status = {
      ...this.status,
      conditions: setCondition(this.status.conditions ?? [], change, this.#nowIso),
    };
  }
  event(type: HpaEvent['type'], reason: string, message: string): void {
    this.events.push({ type, reason, message });
  }
  /** Upstream `setStatus`: the status recreated from these fields (observedGeneration dropped). */
  setStatus(
    current: number,
    desired: number,
    metrics: MetricStatus[] | undefined,
    lastScaleIso?: string,
  ): void {
    const lastScaleTime = lastScaleIso ?? this.status.lastScaleTime;
    this.status = {
      ...(current !== 0 ? { currentReplicas: current } : {}),
      desiredReplicas: desired,
      ...(lastScaleTime !== undefined ? { lastScaleTime } : {}),
      ...(metrics !== undefined && metrics.length > 0 ? { currentMetrics: metrics } : {}),
      ...(this.status.conditions !== undefined ? { conditions: this.status.conditions } : {}),
    };
  }
}

export function referenceOf(hpa: Hpa): string {
  const ref = hpa.spec?.scaleTargetRef;
  return `${ref?.kind ?? ''}/${hpa.metadata?.namespace ?? ''}/${ref?.name ?? ''}`;
}

/** Upstream's status after a successful `/scale` write: `SucceededRescale`, the event, history. */
export function rescaled(input: SyncInput, plan: SyncPlan, rescale: Rescale): SyncPlan {
  const draft = new Draft({ ...input.hpa, status: plan.status }, input.now);
  draft.set({
    type: 'AbleToScale',
    status: 'True',
    reason: 'SucceededRescale',
    message: `the HPA controller was able to update the target scale to ${rescale.replicas}`,
  });
  draft.event(
    'Normal',
    'SuccessfulRescale',
    `New size: ${rescale.replicas}; reason: ${rescale.reason}`,
  );
  const history = storeScaleEvent(
    input.hpa.spec?.behavior,
    plan.history,
    rescale.currentReplicas,
    rescale.replicas,
    input.now,
    input.options.downscaleStabilizationMs,
  );
  draft.setStatus(
    rescale.currentReplicas,
    rescale.replicas,
    rescale.metricStatuses,
    formatTime(input.now),
  );
  return { ...plan, status: draft.status, events: [...plan.events, ...draft.events], history };
}

/** Upstream's status after a failed `/scale` write: `FailedUpdateScale` and `FailedRescale`. */
export function rescaleFailed(
  input: SyncInput,
  plan: SyncPlan,
  rescale: Rescale,
  err: string,
): SyncPlan {
  const draft = new Draft({ ...input.hpa, status: plan.status }, input.now);
  draft.event(
    'Warning',
    'FailedRescale',
    `New size: ${rescale.replicas}; reason: ${rescale.reason}; error: ${err}`,
  );
  draft.set({
    type: 'AbleToScale',
    status: 'False',
    reason: 'FailedUpdateScale',
    message: `the HPA controller was unable to update the target scale: ${err}`,
  });
  draft.setStatus(rescale.currentReplicas, draft.status.desiredReplicas, rescale.metricStatuses);
  return {
    ...plan,
    status: draft.status,
    events: [...plan.events, ...draft.events],
    error: `failed to rescale ${referenceOf(input.hpa)}: ${err}`,
  };
}
