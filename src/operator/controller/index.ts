/**
 * The celld fleet operator's controller: reconciles CelldFleets into their StatefulSet or
 * Deployment, prerequisites, reservation and self-healing. `fleetyard up` runs it in the
 * controller thread; `fleetyard operator` runs it against any cluster.
 *
 * @module
 */
export { celldOperator } from './fleet-controller.js';
export * from './options.js';
export { FLEET_FINALIZER } from './resources.js';
