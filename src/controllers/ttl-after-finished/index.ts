/**
 * The TTL-after-finished controller (upstream `pkg/controller/ttlafterfinished`): deletes
 * finished Jobs once their `ttlSecondsAfterFinished` has passed.
 *
 * @module
 */
export { TTL_AFTER_FINISHED_CONTROLLER_NAME, ttlAfterFinishedController } from './controller.js';
export { needsCleanup, type TtlVerdict, ttlVerdict } from './ttl.js';
