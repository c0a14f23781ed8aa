/**
 * Which resource a fleetyard storage key belongs to, for {@link encryptingBackend}. The API
 * server keeps every object at `/<group or "core">/<plural>/<namespace>/<name>` (cluster-scoped:
 * `/<group>/<plural>/<name>`; `src/apiserver/store/keys.ts`, which this layer may not import),
 * where upstream uses `/registry/<resource>/…`. A version served from another's storage
 * (events.k8s.io events in core's) already has that storage's key, which is what the
 * configuration names, as upstream's (`events`, not `events.events.k8s.io`).
 *
 * @module
 */
import type { GroupResource } from './config.js';

/**
 * `/core/secrets/ns/a` → `{ group: '', resource: 'secrets' }`; `/apps/deployments/` (a list
 * prefix) → apps/deployments; `/core/secrets` (could also cover `secretsx`), `/core/`, `` and
 * anything else → `undefined`.
 */
export function resourceOfStorageKey(key: string): GroupResource | undefined {
  if (!key.startsWith('/')) return undefined;
  const groupEnd = key.indexOf('/', 1);
  if (groupEnd <= 1) return undefined;
  const resourceEnd = key.indexOf('/', groupEnd + 1);
  if (resourceEnd <= groupEnd + 1) return undefined;
  const group = key.slice(1, groupEnd);
  // No API group is named `core` (a CRD's group needs a dot), so the name is unambiguous.
  return { group: group === 'core' ? '' : group, resource: key.slice(groupEnd + 1, resourceEnd) };
}
