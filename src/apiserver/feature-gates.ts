/**
 * Feature gates of the API server (kube-apiserver's `--feature-gates`), limited to the gates
 * fleetyard implements. Defaults are upstream's for the Kubernetes version the server reports
 * (1.33, `KUBERNETES_MINOR` in `handlers/version.ts`): MaxUnavailableStatefulSet is alpha
 * there (off); StatefulSetRecreateStrategy does not exist yet upstream (alpha later, KEP-3541)
 * and is off here too.
 *
 * The StatefulSet kind is the only one they change; {@link gateResources} swaps in its
 * definition built for the gates (the drop of disabled fields and the Recreate check live in
 * the kind's strategy, before validation, as upstream's `PrepareForCreate/Update`), so the
 * object store and the admission chain need no knowledge of gates.
 *
 * @module
 */
import { errorMessage } from '../api/error-message.js';
import {
  createStatefulSetResource,
  type StatefulSetFeatures,
} from '../api/kinds/apps-statefulset.js';
import type { ResourceDefinition } from '../api/resource.js';

export type { StatefulSetFeatures } from '../api/kinds/apps-statefulset.js';

/** The names of the gates fleetyard knows. */
export const FEATURE_GATE_NAMES = [
  'MaxUnavailableStatefulSet',
  'StatefulSetRecreateStrategy',
] as const;
export type FeatureGateName = (typeof FEATURE_GATE_NAMES)[number];

/** Every known gate with its value. */
export type FeatureGates = Readonly<Record<FeatureGateName, boolean>>;

/** Upstream's defaults for 1.33. */
export const DEFAULT_FEATURE_GATES: FeatureGates = {
  MaxUnavailableStatefulSet: false,
  StatefulSetRecreateStrategy: false,
};

function isGateName(name: string): name is FeatureGateName {
  return FEATURE_GATE_NAMES.some((gate) => gate === name);
}

/** Go's `strconv.ParseBool`: the spellings it accepts, and its error text otherwise. */
function parseBool(value: string): boolean {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  throw new Error(`strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
}

/**
 * Parses `Name=true,Other=false` over the defaults. Throws with upstream's texts: a pair
 * without `=` (`malformed pair, expect string=bool`), a bad value (`invalid value of X=v,
 * err: …`) and an unknown name (`unrecognized feature gate: X`). Empty items are skipped, so
 * `""` gives the defaults.
 */
export function parseFeatureGates(value: string): FeatureGates {
  // Like upstream, every pair is parsed before any name is looked up.
  const pairs: Array<[string, boolean]> = [];
  for (const item of value.split(',')) {
    if (item.trim() === '') continue;
    const eq = item.indexOf('=');
    if (eq < 0) throw new Error('malformed pair, expect string=bool');
    const name = item.slice(0, eq).trim();
    const raw = item.slice(eq + 1).trim();
    try {
      pairs.push([name, parseBool(raw)]);
    } catch (e) {
      throw new Error(`invalid value of ${name}=${raw}, err: ${errorMessage(e)}`);
    }
  }
  const gates: Record<FeatureGateName, boolean> = { ...DEFAULT_FEATURE_GATES };
  for (const [name, enabled] of pairs) {
    if (!isGateName(name)) throw new Error(`unrecognized feature gate: ${name}`);
    gates[name] = enabled;
  }
  return gates;
}

/** The gates as the StatefulSet kind and controller read them. */
export function statefulSetFeatures(
  gates: FeatureGates = DEFAULT_FEATURE_GATES,
): StatefulSetFeatures {
  return {
    maxUnavailableStatefulSet: gates.MaxUnavailableStatefulSet,
    statefulSetRecreateStrategy: gates.StatefulSetRecreateStrategy,
  };
}

/** The name `src/cli/main.ts` uses for {@link statefulSetFeatures}. */
export const statefulSetGates = statefulSetFeatures;

/**
 * The resources with the gate-dependent kinds rebuilt for `gates` (today: apps/StatefulSet).
 * Others pass through unchanged; with the defaults the list is returned as is.
 */
export function gateResources(
  resources: readonly ResourceDefinition[],
  gates: FeatureGates = DEFAULT_FEATURE_GATES,
): readonly ResourceDefinition[] {
  if (FEATURE_GATE_NAMES.every((n) => gates[n] === DEFAULT_FEATURE_GATES[n])) return resources;
  const statefulSet = createStatefulSetResource(statefulSetFeatures(gates));
  return resources.map((def) =>
    def.group === 'apps' && def.kind === 'StatefulSet' && def.customResource === undefined
      ? statefulSet
      : def,
  );
}
