/**
 * Upstream `validateAndParseSelector`: the target's scale must carry a selector that parses, and
 * the pods it selects must be autoscaled by this HPA only. Other HPAs are known by the selector
 * their last sync used (upstream's `hpaSelectors` bimultimap; one never synced selects nothing).
 *
 * @module
 */
import { type LabelSelector, parseLabelSelector } from '../../api/labels/selector.js';
import type { AutoscalingV2HorizontalPodAutoscaler as Hpa, Pod } from '../../api/model/index.js';
import type { ConditionChange } from './conditions.js';

export interface SelectorCheck {
  readonly hpa: Hpa;
  /** The scale's `status.selector`. */
  readonly selector: string;
  /** The pods of the HPA's namespace. */
  readonly pods: readonly Pod[];
  /** Other HPAs of the namespace (`namespace/name`) and their last selectors. */
  readonly others: readonly { readonly key: string; readonly selector: LabelSelector }[];
}

export type SelectorResult =
  | { ok: true; selector: LabelSelector; pods: Pod[] }
  | { ok: false; reason: string; error: string; condition: ConditionChange };

function invalid(reason: string, error: string, message = error): SelectorResult {
  return {
    ok: false,
    reason,
    error,
    condition: { type: 'ScalingActive', status: 'False', reason: 'InvalidSelector', message },
  };
}

export function validateSelector(check: SelectorCheck): SelectorResult {
  if (check.selector === '') {
    return invalid(
      'SelectorRequired',
      'selector is required',
      "the HPA target's scale is missing a selector",
    );
  }
  let selector: LabelSelector;
  try {
    selector = parseLabelSelector(check.selector);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return invalid(
      'InvalidSelector',
      `couldn't convert selector into a corresponding internal selector object: ${reason}`,
    );
  }
  const pods = check.pods.filter((p) => selector.matches(p.metadata?.labels));
  const self = `${check.hpa.metadata?.namespace ?? ''}/${check.hpa.metadata?.name ?? ''}`;
  const controlling = check.others
    .filter((o) => o.key !== self && pods.some((p) => o.selector.matches(p.metadata?.labels)))
    .map((o) => o.key);
  if (controlling.length > 0) {
    const keys = [self, ...controlling].sort().join(' ');
    const error = `pods by selector ${check.selector} are controlled by multiple HPAs: [${keys}]`;
    return {
      ok: false,
      reason: 'AmbiguousSelector',
      error,
      condition: {
        type: 'ScalingActive',
        status: 'False',
        reason: 'AmbiguousSelector',
        message: error,
      },
    };
  }
  return { ok: true, selector, pods };
}
