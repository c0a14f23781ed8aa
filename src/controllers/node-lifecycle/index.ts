/**
 * Node loss handling, as the controller manager wires it: the node lifecycle controller (node
 * health, NoExecute/NoSchedule taints, pods NotReady), the taint eviction controller (deletes pods
 * that do not tolerate a node's NoExecute taints), and the pod garbage collector. The
 * DefaultTolerationSeconds admission that gives pods their 300 s is in the API server
 * (`src/apiserver/admission/default-tolerations.ts`).
 *
 * @module
 */

export {
  DEFAULT_NODE_MONITOR_PERIOD_MS,
  NODE_LIFECYCLE_CONTROLLER,
  type NodeLifecycleOptions,
  nodeLifecycleController,
} from './node-lifecycle-controller.js';
export {
  DEFAULT_GC_PERIOD_MS,
  POD_GARBAGE_COLLECTOR,
  type PodGarbageCollectorOptions,
  podGarbageCollector,
} from './pod-gc-controller.js';
export {
  TAINT_EVICTION_CONTROLLER,
  type TaintEvictionOptions,
  taintEvictionController,
} from './taint-eviction-controller.js';
