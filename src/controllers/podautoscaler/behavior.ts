/**
 * How the HPA turns a metric proposal into the replica count it writes (upstream
 * `horizontal.go`: `stabilizeRecommendation`, `normalizeDesiredReplicas`,
 * `convertDesiredReplicasWithRules` without `spec.behavior`; `stabilizeRecommendationWithBehaviors`,
 * `convertDesiredReplicasWithBehaviorRate`, the scale-up/down limits over recorded scale events
 * and `storeScaleEvent` with it), as pure functions over the per-HPA history the controller keeps
 * in memory (upstream keeps it in memory too: a restart forgets it).
 *
 * Every function returns new arrays; times are ms since the epoch of the injected clock.
 *
 * @module
 */
import type {
  HorizontalPodAutoscalerBehavior,
  HPAScalingPolicy,
  HPAScalingRules,
} from '../../api/model/index.js';

/** One unstabilized recommendation (upstream `timestampedRecommendation`). */
export interface Recommendation {
  readonly replicas: number;
  readonly at: number;
}

/** One rescale (upstream `timestampedScaleEvent`): its absolute change. */
export interface ScaleEvent {
  readonly change: number;
  readonly at: number;
  /** Older than the longest policy period when the last event was stored: reusable slot. */
  readonly outdated: boolean;
}

/** `--horizontal-pod-autoscaler-downscale-stabilization` default: 5 min. */
export const DEFAULT_DOWNSCALE_STABILIZATION_MS = 5 * 60_000;
/** Without `behavior`, one sync may at most double the replicas, and always reach 4. */
const SCALE_UP_LIMIT_FACTOR = 2.0;
const SCALE_UP_LIMIT_MINIMUM = 4.0;
const INT32_MAX = 2_147_483_647;
const INT32_MIN = -2_147_483_648;

/** Rules with every default filled in (upstream `GenerateHPAScale{Up,Down}Rules`). */
export interface FullRules {
  readonly stabilizationWindowSeconds: number;
  readonly selectPolicy: string;
  readonly policies: readonly HPAScalingPolicy[];
}

/** Upstream's default scale-up rules: +4 pods or +100 % per 15 s, whichever is more. */
export function scaleUpRules(rules: HPAScalingRules | undefined): FullRules {
  return {
    stabilizationWindowSeconds: rules?.stabilizationWindowSeconds ?? 0,
    selectPolicy: rules?.selectPolicy ?? 'Max',
    policies:
      rules?.policies !== undefined && rules.policies.length > 0
        ? rules.policies
        : [
            { type: 'Pods', value: 4, periodSeconds: 15 },
            { type: 'Percent', value: 100, periodSeconds: 15 },
          ],
  };
}

/**
 * Upstream's default scale-down rules: −100 % per 15 s; an unset window is the controller's
 * downscale stabilization (`maybeInitScaleDownStabilizationWindow`).
 */
export function scaleDownRules(
  rules: HPAScalingRules | undefined,
  downscaleStabilizationMs: number,
): FullRules {
  return {
    stabilizationWindowSeconds:
      rules?.stabilizationWindowSeconds ?? Math.trunc(downscaleStabilizationMs / 1000),
    selectPolicy: rules?.selectPolicy ?? 'Max',
    policies:
      rules?.policies !== undefined && rules.policies.length > 0
        ? rules.policies
        : [{ type: 'Percent', value: 100, periodSeconds: 15 }],
  };
}

/** A normalized count and the `ScalingLimited` reason and message that explain it. */
export interface Limited {
  readonly replicas: number;
  readonly reason: string;
  readonly message: string;
}

const WITHIN_RANGE = {
  reason: 'DesiredWithinRange',
  message: 'the desired count is within the acceptable range',
};
const SCALE_UP_LIMIT = {
  reason: 'ScaleUpLimit',
  message: 'the desired replica count is increasing faster than the maximum scale rate',
};
const TOO_MANY = {
  reason: 'TooManyReplicas',
  message: 'the desired replica count is more than the maximum replica count',
};
const TOO_FEW = {
  reason: 'TooFewReplicas',
  message: 'the desired replica count is less than the minimum replica count',
};
const SCALE_DOWN_LIMIT = {
  reason: 'ScaleDownLimit',
  message: 'the desired replica count is decreasing faster than the maximum scale rate',
};

/** Upstream `stabilizeRecommendation` (no behavior): the highest recommendation in the window. */
export function stabilizeRecommendation(
  history: readonly Recommendation[],
  desired: number,
  now: number,
  windowMs: number,
): { replicas: number; history: Recommendation[] } {
  let max = desired;
  let oldIndex = -1;
  const cutoff = now - windowMs;
  history.forEach((rec, i) => {
    if (rec.at < cutoff) oldIndex = i;
    else if (rec.replicas > max) max = rec.replicas;
  });
  const next = [...history];
  const entry = { replicas: desired, at: now };
  if (oldIndex >= 0) next[oldIndex] = entry;
  else next.push(entry);
  return { replicas: max, history: next };
}

/** Upstream `calculateScaleUpLimit`: max(2·current, 4). */
export function scaleUpLimit(currentReplicas: number): number {
  return Math.trunc(Math.max(SCALE_UP_LIMIT_FACTOR * currentReplicas, SCALE_UP_LIMIT_MINIMUM));
}

/** Upstream `convertDesiredReplicasWithRules`: [min, min(max, scale-up limit)]. */
export function convertWithRules(
  current: number,
  desired: number,
  minReplicas: number,
  maxReplicas: number,
): Limited {
  const upLimit = scaleUpLimit(current);
  const [maxAllowed, maxWhy] =
    maxReplicas > upLimit ? [upLimit, SCALE_UP_LIMIT] : [maxReplicas, TOO_MANY];
  if (desired < minReplicas) return { replicas: minReplicas, ...TOO_FEW };
  if (desired > maxAllowed) return { replicas: maxAllowed, ...maxWhy };
  return { replicas: desired, ...WITHIN_RANGE };
}

/** Upstream `getReplicasChangePerPeriod`: the changes strictly after now − period. */
export function replicasChangePerPeriod(
  periodSeconds: number,
  events: readonly ScaleEvent[],
  now: number,
): number {
  const cutoff = now - periodSeconds * 1000;
  let sum = 0;
  for (const e of events) if (e.at > cutoff) sum += e.change;
  return sum;
}

/** The count at the start of a policy's period, undoing the changes made within it. */
function periodStart(
  current: number,
  period: number,
  up: readonly ScaleEvent[],
  down: readonly ScaleEvent[],
  now: number,
): number {
  return (
    current - replicasChangePerPeriod(period, up, now) + replicasChangePerPeriod(period, down, now)
  );
}

/** Upstream `calculateScaleUpLimitWithScalingRules`. */
export function scaleUpLimitWithRules(
  current: number,
  up: readonly ScaleEvent[],
  down: readonly ScaleEvent[],
  rules: FullRules,
  now: number,
): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const pickMin = rules.selectPolicy === 'Min';
  let result = pickMin ? INT32_MAX : INT32_MIN;
  for (const p of rules.policies) {
    const start = periodStart(current, p.periodSeconds, up, down, now);
    // A percent proposal rounds up, or a small target could never grow.
    const proposed = p.type === 'Pods' ? start + p.value : Math.ceil(start * (1 + p.value / 100));
    result = pickMin ? Math.min(result, proposed) : Math.max(result, proposed);
  }
  return result;
}

/** Upstream `calculateScaleDownLimitWithBehaviors`. */
export function scaleDownLimitWithRules(
  current: number,
  up: readonly ScaleEvent[],
  down: readonly ScaleEvent[],
  rules: FullRules,
  now: number,
): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const pickMin = rules.selectPolicy === 'Min';
  let result = pickMin ? INT32_MIN : INT32_MAX;
  for (const p of rules.policies) {
    const start = periodStart(current, p.periodSeconds, up, down, now);
    // Go's int32(float) truncates toward zero.
    const proposed = p.type === 'Pods' ? start - p.value : Math.trunc(start * (1 - p.value / 100));
    result = pickMin ? Math.max(result, proposed) : Math.min(result, proposed);
  }
  return result;
}

/** The per-HPA history the behavior path reads. */
export interface BehaviorHistory {
  readonly recommendations: readonly Recommendation[];
  readonly scaleUpEvents: readonly ScaleEvent[];
  readonly scaleDownEvents: readonly ScaleEvent[];
}

/** What {@link normalizeWithBehaviors} needs of the HPA and the target. */
export interface BehaviorArgs {
  readonly up: FullRules;
  readonly down: FullRules;
  readonly minReplicas: number;
  readonly maxReplicas: number;
  readonly currentReplicas: number;
  readonly desiredReplicas: number;
  readonly now: number;
}

/**
 * Upstream `stabilizeRecommendationWithBehaviors`: the current count moved toward the desired one
 * but no further than the lowest recommendation of the scale-up window (going up) or the highest
 * of the scale-down window (going down); the new recommendation is recorded, reusing a slot too
 * old for both windows.
 */
export function stabilizeWithBehaviors(
  history: readonly Recommendation[],
  args: BehaviorArgs,
): { replicas: number; reason: string; message: string; history: Recommendation[] } {
  const { now, desiredReplicas: desired } = args;
  const upCutoff = now - args.up.stabilizationWindowSeconds * 1000;
  const downCutoff = now - args.down.stabilizationWindowSeconds * 1000;
  let upRec = desired;
  let downRec = desired;
  let oldIndex = -1;
  history.forEach((rec, i) => {
    if (rec.at > upCutoff) upRec = Math.min(rec.replicas, upRec);
    if (rec.at > downCutoff) downRec = Math.max(rec.replicas, downRec);
    if (rec.at < upCutoff && rec.at < downCutoff) oldIndex = i;
  });
  let replicas = args.currentReplicas;
  if (replicas < upRec) replicas = upRec;
  if (replicas > downRec) replicas = downRec;
  const next = [...history];
  const entry = { replicas: desired, at: now };
  if (oldIndex >= 0) next[oldIndex] = entry;
  else next.push(entry);
  const why =
    desired >= args.currentReplicas
      ? {
          reason: 'ScaleUpStabilized',
          message:
            'recent recommendations were lower than current one, applying the lowest recent recommendation',
        }
      : {
          reason: 'ScaleDownStabilized',
          message:
            'recent recommendations were higher than current one, applying the highest recent recommendation',
        };
  return { replicas, ...why, history: next };
}

/** Upstream `convertDesiredReplicasWithBehaviorRate`: min/max and the policies' rate limits. */
export function convertWithBehaviorRate(
  args: BehaviorArgs,
  up: readonly ScaleEvent[],
  down: readonly ScaleEvent[],
): Limited {
  const { currentReplicas: current, desiredReplicas: desired, now } = args;
  if (desired > current) {
    const limit = Math.max(scaleUpLimitWithRules(current, up, down, args.up, now), current);
    const [maxAllowed, why] =
      args.maxReplicas > limit ? [limit, SCALE_UP_LIMIT] : [args.maxReplicas, TOO_MANY];
    if (desired > maxAllowed) return { replicas: maxAllowed, ...why };
  } else if (desired < current) {
    const limit = Math.min(scaleDownLimitWithRules(current, up, down, args.down, now), current);
    const [minAllowed, why] =
      args.minReplicas < limit ? [limit, SCALE_DOWN_LIMIT] : [args.minReplicas, TOO_FEW];
    if (desired < minAllowed) return { replicas: minAllowed, ...why };
  }
  return { replicas: desired, ...WITHIN_RANGE };
}

function longestPeriod(rules: FullRules): number {
  return rules.policies.reduce((m, p) => Math.max(m, p.periodSeconds), 0);
}

/**
 * Upstream `storeScaleEvent`: without `behavior` nothing is kept; otherwise events older than
 * the direction's longest policy period are marked outdated and the last of them is replaced by
 * the new event (else it is appended).
 */
export function storeScaleEvent(
  behavior: HorizontalPodAutoscalerBehavior | undefined,
  history: BehaviorHistory,
  prevReplicas: number,
  newReplicas: number,
  now: number,
  downscaleStabilizationMs: number,
): BehaviorHistory {
  if (behavior === undefined) return history;
  const isUp = newReplicas > prevReplicas;
  const rules = isUp
    ? scaleUpRules(behavior.scaleUp)
    : scaleDownRules(behavior.scaleDown, downscaleStabilizationMs);
  const cutoff = now - longestPeriod(rules) * 1000;
  const events = (isUp ? history.scaleUpEvents : history.scaleDownEvents).map((e) =>
    e.at < cutoff ? { ...e, outdated: true } : e,
  );
  let oldIndex = -1;
  events.forEach((e, i) => {
    if (e.outdated) oldIndex = i;
  });
  const entry = { change: Math.abs(newReplicas - prevReplicas), at: now, outdated: false };
  if (oldIndex >= 0) events[oldIndex] = entry;
  else events.push(entry);
  return isUp ? { ...history, scaleUpEvents: events } : { ...history, scaleDownEvents: events };
}
