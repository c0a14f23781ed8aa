/**
 * The garbage collector: `garbageCollectorController` (the controller `fleetyard up` runs), and
 * its decisions as pure data: the owner graph, reference classification, the per-item plan,
 * and the patch bodies the applier sends.
 *
 * @module
 */
export {
  type Classification,
  type ClassifiedReferences,
  classifyReferences,
  graphOwnerLookup,
  type OwnerLookup,
  type OwnerStatus,
} from './classify.js';
export {
  createGarbageCollectorController,
  type GarbageCollectorOptions,
  GC_COMPONENT,
  garbageCollectorController,
} from './controller.js';
export {
  type DiscoveredResource,
  deletableResources,
  discoverResources,
  RestMapper,
} from './discovery.js';
export {
  type GraphChanges,
  type GraphNode,
  isDeletingDependents,
  isOrphaning,
  OwnerGraph,
} from './graph.js';
export {
  describeIdentity,
  FOREGROUND_FINALIZER,
  identityOf,
  type ObjectIdentity,
  ORPHAN_FINALIZER,
  refMatchesIdentity,
} from './identity.js';
export {
  deleteOwnerRefsMergePatch,
  deleteOwnerRefsStrategicPatch,
  removeFinalizerMergePatch,
  unblockOwnerRefsMergePatch,
  unblockOwnerRefsStrategicPatch,
  withoutOwnerRefs,
  withUnblockedOwnerRefs,
} from './patches.js';
export {
  blockingDependents,
  type GcAction,
  type GcPropagation,
  planForObject,
  type WaitReason,
} from './plan.js';
