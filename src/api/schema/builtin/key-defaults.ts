/**
 * Upstream defaults of fields that are keys of associative lists. Server-side apply needs them:
 * a container port applied without `protocol` is keyed `{"containerPort":80,"protocol":"TCP"}`,
 * as upstream's OpenAPI says `default: "TCP"`. Other upstream defaults live in the kinds'
 * defaulting code (`src/api/kinds/`), which runs on every write.
 *
 * @module
 */

/** Definition → property → default value. */
export const KEY_DEFAULTS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  'io.k8s.api.core.v1.ContainerPort': { protocol: 'TCP' },
  'io.k8s.api.core.v1.ServicePort': { protocol: 'TCP' },
  'io.k8s.api.core.v1.EndpointPort': { protocol: 'TCP' },
};
