/**
 * The pods-by-node index the node lifecycle, taint eviction and pod GC controllers read: the
 * controller runtime's shared one (`src/controller/pod-indexes.ts`), which the simulated
 * kubelet registers on the same informer.
 *
 * @module
 */
export {
  POD_NODE_NAME_INDEX as POD_NODE_INDEX,
  podNodeNameIndexers as podNodeIndexers,
  podsOnNode,
} from '../../controller/pod-indexes.js';
