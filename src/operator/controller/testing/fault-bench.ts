/**
 * The cluster the operator's API-fault sweep runs in: one in-memory API server with the celld
 * CRDs Established, four simulated nodes (two in each of zones `local-a` and `local-b`, so a
 * three-member Strict fleet fits and may shrink to two), the scheduler with volume binding,
 * simulated storage (`standard`, `ebs`), PVC/PV protection, the StatefulSet, ReplicaSet and
 * Deployment controllers and the garbage collector, on a plain client of their own. Only the
 * operator writes through a recording, fault-injecting client.
 *
 * Operators are started per namespace ({@link startOperator}), each with its own informer
 * factory, work queue and abort signal: stopping one and starting another over the same server
 * is a restart from Kubernetes state only (no cache, no in-memory write record survives).
 * A test-side observer records every incarnation (uid) each claim and reservation name had,
 * so a replaced or recreated object is visible even when it came and went between polls.
 *
 * @module
 */
import { setMaxListeners } from 'node:events';
import type { KubeObject } from '../../../api/object.js';
import { ApiClient } from '../../../client/api-client.js';
import { HttpListerWatcher } from '../../../client/http-lister-watcher.js';
import { installCrds } from '../../../client/install-crds.js';
import { deletedObject } from '../../../client/shared-informer.js';
import {
  type ControllerContext,
  type ControllerDefinition,
  RESOURCES,
} from '../../../controller/context.js';
import type { ReconcileOutcome } from '../../../controller/controller.js';
import { MemoryEventRecorder } from '../../../controller/events.js';
import { createInformerFactory } from '../../../controller/informer-factory.js';
import { eventually, type Harness, startHarness } from '../../../controller/testing/harness.js';
import { deploymentController } from '../../../controllers/deployment/index.js';
import { garbageCollectorController } from '../../../controllers/garbage-collector/index.js';
import { replicaSetController } from '../../../controllers/replicaset/index.js';
import { statefulSetController } from '../../../controllers/statefulset/index.js';
import {
  pvcProtectionController,
  pvProtectionController,
} from '../../../controllers/volume-protection/index.js';
import { createSchedulerController } from '../../../scheduler/index.js';
import { simulatedNodes } from '../../../sim/kubelet/index.js';
import { simulatedStorage, simulatedVolumeBinding } from '../../../sim/storage/index.js';
import { realClock } from '../../../util/clock.js';
import { celldCrds } from '../../api/crds.js';
import { celldOperator } from '../fleet-controller.js';
import { RESERVATIONS } from '../resources.js';
import {
  type FaultClient,
  type FaultPlan,
  faultClient,
  type RecordedCall,
} from './fault-client.js';

export interface Bench {
  readonly harness: Harness;
  /** Every uid seen per `<namespace>/<name>` of a claim, and per reservation name. */
  readonly incarnations: {
    readonly claims: Map<string, Set<string>>;
    readonly reservations: Map<string, Set<string>>;
  };
  close(): Promise<void>;
}

export interface RunningOperator {
  /** Its client's call log (and fault). */
  readonly recorder: FaultClient;
  /** Outcomes of every finished reconcile, in order. */
  readonly reconciles: ReconcileOutcome[];
  /** Resolves after the next reconcile that finishes from now on. */
  nextReconcile(): Promise<ReconcileOutcome>;
  /** Aborts it and waits for in-flight reconciles to finish. */
  stop(): Promise<void>;
}

function recordIncarnations(target: Map<string, Set<string>>, obj: KubeObject): void {
  const m = obj.metadata ?? {};
  const key = m.namespace ? `${m.namespace}/${m.name}` : (m.name ?? '');
  let uids = target.get(key);
  if (uids === undefined) {
    uids = new Set();
    target.set(key, uids);
  }
  if (m.uid) uids.add(m.uid);
}

function observe(harness: Harness, type: typeof RESERVATIONS, target: Map<string, Set<string>>) {
  const informer = harness.ctx.informers.informer(type);
  informer.addEventHandler({
    onAdd: (o) => recordIncarnations(target, o),
    onUpdate: (_old, o) => recordIncarnations(target, o),
    onDelete: (d) => recordIncarnations(target, deletedObject(d)),
  });
  return informer;
}

async function nodesReady(harness: Harness): Promise<void> {
  await eventually(
    async () => {
      const nodes = await harness.list(RESOURCES.nodes);
      const classes = await harness.list({
        group: 'storage.k8s.io',
        version: 'v1',
        plural: 'storageclasses',
      });
      return nodes.length === 4 && classes.length >= 2;
    },
    { timeoutMs: 20_000 },
  );
}

/** A client of its own: the harness's one is shared by every test probe. */
export function newClient(harness: Harness): ApiClient {
  return new ApiClient({ server: harness.api.url, maxConnections: 128 });
}

/**
 * Starts the cluster's controllers on their own client and signal (the harness's client pools
 * 32 connections, too few for the cluster plus many operators at once).
 */
function runCluster(harness: Harness, stop: AbortSignal): Promise<void>[] {
  const client = newClient(harness);
  return clusterControllers().map((c) =>
    c
      .start({
        ...harness.ctx,
        client,
        signal: stop,
        log: harness.ctx.log.child({ controller: c.name }),
      })
      .catch((err: unknown) =>
        harness.ctx.log.error({ err, controller: c.name }, 'controller failed'),
      ),
  );
}

function clusterControllers(): ControllerDefinition[] {
  return [
    simulatedNodes({ count: 4, zones: ['a', 'b'], capacity: { pods: '500' } }),
    createSchedulerController({ volumeBinding: simulatedVolumeBinding }),
    ...simulatedStorage({ defaultClass: 'standard' }),
    pvcProtectionController(),
    pvProtectionController(),
    replicaSetController,
    deploymentController,
    statefulSetController({}),
    garbageCollectorController,
  ];
}

export async function startBench(): Promise<Bench> {
  const harness = await startHarness();
  await installCrds(harness.client, celldCrds() as KubeObject[], realClock);
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  const cluster = runCluster(harness, stop.signal);
  const incarnations = { claims: new Map<string, Set<string>>(), reservations: new Map() };
  const observers = [
    observe(harness, RESOURCES.persistentvolumeclaims, incarnations.claims),
    observe(harness, RESERVATIONS, incarnations.reservations),
  ];
  await harness.ctx.informers.waitForSync(observers, harness.ctx.signal);
  await nodesReady(harness);
  return {
    harness,
    incarnations,
    close: async () => {
      stop.abort();
      await Promise.all(cluster);
      await harness.close();
    },
  };
}

/**
 * A celld operator for `namespace` only, on fresh informers and a new client wrapped by a
 * {@link faultClient} with `plan` (none: it only records); the client is closed on stop.
 */
export function startOperator(
  bench: Bench,
  namespace: string,
  plan?: FaultPlan,
  onInject?: (call: RecordedCall) => void,
): RunningOperator {
  const { harness } = bench;
  const real = newClient(harness);
  const recorder = faultClient(real, plan, onInject);
  const client = recorder.client;
  const stop = new AbortController();
  // One listener per informer and watch: more than the default warning threshold of 10.
  setMaxListeners(0, stop.signal);
  const reconciles: ReconcileOutcome[] = [];
  let waiters: ((o: ReconcileOutcome) => void)[] = [];
  const informers = createInformerFactory({
    clock: realClock,
    signal: stop.signal,
    listerWatcher: (path) =>
      new HttpListerWatcher({ server: harness.api.url, path, clock: realClock }),
    log: harness.ctx.log,
  });
  const events = new MemoryEventRecorder();
  const ctx: ControllerContext = {
    ...harness.ctx,
    client,
    clientAs: () => client,
    informers,
    eventRecorder: () => events,
    signal: stop.signal,
    metrics: {
      controller: {
        reconciled: (_name, outcome) => {
          reconciles.push(outcome);
          const ready = waiters;
          waiters = [];
          for (const w of ready) w(outcome);
        },
      },
      queue: {},
    },
  };
  const operator = celldOperator({ networkPolicyEnforced: true, localTest: true, namespace });
  const running = operator.start(ctx).catch((err: unknown) => {
    harness.ctx.log.error({ err }, 'operator failed');
  });
  return {
    recorder,
    reconciles,
    nextReconcile: () => new Promise((resolve) => waiters.push(resolve)),
    stop: async () => {
      stop.abort();
      await running;
      real.close();
    },
  };
}
