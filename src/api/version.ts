/**
 * The versions fleetyard answers with: the Kubernetes API it serves (1.33, the newest kubectl it
 * is tested with) and its own. The API server's `/version` and OpenAPI documents and the
 * simulated kubelet's `nodeInfo` all read them here, so one number changes them together.
 *
 * @module
 */

export const KUBERNETES_MINOR = '33';
export const FLEETYARD_VERSION = '0.1.0';
