/**
 * A simulated CSI provisioner: external-provisioner (sig-storage-lib-external-provisioner's
 * `ProvisionController`) in front of a modelled driver (`provisioning.ts`). One runs per
 * driver: `csi-provisioner-hostpath` and `csi-provisioner-ebs`.
 *
 * - Claims: one whose `volume.kubernetes.io/storage-provisioner` names this driver, with no
 *   volume yet and (WaitForFirstConsumer) a `volume.kubernetes.io/selected-node`, gets a PV
 *   `pvc-<uid>` pre-bound to it, with node affinity to the selected node's zone (ebs) or node
 *   (hostpath); Immediate claims pick a domain from the class's allowedTopologies or the
 *   nodes. Events `Provisioning`, then `ProvisioningSucceeded` or `ProvisioningFailed`
 *   (Warning), in external-provisioner's words. A failure is retried with backoff; under
 *   WaitForFirstConsumer it also removes the selected-node annotation, so the scheduler picks
 *   again (external-provisioner's `ProvisioningReschedule`).
 * - Faults and capacity come from the `kube-system/fleetyard-storage` ConfigMap
 *   (`storage-faults.ts`); used capacity is the sum of this driver's PVs per domain, counted
 *   until their backing volume is deleted.
 * - Volumes: a Released PV this driver provisioned with reclaim policy Delete loses its
 *   backing volume, then the PV object is deleted and
 *   `external-provisioner.volume.kubernetes.io/finalizer` removed (the lib's
 *   `deleteVolumeOperation` order). A failing domain fails the delete (`VolumeFailedDelete`).
 *
 * Events name the source `<driver>_<host>_<uuid>`, as the lib does.
 *
 * @module
 */
import { hostname } from 'node:os';
import { asKind, type PersistentVolume } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { isAlreadyExists, isNotFound } from '../../client/api-client.js';
import { deletedObject, type SharedInformer } from '../../client/shared-informer.js';
import { objectKey, splitKey } from '../../client/store.js';
import {
  type ControllerContext,
  type ControllerDefinition,
  RESOURCES,
} from '../../controller/context.js';
import { type ReconcileResult, runController } from '../../controller/controller.js';
import type { EventRecorder } from '../../controller/events.js';
import { WorkQueue } from '../../controller/workqueue.js';
import { recordEvents } from '../../controllers/persistentvolume/apply-writes.js';
import {
  ANN_DYNAMICALLY_PROVISIONED,
  ANN_SELECTED_NODE,
  ANN_STORAGE_PROVISIONER,
  annotation,
  capacityBytes,
  claimClassName,
  EVENT_REASONS,
  FINALIZER_EXTERNAL_PROVISIONER,
  nameOf,
  type PlannedEvent,
  phaseOf,
  STORAGE_CLASSES,
} from '../../controllers/persistentvolume/volume-util.js';
import { uuidFrom } from '../../util/seeded-random.js';
import { type DriverModel, provision, shouldProvision } from './provisioning.js';
import {
  parseStorageFaults,
  STORAGE_FAULTS_NAME,
  STORAGE_FAULTS_NAMESPACE,
  type StorageFaults,
} from './storage-faults.js';

export interface CsiProvisionerOptions {
  readonly driver: DriverModel;
  /** The host part of the event source. @default os.hostname() */
  readonly hostname?: string;
}

/** `csi-provisioner-ebs` for `ebs.csi.aws.com`, `csi-provisioner-hostpath` for hostpath. */
export function csiProvisionerName(driver: DriverModel): string {
  return `csi-provisioner-${driver.name.split('.')[0] ?? driver.name}`;
}

type Informer = SharedInformer<KubeObject>;

interface State {
  readonly ctx: ControllerContext;
  readonly driver: DriverModel;
  readonly claims: Informer;
  readonly volumes: Informer;
  readonly classes: Informer;
  readonly nodes: Informer;
  readonly configMaps: Informer;
  readonly recorder: EventRecorder;
  readonly claimQueue: WorkQueue<string>;
  readonly volumeQueue: WorkQueue<string>;
  /** PVs created but maybe not cached yet: name → domain and bytes (capacity accounting). */
  readonly created: Map<string, { domain: string; bytes: bigint }>;
}

/** The provisioner of one driver, for the controller manager. */
export function csiProvisionerController(options: CsiProvisionerOptions): ControllerDefinition {
  return { name: csiProvisionerName(options.driver), start: (ctx) => run(ctx, options) };
}

async function run(ctx: ControllerContext, options: CsiProvisionerOptions): Promise<void> {
  const { driver } = options;
  const queue = (name: string) =>
    new WorkQueue<string>({ clock: ctx.clock, name, metrics: ctx.metrics.queue });
  const component = `${driver.name}_${options.hostname ?? hostname()}_${uuidFrom(ctx.random)}`;
  const state: State = {
    ctx,
    driver,
    claims: ctx.informers.informer(RESOURCES.persistentvolumeclaims),
    volumes: ctx.informers.informer(RESOURCES.persistentvolumes),
    classes: ctx.informers.informer(STORAGE_CLASSES),
    nodes: ctx.informers.informer(RESOURCES.nodes),
    configMaps: ctx.informers.informer(RESOURCES.configmaps),
    recorder: ctx.eventRecorder(component),
    claimQueue: queue(`${csiProvisionerName(driver)}-claims`),
    volumeQueue: queue(`${csiProvisionerName(driver)}-volumes`),
    created: new Map(),
  };
  registerHandlers(state);
  const informers = [state.claims, state.volumes, state.classes, state.nodes, state.configMaps];
  if (!(await ctx.informers.waitForSync(informers, ctx.signal))) return;
  const common = {
    clock: ctx.clock,
    log: ctx.log,
    metrics: ctx.metrics.controller,
    signal: ctx.signal,
  };
  await Promise.all([
    runController({
      ...common,
      name: `${csiProvisionerName(driver)}-claims`,
      queue: state.claimQueue,
      reconcile: (key) => syncClaim(state, key),
    }),
    runController({
      ...common,
      name: `${csiProvisionerName(driver)}-volumes`,
      queue: state.volumeQueue,
      reconcile: (key) => syncVolume(state, key),
    }),
  ]);
}

function waitsForMe(state: State, claim: KubeObject): boolean {
  return (
    annotation(claim, ANN_STORAGE_PROVISIONER) === state.driver.name &&
    (asKind(claim, 'PersistentVolumeClaim').spec?.volumeName ?? '') === ''
  );
}

/** Queues every claim still waiting for this driver (faults, capacity or nodes changed). */
function enqueueWaiting(state: State): void {
  for (const c of state.claims.lister.list()) {
    if (waitsForMe(state, c)) state.claimQueue.add(objectKey(c));
  }
}

function registerHandlers(state: State): void {
  const onClaim = (c: KubeObject) => {
    if (waitsForMe(state, c)) state.claimQueue.add(objectKey(c));
  };
  state.claims.addEventHandler({ onAdd: onClaim, onUpdate: (_, cur) => onClaim(cur) });
  const onVolume = (v: KubeObject) => {
    if (annotation(v, ANN_DYNAMICALLY_PROVISIONED) === state.driver.name) {
      state.volumeQueue.add(nameOf(v));
    }
  };
  state.volumes.addEventHandler({
    onAdd: onVolume,
    onUpdate: (_, cur) => onVolume(cur),
    // Freed capacity may let a waiting claim fit.
    onDelete: (d) => {
      state.created.delete(nameOf(deletedObject(d)));
      enqueueWaiting(state);
    },
  });
  const onFaults = (cm: KubeObject) => {
    const ours =
      cm.metadata?.namespace === STORAGE_FAULTS_NAMESPACE && nameOf(cm) === STORAGE_FAULTS_NAME;
    if (ours) enqueueWaiting(state);
  };
  state.configMaps.addEventHandler({
    onAdd: onFaults,
    onUpdate: (_, cur) => onFaults(cur),
    onDelete: (d) => onFaults(deletedObject(d)),
  });
  // Node adds only: heartbeats update nodes every few seconds and change no domain.
  state.nodes.addEventHandler({ onAdd: () => enqueueWaiting(state) });
  state.classes.addEventHandler({ onAdd: () => enqueueWaiting(state) });
}

function isDeleting(obj: KubeObject): boolean {
  return obj.metadata?.deletionTimestamp !== undefined && obj.metadata.deletionTimestamp !== null;
}

/** The domain (zone or node) a PV's node affinity pins it to. */
export function volumeDomain(pv: KubeObject, topologyKey: string): string | undefined {
  const affinity = asKind(pv, 'PersistentVolume').spec?.nodeAffinity;
  for (const term of affinity?.required?.nodeSelectorTerms ?? []) {
    for (const e of term.matchExpressions ?? []) {
      if (e.key === topologyKey && e.values?.[0] !== undefined) return e.values[0];
    }
  }
  return undefined;
}

/** A PV occupies capacity until its backing volume is deleted (it lost our finalizer). */
function occupies(state: State, pv: PersistentVolume): boolean {
  const csi = pv.spec?.csi;
  if (csi?.driver !== state.driver.name) return false;
  return (
    !isDeleting(pv) || (pv.metadata?.finalizers ?? []).includes(FINALIZER_EXTERNAL_PROVISIONER)
  );
}

/** Remaining bytes per domain, or an empty map when capacity is unlimited. */
function remainingCapacity(
  state: State,
  faults: StorageFaults,
  domains: readonly string[],
): Map<string, bigint> {
  const limit = state.driver.scope === 'zone' ? faults.zoneCapacity : faults.nodeCapacity;
  const out = new Map<string, bigint>();
  if (limit === undefined) return out;
  const used = new Map<string, bigint>();
  const add = (domain: string, bytes: bigint) => used.set(domain, (used.get(domain) ?? 0n) + bytes);
  const cached = new Set<string>();
  for (const obj of state.volumes.lister.list()) {
    const pv = asKind(obj, 'PersistentVolume');
    cached.add(nameOf(pv));
    const domain = volumeDomain(pv, state.driver.topologyKey);
    if (domain !== undefined && occupies(state, pv)) add(domain, capacityBytes(pv));
  }
  for (const [name, c] of state.created) if (!cached.has(name)) add(c.domain, c.bytes);
  for (const d of new Set([...domains, ...used.keys()])) {
    const left = limit - (used.get(d) ?? 0n);
    out.set(d, left > 0n ? left : 0n);
  }
  return out;
}

/** The domains the nodes offer (zones for ebs, hostnames for hostpath), sorted. */
function nodeDomains(state: State): string[] {
  const values = state.nodes.lister
    .list()
    .map((n) => n.metadata?.labels?.[state.driver.topologyKey])
    .filter((v): v is string => typeof v === 'string' && v !== '');
  return [...new Set(values)].sort();
}

async function syncClaim(state: State, key: string): Promise<ReconcileResult> {
  const [namespace, name] = splitKey(key);
  const cachedClaim = state.claims.lister.get(namespace, name);
  if (cachedClaim === undefined || isDeleting(cachedClaim)) return {};
  const claim = asKind(cachedClaim, 'PersistentVolumeClaim');
  const cachedClass = state.classes.lister.get('', claimClassName(claim));
  const sc = cachedClass === undefined ? undefined : asKind(cachedClass, 'StorageClass');
  if (sc === undefined || sc.provisioner !== state.driver.name) return {};
  if (!shouldProvision(claim, sc, state.driver.name)) return {};
  const pvName = `pvc-${claim.metadata?.uid ?? ''}`;
  // The lib's "persistentvolume already exists": a retry after a lost answer.
  if (state.volumes.lister.get('', pvName) !== undefined || state.created.has(pvName)) return {};
  const selected = annotation(claim, ANN_SELECTED_NODE);
  const cachedNode = selected === undefined ? undefined : state.nodes.lister.get('', selected);
  const node = cachedNode === undefined ? undefined : asKind(cachedNode, 'Node');
  if (selected !== undefined && node === undefined) {
    // The lib's NotFound path: reschedule (drop the annotation) with the lister's error text.
    const message = `node "${selected}" not found`;
    return fail(state, claim, message, true, [
      { on: 'claim', type: 'Warning', reason: EVENT_REASONS.provisioningFailed, message },
    ]);
  }
  const faults = parseStorageFaults(
    state.configMaps.lister.get(STORAGE_FAULTS_NAMESPACE, STORAGE_FAULTS_NAME),
  );
  const candidates = nodeDomains(state);
  const selectedDomain = node?.metadata?.labels?.[state.driver.topologyKey];
  const domains = selectedDomain === undefined ? candidates : [...candidates, selectedDomain];
  const failing = state.driver.scope === 'zone' ? faults.failingZones : faults.failingNodes;
  const result = provision(
    claim,
    sc,
    node,
    state.driver,
    remainingCapacity(state, faults, domains),
    { failingZones: failing, candidates },
  );
  if (!result.ok) return fail(state, claim, result.message, result.reschedule, result.events);
  try {
    await state.ctx.client.create(RESOURCES.persistentvolumes, result.volume);
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
  state.created.set(pvName, { domain: result.domain, bytes: result.bytes });
  recordEvents(state.recorder, result.events, { claim });
  state.ctx.log.info({ claim: key, volume: pvName, domain: result.domain }, 'Provisioned volume');
  return {};
}

/** Records the failure, drops the selected node when asked (WFFC), and retries with backoff. */
async function fail(
  state: State,
  claim: KubeObject,
  message: string,
  reschedule: boolean,
  events: readonly PlannedEvent[],
): Promise<never> {
  recordEvents(state.recorder, events, { claim });
  if (reschedule && annotation(claim, ANN_SELECTED_NODE) !== undefined) {
    const annotations = { ...(claim.metadata?.annotations ?? {}) };
    delete annotations[ANN_SELECTED_NODE];
    await state.ctx.client.update(
      {
        ...RESOURCES.persistentvolumeclaims,
        namespace: claim.metadata?.namespace ?? '',
        name: nameOf(claim),
      },
      { ...claim, metadata: { ...claim.metadata, annotations } },
    );
  }
  throw new Error(message);
}

/** The lib's `shouldDelete`, with the finalizer (HonorPVReclaimPolicy) semantics. */
function shouldDelete(state: State, pv: PersistentVolume): boolean {
  if (annotation(pv, ANN_DYNAMICALLY_PROVISIONED) !== state.driver.name) return false;
  if (pv.spec?.persistentVolumeReclaimPolicy !== 'Delete') return false;
  if (phaseOf(pv) !== 'Released') return false;
  // Deleting without our finalizer: the backing volume is gone already.
  return (
    !isDeleting(pv) || (pv.metadata?.finalizers ?? []).includes(FINALIZER_EXTERNAL_PROVISIONER)
  );
}

async function syncVolume(state: State, name: string): Promise<ReconcileResult> {
  const cached = state.volumes.lister.get('', name);
  const pv = cached === undefined ? undefined : asKind(cached, 'PersistentVolume');
  if (pv === undefined || !shouldDelete(state, pv)) return {};
  const { ctx, driver } = state;
  const faults = parseStorageFaults(
    state.configMaps.lister.get(STORAGE_FAULTS_NAMESPACE, STORAGE_FAULTS_NAME),
  );
  const failing = driver.scope === 'zone' ? faults.failingZones : faults.failingNodes;
  const domain = volumeDomain(pv, driver.topologyKey) ?? '';
  if (failing.has(domain)) {
    const message = `rpc error: code = Internal desc = provisioner in ${domain} is unavailable`;
    state.recorder.event(
      { ...pv, apiVersion: 'v1', kind: 'PersistentVolume' },
      'Warning',
      'VolumeFailedDelete',
      message,
    );
    throw new Error(message);
  }
  // The backing volume is simulated: it is gone once the PV stops occupying capacity below.
  const ref = { ...RESOURCES.persistentvolumes, name };
  try {
    if (!isDeleting(pv))
      await ctx.client.delete(ref, { preconditions: { uid: pv.metadata?.uid ?? '' } });
    const live = await ctx.client.get(ref);
    const finalizers = (live.metadata?.finalizers ?? []).filter(
      (f) => f !== FINALIZER_EXTERNAL_PROVISIONER,
    );
    if (finalizers.length !== (live.metadata?.finalizers ?? []).length) {
      await ctx.client.update(ref, { ...live, metadata: { ...live.metadata, finalizers } });
    }
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  ctx.log.info({ volume: name, domain }, 'Deleted volume');
  return {};
}
