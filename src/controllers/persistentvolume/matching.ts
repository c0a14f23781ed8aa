/**
 * Choosing a PersistentVolume for a claim, after upstream `FindMatchingVolume`
 * (`component-helpers/storage/volume/pv_helpers.go`, shared by the PV controller and the
 * scheduler's VolumeBinding plugin) and the controller's `findBestMatchForClaim` (`index.go`).
 *
 * Rules, in upstream order:
 * 1. excluded volumes (the scheduler's picks for the pod's other claims) are skipped;
 * 2. a volume whose claimRef names another claim is skipped;
 * 3. capacity below the request, a different `volumeMode`, or a deletionTimestamp: skipped;
 * 4. a volume pre-bound to this claim (claimRef name/namespace, uid if set) wins at once, unless
 *    the node is given and excludes it, in which case there is no match at all;
 * 5. the controller with delayed binding (WaitForFirstConsumer) stops there: only pre-bound
 *    volumes; the scheduler binds the rest once a node is chosen;
 * 6. otherwise a candidate must be `Available`, match the claim's selector, have the same
 *    class (`""` matches only `""`), satisfy the node's labels, and (scheduler path) offer
 *    every requested access mode; the smallest wins, the first on a tie.
 *
 * The controller path narrows access modes by grouping volumes by their mode set and searching
 * the groups with the fewest modes first, so an RWO claim prefers an RWO volume over a larger
 * set even when that one is smaller. Upstream's list order is its cache's; here volumes are
 * ordered by name, and groups with as many modes by their canonical key, so ties are stable.
 *
 * @module
 */
import { labelSelectorFromObject } from '../../api/labels/selector.js';
import type { Node, PersistentVolume, PersistentVolumeClaim } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { nodeLabels, volumeNodeAffinityMatches } from './node-affinity.js';
import {
  accessModes,
  accessModesSatisfy,
  capacityBytes,
  claimClassName,
  claimRefOf,
  isVolumeBoundToClaim,
  nameOf,
  phaseOf,
  requestedBytes,
  volumeClassName,
  volumeModeMismatch,
} from './volume-util.js';

export interface MatchOptions {
  /** The controller path with a WaitForFirstConsumer class: only pre-bound volumes match. */
  readonly delayBinding?: boolean;
  /** Volume names already chosen for the pod's other claims (scheduler path). */
  readonly excluded?: ReadonlySet<string>;
}

type Selector = { matches(labels: Record<string, string>): boolean };

function claimSelector(claim: PersistentVolumeClaim): Selector | null | undefined {
  const raw = claim.spec?.selector;
  if (raw === undefined || raw === null) return null;
  try {
    return labelSelectorFromObject(raw);
  } catch {
    // Validation rejects invalid selectors; upstream returns an error (no match) here.
    return undefined;
  }
}

function byName(a: KubeObject, b: KubeObject): number {
  return nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0;
}

/** Rules 1–3: volumes that can never serve this claim. */
function ruledOut(
  claim: PersistentVolumeClaim,
  pv: PersistentVolume,
  excluded?: ReadonlySet<string>,
): boolean {
  if (excluded?.has(nameOf(pv)) === true) return true;
  if (claimRefOf(pv) !== undefined && !isVolumeBoundToClaim(pv, claim)) return true;
  if (capacityBytes(pv) < requestedBytes(claim)) return true;
  if (volumeModeMismatch(claim, pv)) return true;
  return pv.metadata?.deletionTimestamp !== undefined && pv.metadata.deletionTimestamp !== null;
}

/**
 * The best volume for the claim among `volumes`, or undefined. With `node`, the scheduler's
 * path: node affinity and access modes are checked.
 */
export function findMatchingVolume(
  claim: PersistentVolumeClaim,
  volumes: readonly PersistentVolume[],
  node?: Node,
  options: MatchOptions = {},
): PersistentVolume | undefined {
  const selector = claimSelector(claim);
  if (selector === undefined) return undefined;
  const className = claimClassName(claim);
  const labels = node === undefined ? undefined : nodeLabels(node);
  let best: PersistentVolume | undefined;
  for (const pv of [...volumes].sort(byName)) {
    if (ruledOut(claim, pv, options.excluded)) continue;
    const affinityOk = labels === undefined || volumeNodeAffinityMatches(pv, labels);
    if (isVolumeBoundToClaim(pv, claim)) return affinityOk ? pv : undefined;
    if (node === undefined && options.delayBinding === true) continue;
    if (!affinityOk || !candidate(claim, pv, selector, className, node !== undefined)) continue;
    if (best === undefined || capacityBytes(pv) < capacityBytes(best)) best = pv;
  }
  return best;
}

/** Rule 6 without node affinity: phase, selector, class and (scheduler path) access modes. */
function candidate(
  claim: PersistentVolumeClaim,
  pv: PersistentVolume,
  selector: Selector | null,
  className: string,
  schedulerPath: boolean,
): boolean {
  if (phaseOf(pv) !== 'Available') return false;
  if (selector !== null && !selector.matches(pv.metadata?.labels ?? {})) return false;
  if (volumeClassName(pv) !== className) return false;
  return !schedulerPath || accessModesSatisfy(claim, pv);
}

const MODE_ORDER = ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'];

/** Upstream `GetAccessModesAsString`: a canonical, de-duplicated key of a mode set. */
export function accessModesKey(modes: readonly string[]): string {
  const set = new Set(modes);
  return MODE_ORDER.filter((m) => set.has(m)).join(',');
}

/**
 * The PV controller's search (`findBestMatchForClaim`): volume groups by access-mode set that
 * contain every requested mode, fewest modes first, each searched with `findMatchingVolume`.
 */
export function findBestMatchForClaim(
  claim: PersistentVolumeClaim,
  volumes: readonly PersistentVolume[],
  delayBinding: boolean,
): PersistentVolume | undefined {
  const wanted = accessModes(claim);
  const groups = new Map<string, PersistentVolume[]>();
  for (const pv of volumes) {
    const key = accessModesKey(accessModes(pv));
    const offered = new Set(key.split(','));
    if (!wanted.every((m) => offered.has(m))) continue;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [pv]);
    else group.push(pv);
  }
  const keys = [...groups.keys()].sort(
    (a, b) => a.split(',').length - b.split(',').length || (a < b ? -1 : a > b ? 1 : 0),
  );
  for (const key of keys) {
    const found = findMatchingVolume(claim, groups.get(key) ?? [], undefined, { delayBinding });
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Upstream `checkVolumeSatisfyClaim`, for a claim that names its volume: the reason the volume
 * cannot serve the claim, or undefined.
 */
export function volumeSatisfiesClaim(
  pv: PersistentVolume,
  claim: PersistentVolumeClaim,
): string | undefined {
  if (pv.metadata?.deletionTimestamp !== undefined && pv.metadata.deletionTimestamp !== null) {
    return `the volume is marked for deletion "${nameOf(pv)}"`;
  }
  if (capacityBytes(pv) < requestedBytes(claim)) return 'requested PV is too small';
  if (volumeClassName(pv) !== claimClassName(claim)) return 'storageClassName does not match';
  if (volumeModeMismatch(claim, pv)) return 'incompatible volumeMode';
  if (!accessModesSatisfy(claim, pv)) return 'incompatible accessMode';
  return undefined;
}
