/**
 * The simulated nodes as one controller (`kubelet`): registers `fleetyard-node-<i>` Nodes,
 * keeps their Leases and status alive, and runs every pod bound to them through the pure pod
 * lifecycle — once the node's admission (`admission.ts`) has taken it; a pod it refuses is
 * written `Failed`. One informer per resource serves all nodes. See `docs/simulation.md`.
 *
 * ```ts
 * manager.add(simulatedNodes({ count: 3 }));
 * ```
 *
 * @module
 */

import { asKind } from '../../api/model/index.js';
import { isJsonObject, type KubeObject } from '../../api/object.js';
import { deletedObject } from '../../client/shared-informer.js';
import { objectKey } from '../../client/store.js';
import {
  type ControllerContext,
  type ControllerDefinition,
  RESOURCES,
} from '../../controller/context.js';
import { runController } from '../../controller/controller.js';
import {
  POD_NODE_NAME_INDEX,
  podClaimIndexers,
  podNodeNameIndexers,
} from '../../controller/pod-indexes.js';
import { WorkQueue } from '../../controller/workqueue.js';
import {
  type ConfigKind,
  POD_CONFIG_INDEX,
  podConfigIndexFunc,
  podsReadingConfig,
} from './config-index.js';
import { resolveOptions, type SimulatedNodesOptions } from './node-config.js';
import { type HeartbeatDeps, isNodeDown, NodeHeartbeat, registerNode } from './node-heartbeat.js';
import { PodRunner } from './pod-runner.js';
import { podsSharingClaims, podsWaitingForClaim } from './volumes.js';

export type { NodeCapacity, NodeTiming, SimulatedNodesOptions } from './node-config.js';

/** The pods informer index: pods by `spec.nodeName`, shared with the node controllers. */
export const POD_NODE_INDEX = POD_NODE_NAME_INDEX;

/**
 * The kubelet's pod indexes. One object of shared functions, so a second instance on the same
 * informer factory (or the node controllers) adds the same functions (the store refuses a
 * name bound to a different function).
 */
const POD_INDEXERS = {
  ...podNodeNameIndexers,
  ...podClaimIndexers,
  [POD_CONFIG_INDEX]: podConfigIndexFunc,
};

/** Handles on a running instance, for tests. */
export interface SimulatedNodesHandle {
  runner?: PodRunner;
  heartbeats: Map<string, NodeHeartbeat>;
  /** Whether the kubelet currently sees `node` as down (set once started). */
  isDown?: (node: string) => boolean;
}

export function simulatedNodes(
  options: SimulatedNodesOptions = {},
  handle: SimulatedNodesHandle = { heartbeats: new Map() },
): ControllerDefinition {
  const opts = resolveOptions(options);
  return {
    name: 'kubelet',
    agent: 'kubelet',
    async start(ctx: ControllerContext): Promise<void> {
      const pods = ctx.informers.informer(RESOURCES.pods, { indexers: POD_INDEXERS });
      const nodes = ctx.informers.informer(RESOURCES.nodes);
      handle.isDown = (name) => isNodeDown(nodes.lister.get('', name));
      const configMaps = ctx.informers.informer(RESOURCES.configmaps);
      const secrets = ctx.informers.informer(RESOURCES.secrets);
      const claims = ctx.informers.informer(RESOURCES.persistentvolumeclaims);
      const deps: HeartbeatDeps = {
        client: ctx.client,
        clock: ctx.clock,
        log: ctx.log,
        nodes: nodes.lister,
        opts,
        signal: ctx.signal,
      };
      const uids = await registerAll(ctx, deps);
      if (uids === undefined) return;
      const synced = await ctx.informers.waitForSync(
        [pods, nodes, configMaps, secrets, claims],
        ctx.signal,
      );
      if (!synced) return;

      const runner = new PodRunner({
        clientFor: (node) => ctx.clientAs(nodeUsername(node)),
        clock: ctx.clock,
        pods: pods.lister,
        nodes: nodes.lister,
        configMaps: configMaps.lister,
        secrets: secrets.lister,
        claims: claims.lister,
        // Upstream's kubelet names its node as the Events' source host.
        events: ctx.eventRecorder('kubelet', (o) => nodeNameOf(o)),
        opts,
      });
      handle.runner = runner;
      runner.seed(pods.lister.list());
      const queue = new WorkQueue<string>({
        clock: ctx.clock,
        name: 'kubelet',
        metrics: ctx.metrics.queue,
      });
      const enqueue = (obj: KubeObject): void => {
        if (runner.owns(obj)) queue.add(objectKey(obj));
      };
      // A pod leaving (or stopping) frees its ReadWriteOnce volumes for pods on other nodes.
      const releaseVolumes = (obj: KubeObject): void => {
        for (const p of podsSharingClaims(pods.lister, obj, (o) => runner.owns(o)))
          queue.add(objectKey(p));
      };
      pods.addEventHandler({
        onAdd: enqueue,
        onUpdate: (old, obj) => {
          enqueue(obj);
          if (podPhase(old) === 'Running' && podPhase(obj) !== 'Running') releaseVolumes(obj);
        },
        onDelete: (d) => {
          const obj = deletedObject(d);
          if (runner.owns(obj)) runner.forget(obj, objectKey(obj));
          releaseVolumes(obj);
        },
      });
      for (const id of opts.nodes) {
        const hb = new NodeHeartbeat(asNode(ctx, deps, id.name), id, uids.get(id.name) ?? '');
        handle.heartbeats.set(id.name, hb);
      }
      nodes.addEventHandler({
        onUpdate: (old, obj) => {
          const name = obj.metadata?.name ?? '';
          if (!handle.heartbeats.has(name) || isNodeDown(old) === isNodeDown(obj)) return;
          // Back up (or just down): every pod of the node is looked at again.
          for (const p of pods.lister.byIndex(POD_NODE_INDEX, name)) queue.add(objectKey(p));
          if (!isNodeDown(obj)) handle.heartbeats.get(name)?.kick();
        },
      });
      // Only the pods that reference the object and have a container yet to start: an index
      // lookup, not a scan of the namespace.
      const onConfig =
        (kind: ConfigKind) =>
        (obj: KubeObject): void => {
          for (const p of podsReadingConfig(pods.lister, kind, obj, (o) => runner.owns(o)))
            queue.add(objectKey(p));
        };
      configMaps.addEventHandler({
        onAdd: (o, initial) => !initial && onConfig('configmap')(o),
        onUpdate: (_o, n) => onConfig('configmap')(n),
      });
      secrets.addEventHandler({
        onAdd: (o, initial) => !initial && onConfig('secret')(o),
        onUpdate: (_o, n) => onConfig('secret')(n),
      });
      // A claim binding (or appearing) releases the pods that wait to mount it.
      const onClaim = (obj: KubeObject): void => {
        for (const p of podsWaitingForClaim(pods.lister, obj, (o) => runner.owns(o)))
          queue.add(objectKey(p));
      };
      claims.addEventHandler({
        onAdd: (o, initial) => !initial && onClaim(o),
        onUpdate: (_o, n) => onClaim(n),
      });

      const beats = [...handle.heartbeats.values()].map((hb) => hb.run());
      await runController({
        name: 'kubelet',
        queue,
        reconcile: (key, signal) => runner.reconcile(key, signal),
        workers: opts.workers,
        clock: ctx.clock,
        log: ctx.log,
        metrics: ctx.metrics.controller,
        signal: ctx.signal,
      });
      await Promise.all(beats);
    },
  };
}

/** Registers every node, retrying every 2 s until the API answers; undefined when stopped. */
async function registerAll(
  ctx: ControllerContext,
  deps: HeartbeatDeps,
): Promise<Map<string, string> | undefined> {
  const uids = new Map<string, string>();
  while (!ctx.signal.aborted) {
    try {
      for (const id of deps.opts.nodes) {
        if (!uids.has(id.name))
          uids.set(id.name, await registerNode(asNode(ctx, deps, id.name), id));
      }
      return uids;
    } catch (err) {
      if (ctx.signal.aborted) return undefined;
      ctx.log.error({ err }, 'node registration failed');
      await ctx.clock.sleep(2000, ctx.signal).catch(() => undefined);
    }
  }
  return undefined;
}

/** The user a node's kubelet authenticates as (upstream's Node authorizer reads the name). */
function nodeUsername(node: string): string {
  return `system:node:${node}`;
}

/** A node's heartbeat and registration write as that node's kubelet (`system:node:<name>`). */
function asNode(ctx: ControllerContext, deps: HeartbeatDeps, node: string): HeartbeatDeps {
  return { ...deps, client: ctx.clientAs(nodeUsername(node)) };
}

function podPhase(pod: KubeObject): string {
  return asKind(pod, 'Pod').status?.phase ?? '';
}

/** The node a kubelet's Event is about: a pod's node, or the Node itself. */
function nodeNameOf(obj: KubeObject): string | undefined {
  if (obj.kind === 'Node') return obj.metadata?.name;
  const node = isJsonObject(obj.spec) ? obj.spec.nodeName : undefined;
  return typeof node === 'string' && node !== '' ? node : undefined;
}
