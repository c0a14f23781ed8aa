/**
 * Runs several {@link Admission} plugins as one, in order, like upstream's admission chain:
 * every plugin's hook runs (a spread of plugin objects would keep only the last `admitCreate`),
 * and the first to throw rejects the write. Allocation releases are collected and all called.
 *
 * @module
 */

import type { Admission } from '../store/object-store.js';

export function composeAdmission(...plugins: readonly Admission[]): Admission {
  return {
    admitCreate(def, namespace, obj, attributes) {
      for (const p of plugins) p.admitCreate?.(def, namespace, obj, attributes);
    },
    admitDelete(def, namespace, name) {
      for (const p of plugins) p.admitDelete?.(def, namespace, name);
    },
    allocate(def, obj) {
      const releases: Array<() => void> = [];
      try {
        for (const p of plugins) {
          const release = p.allocate?.(def, obj);
          if (release !== undefined) releases.push(release);
        }
      } catch (err) {
        for (const release of releases) release();
        throw err;
      }
      return releases.length === 0
        ? undefined
        : () => {
            for (const release of releases) release();
          };
    },
    preserve(def, next, current, attributes) {
      for (const p of plugins) p.preserve?.(def, next, current, attributes);
    },
  };
}
