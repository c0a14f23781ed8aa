/**
 * Every object a fleet owns, in the order docs/design/operator.md §2.5 creates them: the ServiceAccount (when the
 * operator provides it), the Services, the NetworkPolicy, the PodDisruptionBudget, then the
 * workload last, so no member starts before its DNS, isolation and disruption budget exist.
 *
 * @module
 */

import type { KubeObject } from '../../api/object.js';
import type { FleetSpecView, RenderOptions } from './fleet-view.js';
import { DEFAULT_RENDER_OPTIONS } from './fleet-view.js';
import { renderNetworkPolicy } from './network-policy.js';
import {
  renderPodDisruptionBudget,
  renderServiceAccount,
  renderServices,
} from './prerequisites.js';
import { renderWorkload } from './workloads.js';

/** The prerequisites and the workload, in reconcile order. */
export function renderChildren(
  fleet: FleetSpecView,
  options: RenderOptions = DEFAULT_RENDER_OPTIONS,
): KubeObject[] {
  const account = renderServiceAccount(fleet);
  return [
    ...(account ? [account] : []),
    ...renderServices(fleet),
    renderNetworkPolicy(fleet, options),
    renderPodDisruptionBudget(fleet),
    renderWorkload(fleet),
  ];
}
