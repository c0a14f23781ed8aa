/**
 * The garbage-collection finalizers a DELETE's `propagationPolicy` becomes (upstream
 * `metav1.FinalizerOrphanDependents`, `FinalizerDeleteDependents`): the API server writes them
 * and the garbage collector acts on them, so both read them here.
 *
 * @module
 */

export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';
