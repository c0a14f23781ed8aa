/**
 * A whole simulated cluster on ONE {@link FakeClock} for the operator's timed rules (docs/design/operator.md §6): the
 * test API server (which stamps creationTimestamp and deletionTimestamp with that clock),
 * simulated nodes, the scheduler with volume binding, simulated storage, PV/PVC protection,
 * the StatefulSet controller, GC, node lifecycle with taint eviction and PodGC, and the celld
 * operator without leader election. Nothing in the stack sleeps on wall time; only HTTP takes
 * real time, so the test moves fake time itself with {@link FleetCluster.drive}.
 *
 * How time is driven (the speed choice): fake time advances in steps of {@link STEP_MS}
 * (1 s); after each step the driver waits until the store's revision has not moved for
 * {@link QUIET_MS} (8 ms) of real time, i.e. until every write the step's timers caused, and
 * the writes those writes' watch events caused, have landed. Watch streams flush every 5 ms
 * (`FLUSH_INTERVAL_MS`), so 8 ms of silence means no event is still on its way. A 1 s step
 * keeps every lag far below the node heartbeat margins (10 s renew, 40 s lease, 50 s grace),
 * so healthy nodes never flap, while 20 min of fake time costs 1,200 steps at ~13 ms each
 * (measured: 300 s of fake time took 3.9 s of wall time). The clock fires a due timer at its
 * exact time, so a "not before" check is made one step (1 s) before a due time, and an
 * "after" check allows a few steps for the reconcile and its writes.
 *
 * Limits: a controller whose chain of work has a real-time gap above 8 ms with no write
 * (a slow read-only reconcile under load) can be outrun by one step; "after" checks allow
 * 10 s for that reason. Only a store write counts as activity, so the driver cannot tell a
 * quiet cluster from one whose next write is more than 8 ms away (bounded by 500 ms a step). PersistentVolume phase transition times
 * are stamped by the test server's built-in resources on the real clock (not settable from
 * the harness); no rule here reads them.
 *
 * @module
 */
import type { KubeObject } from '../../../api/object.js';
import { parseTime } from '../../../api/time.js';
import { installCrds } from '../../../client/install-crds.js';
import { RESOURCES } from '../../../controller/context.js';
import { type Harness, startHarness } from '../../../controller/testing/harness.js';
import { garbageCollectorController } from '../../../controllers/garbage-collector/index.js';
import {
  nodeLifecycleController,
  podGarbageCollector,
  taintEvictionController,
} from '../../../controllers/node-lifecycle/index.js';
import { statefulSetController } from '../../../controllers/statefulset/index.js';
import {
  pvcProtectionController,
  pvProtectionController,
} from '../../../controllers/volume-protection/index.js';
import { createSchedulerController } from '../../../scheduler/index.js';
import { simulatedNodes } from '../../../sim/kubelet/index.js';
import { simulatedStorage, simulatedVolumeBinding } from '../../../sim/storage/index.js';
import { FakeClock, realClock } from '../../../util/clock.js';
import { celldCrds } from '../../api/crds.js';
import type { CelldFleetStatus, FleetMemberStatus } from '../../api/types.js';
import { celldOperator } from '../fleet-controller.js';
import { FLEETS, SERVICE_ACCOUNTS } from '../resources.js';

/** Fake time per step: far below the 10 s lease renew, so heartbeats never lag a grace period. */
export const STEP_MS = 1_000;
/** Real time with no store write that counts as "the cluster has settled" (> the 5 ms watch flush). */
export const QUIET_MS = 8;
/** Upper bound of one settle in real time: a busy step is let go after this, not waited for forever. */
const MAX_SETTLE_MS = 500;
/** Where every cluster's clock starts: fixed, so timestamps and messages are reproducible. */
export const CLOCK_START = Date.UTC(2026, 0, 1);

export const NAMESPACE = 'default';
export const FLEET = 'orders';
const ACCOUNT = 'orders-celld';
const IMAGE = `ghcr.io/ewhauser/celld@sha256:${'4f2c1a9e8b7d6c5f'.repeat(4)}`;

export interface ClusterOptions {
  /** Simulated nodes, over {@link ClusterOptions.zones} round-robin. @default 3 */
  readonly nodes?: number;
  /** Zone suffixes of the nodes (`a` → `local-a`); the fleet is placed over all of them. @default ['a', 'b', 'c'] */
  readonly zones?: readonly string[];
  /** The operator's `--member-replacement-delay`. @default the operator's (10 min) */
  readonly memberReplacementDelayMs?: number;
}

export interface FleetSpecOptions {
  readonly replicas: number;
  /** `standard` (hostpath, node-local disks) or `ebs` (zonal disks). */
  readonly storageClassName: 'standard' | 'ebs';
}

type Condition = { type?: string; status?: string; reason?: string; lastTransitionTime?: string };

export interface FleetCluster {
  readonly h: Harness;
  readonly clock: FakeClock;
  /** Advances fake time by `ms` in {@link STEP_MS} steps, settling after each. */
  drive(ms: number): Promise<void>;
  /** Steps until `probe` holds; throws when `withinMs` of fake time pass first. */
  driveUntil<T>(
    what: string,
    probe: () => Promise<T | undefined | false>,
    withinMs: number,
  ): Promise<T>;
  createFleet(spec: FleetSpecOptions): Promise<void>;
  fleet(): Promise<KubeObject>;
  status(): Promise<CelldFleetStatus>;
  member(ordinal: number): Promise<FleetMemberStatus | undefined>;
  pod(ordinal: number): Promise<KubeObject | undefined>;
  claim(ordinal: number): Promise<KubeObject | undefined>;
  /** Sets the simulated kubelet's `sim.fleetyard.dev/ready` on a member pod. */
  setPodReady(ordinal: number, ready: boolean): Promise<void>;
  /** `sim.fleetyard.dev/state` on a node: `down` silences its kubelet. */
  setNodeState(node: string, state: 'down' | 'up'): Promise<void>;
  setReplicas(replicas: number): Promise<void>;
  /** Events the operator recorded with this reason, in order. */
  events(reason: string): { type: string; message: string }[];
  close(): Promise<void>;
}

export function podName(ordinal: number): string {
  return `${FLEET}-${ordinal}`;
}

export function claimName(ordinal: number): string {
  return `data-${FLEET}-${ordinal}`;
}

export function condition(obj: KubeObject | undefined, type: string): Condition | undefined {
  const list = (obj?.status as { conditions?: Condition[] } | undefined)?.conditions ?? [];
  return list.find((c) => c.type === type);
}

export function isPodReady(pod: KubeObject | undefined): boolean {
  return condition(pod, 'Ready')?.status === 'True' && !pod?.metadata?.deletionTimestamp;
}

export function nodeOf(pod: KubeObject | undefined): string | undefined {
  return (pod?.spec as { nodeName?: string } | undefined)?.nodeName || undefined;
}

/** A time field as epoch ms; throws when absent, so a missing stamp fails loudly. */
export function msOf(text: string | null | undefined): number {
  const t = parseTime(text ?? undefined);
  if (t === undefined) throw new Error(`not a time: ${String(text)}`);
  return t;
}

function controllers(options: ClusterOptions) {
  return [
    simulatedNodes({ count: options.nodes ?? 3, zones: zonesOf(options) }),
    createSchedulerController({ volumeBinding: simulatedVolumeBinding }),
    ...simulatedStorage({ defaultClass: 'standard' }),
    pvcProtectionController(),
    pvProtectionController(),
    statefulSetController({}),
    garbageCollectorController,
    nodeLifecycleController({}),
    taintEvictionController(),
    podGarbageCollector(),
    celldOperator({
      networkPolicyEnforced: true,
      localTest: true,
      ...(options.memberReplacementDelayMs === undefined
        ? {}
        : { memberReplacementDelayMs: options.memberReplacementDelayMs }),
    }),
  ];
}

function zonesOf(options: ClusterOptions): readonly string[] {
  return options.zones ?? ['a', 'b', 'c'];
}

function fleetObject(spec: FleetSpecOptions, zones: readonly string[]): KubeObject {
  return {
    apiVersion: 'celld.fleetyard.dev/v1alpha1',
    kind: 'CelldFleet',
    metadata: { name: FLEET, namespace: NAMESPACE },
    spec: {
      profile: 'PersistentFleet',
      replicas: spec.replicas,
      runtimeImage: IMAGE,
      serviceAccountName: ACCOUNT,
      storage: {
        bucket: 'orders-celld-data',
        region: 'us-east-1',
        storageClassName: spec.storageClassName,
        sizeGiB: 10,
      },
      placement: { zones: zones.map((z) => `local-${z}`), mode: 'Strict' },
    },
  };
}

export async function startFleetCluster(options: ClusterOptions = {}): Promise<FleetCluster> {
  const clock = new FakeClock(CLOCK_START);
  const h = await startHarness({ clock });
  // Established is awaited in real time: the CRD controller does not run on the fake clock.
  await installCrds(h.client, celldCrds() as KubeObject[], realClock);
  h.run(...controllers(options));
  const fleets = { ...FLEETS, namespace: NAMESPACE };
  const pods = { ...RESOURCES.pods, namespace: NAMESPACE };
  const claims = { ...RESOURCES.persistentvolumeclaims, namespace: NAMESPACE };

  const settle = async (): Promise<void> => {
    const deadline = performance.now() + MAX_SETTLE_MS;
    let last = h.api.backend.currentRevision();
    for (;;) {
      await new Promise((r) => setTimeout(r, QUIET_MS));
      const now = h.api.backend.currentRevision();
      if (now === last || performance.now() > deadline) return;
      last = now;
    }
  };
  const drive = async (ms: number): Promise<void> => {
    for (let left = ms; left > 0; left -= STEP_MS) {
      await clock.step(Math.min(STEP_MS, left));
      await settle();
    }
  };
  const driveUntil = async <T>(
    what: string,
    probe: () => Promise<T | undefined | false>,
    withinMs: number,
  ): Promise<T> => {
    const start = clock.now();
    for (;;) {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
      if (clock.now() - start >= withinMs) {
        throw new Error(`${what}: not reached within ${withinMs / 1000} s of fake time`);
      }
      await drive(STEP_MS);
    }
  };
  const fleet = async () => h.client.get({ ...fleets, name: FLEET });
  const status = async () => ((await fleet()).status ?? {}) as CelldFleetStatus;
  await settle();
  return {
    h,
    clock,
    drive,
    driveUntil,
    createFleet: async (spec) => {
      await h.client.create(
        { ...SERVICE_ACCOUNTS, namespace: NAMESPACE },
        {
          apiVersion: 'v1',
          kind: 'ServiceAccount',
          metadata: { name: ACCOUNT, namespace: NAMESPACE },
        },
      );
      await h.client.create(fleets, fleetObject(spec, zonesOf(options)));
    },
    fleet,
    status,
    member: async (ordinal) => (await status()).members?.find((m) => m.ordinal === ordinal),
    pod: (ordinal) => h.get({ ...pods, name: podName(ordinal) }),
    claim: (ordinal) => h.get({ ...claims, name: claimName(ordinal) }),
    setPodReady: async (ordinal, ready) => {
      await h.client.patch(
        { ...pods, name: podName(ordinal) },
        { metadata: { annotations: { 'sim.fleetyard.dev/ready': ready ? 'true' : 'false' } } },
        'merge',
      );
    },
    setNodeState: async (node, state) => {
      await h.client.patch(
        { ...RESOURCES.nodes, name: node },
        { metadata: { annotations: { 'sim.fleetyard.dev/state': state } } },
        'merge',
      );
    },
    setReplicas: async (replicas) => {
      await h.client.patch({ ...fleets, name: FLEET }, { spec: { replicas } }, 'merge');
    },
    events: (reason) =>
      h.events.events
        .filter((e) => e.reason === reason)
        .map((e) => ({ type: e.type, message: e.message })),
    close: () => h.close(),
  };
}

/** Drives until the fleet reports `state: Ready` with every member's pod Ready. */
export async function untilFleetReady(c: FleetCluster, withinMs = 180_000): Promise<void> {
  await c.driveUntil(
    'fleet Ready',
    async () => {
      const s = await c.status();
      return (
        s.state === 'Ready' && condition({ status: s } as KubeObject, 'Ready')?.status === 'True'
      );
    },
    withinMs,
  );
}
