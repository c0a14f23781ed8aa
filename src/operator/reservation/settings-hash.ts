/**
 * `immutableSettingsHash`: the fingerprint of the settings a fleet cannot change after creation
 * (docs/design/operator-api.md §1.1: `profile`, `bucketWorkload`, `serviceAccountName`, `storage`, `placement`,
 * `execution`, `lifecycle`, `env`). The reservation stores it, and a fleet whose fingerprint
 * differs from the stored one is refused the bucket (`StorageScopeConflict`): the bucket's data
 * was written under those settings.
 *
 * Left out, as in the Go operator: the mutable fields (`replicas`, `runtimeImage`,
 * `maintenance`). Unlike Go, `replicas` is not bound through an `initialReplicas` baseline: it is
 * mutable, so it can say nothing about who owns the bucket.
 *
 * The hash is sha256 over canonical JSON (keys sorted, null and absent alike), after normalising
 * what the API treats as equal, so that an edit CEL's `self == oldSelf` accepts cannot change it:
 * - `placement.zones` is a set (listType set): sorted;
 * - `env` is a map keyed by name (listType map): sorted by name;
 * - `bucketWorkload` defaults to `Deployment` for Bucket fleets and means nothing for
 *   PersistentFleet, so it is written as `Deployment` or dropped.
 * The input must be the stored, defaulted spec (the API server applies the schema defaults).
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../controller/hash.js';
import type { FleetSpec } from './types.js';

/** The fleet spec fields that are immutable after creation (docs/design/operator-api.md §1.1). */
export const IMMUTABLE_SPEC_FIELDS = [
  'profile',
  'bucketWorkload',
  'serviceAccountName',
  'storage',
  'placement',
  'execution',
  'lifecycle',
  'env',
] as const;

/** The immutable part of a spec, normalised (see the module note). */
export function immutableSettings(spec: FleetSpec): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const field of IMMUTABLE_SPEC_FIELDS) {
    if (spec[field] !== undefined && spec[field] !== null) picked[field] = spec[field];
  }
  if (spec.profile === 'Bucket') picked.bucketWorkload = spec.bucketWorkload ?? 'Deployment';
  else delete picked.bucketWorkload;
  const placement = picked.placement;
  if (isRecord(placement) && Array.isArray(placement.zones)) {
    picked.placement = { ...placement, zones: [...placement.zones].map(String).sort() };
  }
  if (Array.isArray(picked.env)) {
    picked.env = [...picked.env].sort((a, b) => compare(nameOf(a), nameOf(b)));
  }
  return picked;
}

/** sha256 hex of the canonical JSON of `immutableSettings(spec)`. */
export function immutableSettingsHash(spec: FleetSpec): string {
  return createHash('sha256')
    .update(canonicalJson(immutableSettings(spec)), 'utf8')
    .digest('hex');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function nameOf(entry: unknown): string {
  return isRecord(entry) && typeof entry.name === 'string' ? entry.name : '';
}

/** Code-unit order, as Go's `sort.Strings`, independent of the locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
