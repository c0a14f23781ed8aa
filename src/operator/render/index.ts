/**
 * Pure rendering of a celld fleet's children: from a {@link FleetSpecView} to the objects
 * the operator owns, plus the operator-owned-field convergence and the StorageClass
 * contract. Nothing here reads or writes the API; the reconciler decides what to do with it.
 *
 * @module
 */

export { renderChildren } from './children.js';
export {
  type ConvergeOptions,
  convergeObject,
  coversDesired,
  type FieldPath,
  immutableFieldDrift,
  immutableFields,
  operatorOwnedFields,
} from './converge.js';
export {
  APPLICATION_PORT,
  type EnvVar,
  isUserEnvNameAllowed,
  PEER_PORT,
  renderEnv,
} from './env.js';
export {
  DEFAULT_RENDER_OPTIONS,
  type FleetSpecView,
  type RenderOptions,
  type ResolvedFleet,
  resolveFleet,
} from './fleet-view.js';
export * from './metadata.js';
export { renderNetworkPolicy } from './network-policy.js';
export { type PodTemplate, renderPodTemplate } from './pod-template.js';
export {
  renderPodDisruptionBudget,
  renderServiceAccount,
  renderServices,
} from './prerequisites.js';
export { excludeNodes, orderedZoneFor } from './scheduling.js';
export {
  diskScope,
  type StorageClassContractOptions,
  type StorageClassVerdict,
  storageClassContract,
} from './storage-class.js';
export {
  renderDeployment,
  renderOrderedStatefulSet,
  renderStatefulSet,
  renderWorkload,
} from './workloads.js';
