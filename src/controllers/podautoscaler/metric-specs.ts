/**
 * One proposal per `spec.metrics` entry, then the largest (upstream `computeReplicasForMetrics`,
 * `computeReplicasForMetric` and `computeStatusFor{Resource,ContainerResource}Metric`): the
 * resource metrics (cpu, memory…) of the Metrics API as Utilization or AverageValue targets.
 * Pods, Object and External metrics need the custom and external metrics APIs, which fleetyard
 * does not serve: they fail as upstream's do when those APIs are missing.
 *
 * Error texts nest as upstream's, e.g. `failed to get cpu resource metric value: failed to get
 * cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource
 * metrics API`.
 *
 * @module
 */
import type {
  MetricSpec,
  MetricStatus,
  MetricTarget,
  MetricValueStatus,
  Pod,
} from '../../api/model/index.js';
import { type ConditionChange, unableToCompute } from './conditions.js';
import {
  milliQuantity,
  milliValue,
  type PodMetricsInfo,
  plainMetricReplicas,
  type ReadinessTiming,
  resourceReplicas,
  type Tolerances,
} from './replica-calculator.js';

/** The Metrics API's samples for one resource (and container), or why there are none. */
export type MetricsFetch =
  | { ok: true; metrics: PodMetricsInfo; timestampMs: number }
  | { ok: false; error: string };

/** Reads the samples of the selected pods (upstream `GetResourceMetric`). */
export type ResourceMetricsLookup = (resource: string, container: string) => MetricsFetch;

/** An event the controller records on the HPA. */
export interface HpaEvent {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
}

export interface MetricsInput {
  readonly specs: readonly MetricSpec[];
  readonly specReplicas: number;
  readonly pods: readonly Pod[];
  readonly metrics: ResourceMetricsLookup;
  readonly tolerances: Tolerances;
  readonly timing: ReadinessTiming;
}

export interface MetricsResult {
  /** The largest proposal; -1 when the HPA cannot act on its metrics. */
  readonly replicas: number;
  /** What the proposal is based on, e.g. `cpu resource utilization (percentage of request)`. */
  readonly metricName: string;
  /** One per spec; a failed one is empty (`type: ''`), as upstream's zero value. */
  readonly statuses: MetricStatus[];
  readonly timestampMs: number;
  /** Upstream's aggregated error, also when some metrics still gave a proposal. */
  readonly error?: string;
  /** `ScalingActive` as it ends up. */
  readonly condition: ConditionChange;
  readonly events: HpaEvent[];
}

interface Proposal {
  readonly replicas: number;
  readonly metricName: string;
  readonly status: MetricStatus;
  readonly timestampMs: number;
}

/**
 * A failure carries the inner error (the condition's and the event's text, as upstream's
 * `getUnableComputeReplicaCountCondition` sees it) and the wrapped one for the aggregate.
 */
type Outcome =
  | { ok: true; proposal: Proposal }
  | { ok: false; reason: string; error: string; wrapped?: string };

type ResourceOutcome =
  | { ok: true; replicas: number; current: MetricValueStatus; timestampMs: number; name: string }
  | { ok: false; error: string };

/** Upstream `computeStatusForResourceMetricGeneric`. */
function resourceProposal(
  input: MetricsInput,
  resource: string,
  container: string,
  target: MetricTarget,
): ResourceOutcome {
  const fetch = input.metrics(resource, container);
  const calc = (metrics: PodMetricsInfo) => ({
    currentReplicas: input.specReplicas,
    pods: input.pods,
    metrics,
    resource,
    container,
    tolerances: input.tolerances,
    timing: input.timing,
  });
  const unable = (err: string) => `unable to get metrics for resource ${resource}: ${err}`;
  if (target.averageValue !== undefined) {
    const targetUsage = milliValue(target.averageValue) ?? 0;
    const r = fetch.ok
      ? plainMetricReplicas(calc(fetch.metrics), targetUsage)
      : { ok: false as const, error: unable(fetch.error) };
    if (!r.ok) return { ok: false, error: `failed to get ${resource} usage: ${r.error}` };
    return {
      ok: true,
      replicas: r.replicas,
      current: { averageValue: milliQuantity(r.usage) },
      timestampMs: fetch.ok ? fetch.timestampMs : 0,
      name: `${resource} resource`,
    };
  }
  if (target.averageUtilization === undefined) {
    return {
      ok: false,
      error:
        'invalid resource metric source: neither an average utilization target nor an average value (usage) target was set',
    };
  }
  const r = fetch.ok
    ? resourceReplicas(calc(fetch.metrics), target.averageUtilization)
    : { ok: false as const, error: unable(fetch.error) };
  if (!r.ok) return { ok: false, error: `failed to get ${resource} utilization: ${r.error}` };
  const what = container === '' ? 'resource' : 'container resource';
  return {
    ok: true,
    replicas: r.replicas,
    current: { averageUtilization: r.utilization, averageValue: milliQuantity(r.rawUtilization) },
    timestampMs: fetch.ok ? fetch.timestampMs : 0,
    name: `${resource} ${what} utilization (percentage of request)`,
  };
}

/** Upstream `computeReplicasForMetric` for one spec. */
function proposalFor(input: MetricsInput, spec: MetricSpec): Outcome {
  switch (spec.type) {
    case 'Resource': {
      const res = spec.resource;
      if (res === undefined) return specMissing('FailedGetResourceMetric', 'resource');
      const r = resourceProposal(input, res.name, '', res.target);
      if (!r.ok) {
        return {
          ok: false,
          reason: 'FailedGetResourceMetric',
          error: r.error,
          wrapped: `failed to get ${res.name} resource metric value: ${r.error}`,
        };
      }
      const status = { type: 'Resource', resource: { name: res.name, current: r.current } };
      return {
        ok: true,
        proposal: { replicas: r.replicas, metricName: r.name, status, timestampMs: r.timestampMs },
      };
    }
    case 'ContainerResource': {
      const res = spec.containerResource;
      if (res === undefined)
        return specMissing('FailedGetContainerResourceMetric', 'containerResource');
      const r = resourceProposal(input, res.name, res.container, res.target);
      if (!r.ok) {
        return {
          ok: false,
          reason: 'FailedGetContainerResourceMetric',
          error: r.error,
          wrapped: `failed to get ${res.container} container metric value: ${r.error}`,
        };
      }
      const status = {
        type: 'ContainerResource',
        containerResource: { name: res.name, container: res.container, current: r.current },
      };
      return {
        ok: true,
        proposal: { replicas: r.replicas, metricName: r.name, status, timestampMs: r.timestampMs },
      };
    }
    case 'Pods':
      return customMetricsMissing('FailedGetPodsMetric', 'pods', spec.pods?.metric.name ?? '');
    case 'Object':
      return customMetricsMissing(
        'FailedGetObjectMetric',
        'object',
        spec.object?.metric.name ?? '',
      );
    case 'External':
      return externalMetricsMissing(spec.external?.metric.name ?? '');
    default: {
      const error = `unknown metric source type ${JSON.stringify(spec.type)}`;
      return { ok: false, reason: 'InvalidMetricSourceType', error };
    }
  }
}

function specMissing(reason: string, field: string): Outcome {
  return { ok: false, reason, error: `invalid metric spec: ${field} is not set` };
}

const NOT_SERVED = 'the server could not find the requested resource';

function customMetricsMissing(reason: string, kind: 'pods' | 'object', name: string): Outcome {
  const error = `unable to get metric ${name}: unable to fetch metrics from custom metrics API: ${NOT_SERVED}`;
  return { ok: false, reason, error, wrapped: `failed to get ${kind} metric value: ${error}` };
}

function externalMetricsMissing(name: string): Outcome {
  const error = `unable to fetch metrics from external metrics API: ${NOT_SERVED}`;
  return {
    ok: false,
    reason: 'FailedGetExternalMetric',
    error,
    wrapped: `failed to get external metric ${name}: ${error}`,
  };
}

/**
 * Upstream `computeReplicasForMetrics`: the largest proposal; when every metric failed, or some
 * failed and the rest would scale down, the HPA does not act (-1) and `ScalingActive` takes the
 * first failure's reason. Each failure records a Warning event with its reason.
 */
export function computeReplicasForMetrics(input: MetricsInput): MetricsResult {
  const statuses: MetricStatus[] = [];
  const events: HpaEvent[] = [];
  let replicas = 0;
  let metricName = '';
  let timestampMs = 0;
  let invalid = 0;
  let firstError: string | undefined;
  let firstCondition: ConditionChange | undefined;
  for (const spec of input.specs) {
    const out = proposalFor(input, spec);
    if (!out.ok) {
      statuses.push({ type: '' });
      events.push({ type: 'Warning', reason: out.reason, message: out.error });
      if (invalid === 0) {
        firstCondition = unableToCompute(out.reason, out.error);
        firstError = out.wrapped ?? out.error;
      }
      invalid++;
      continue;
    }
    statuses.push(out.proposal.status);
    if (replicas === 0 || out.proposal.replicas > replicas) {
      replicas = out.proposal.replicas;
      metricName = out.proposal.metricName;
      timestampMs = out.proposal.timestampMs;
    }
  }
  const error =
    firstError === undefined
      ? undefined
      : `invalid metrics (${invalid} invalid out of ${input.specs.length}), first error is: ${firstError}`;
  if (
    firstCondition !== undefined &&
    (invalid >= input.specs.length || replicas < input.specReplicas)
  ) {
    return {
      replicas: -1,
      metricName: '',
      statuses,
      timestampMs: 0,
      condition: firstCondition,
      events,
      ...(error ? { error } : {}),
    };
  }
  const condition: ConditionChange = {
    type: 'ScalingActive',
    status: 'True',
    reason: 'ValidMetricFound',
    message: `the HPA was able to successfully calculate a replica count from ${metricName}`,
  };
  return {
    replicas,
    metricName,
    statuses,
    timestampMs,
    condition,
    events,
    ...(error ? { error } : {}),
  };
}
