/**
 * The celld container's environment, exactly as docs/design/operator.md §3 lists it: the operator's variables
 * first (in a fixed order, because `$(VAR)` references only see variables defined before
 * them), then the custom endpoint's, then the user's `CELLD_*` entries.
 *
 * User entries can add tuning variables but never override one the operator sets: a reserved
 * name is dropped here even though the CRD already refuses it, so a fleet stored by an older
 * schema cannot redirect a member's bucket, address or identity.
 *
 * @module
 */

import type { EnvVar } from '../../api/model/index.js';
import { envNameProblem } from '../api/env-names.js';
import type { FleetEnvVarView, ResolvedFleet } from './fleet-view.js';
import { peersServiceName } from './metadata.js';

export type { EnvVar };

export const APPLICATION_PORT = 8080;
export const PEER_PORT = 8081;
export const WORK_DIR = '/work';
const TTL_MS = '10000';
const TOKIO_THREADS = '2';

/** Whether a user may set `name` in `spec.env` (the CRD's rule, mirrored for defence). */
export function isUserEnvNameAllowed(name: string): boolean {
  return envNameProblem(name) === undefined;
}

function fieldRef(fieldPath: string): EnvVar['valueFrom'] {
  return { fieldRef: { apiVersion: 'v1', fieldPath } };
}

/** POD_IP, CELLD_NODE and CELLD_ADVERTISE per profile (docs/design/operator-api.md §3). */
function identityEnv(fleet: ResolvedFleet): EnvVar[] {
  const podIp: EnvVar = { name: 'POD_IP', valueFrom: fieldRef('status.podIP') };
  if (fleet.workload === 'PersistentFleet') {
    // The Pod name is the stable ordinal, and its peers DNS name survives a new Pod IP, so a
    // restarted member is found again by followers holding its retained disk.
    return [
      podIp,
      { name: 'CELLD_NODE', valueFrom: fieldRef('metadata.name') },
      {
        name: 'CELLD_ADVERTISE',
        value: `$(CELLD_NODE).${peersServiceName(fleet)}.${fleet.namespace}.svc:${PEER_PORT}`,
      },
    ];
  }
  // Bucket members have no durable local state: each Pod is a new node session.
  return [
    podIp,
    { name: 'CELLD_NODE', valueFrom: fieldRef('metadata.uid') },
    { name: 'CELLD_ADVERTISE', value: `$(POD_IP):${PEER_PORT}` },
  ];
}

function runtimeEnv(fleet: ResolvedFleet): EnvVar[] {
  const { spec } = fleet;
  const env: EnvVar[] = [
    { name: 'CELLD_BUCKET', value: `s3://${spec.storage.bucket}` },
    { name: 'AWS_REGION', value: spec.storage.region },
    { name: 'CELLD_DURABILITY', value: fleet.workload === 'PersistentFleet' ? 'fleet' : 'bucket' },
    { name: 'CELLD_ADDR', value: `0.0.0.0:${APPLICATION_PORT}` },
    { name: 'CELLD_INTERNAL_ADDR', value: `0.0.0.0:${PEER_PORT}` },
    { name: 'CELLD_WATCH', value: WORK_DIR },
    { name: 'CELLD_TTL_MS', value: TTL_MS },
    { name: 'CELLD_SHUTDOWN_TOTAL_MS', value: String(fleet.shutdownSeconds * 1000) },
    { name: 'CELLD_TOKIO_THREADS', value: TOKIO_THREADS },
  ];
  const exec = spec.execution;
  if (exec?.maxResidentCells !== undefined) {
    env.push({ name: 'CELLD_MAX_RESIDENT_CELLS', value: String(exec.maxResidentCells) });
  }
  if (exec?.idleEvictSeconds !== undefined) {
    env.push({ name: 'CELLD_IDLE_EVICT_S', value: String(exec.idleEvictSeconds) });
  }
  return env;
}

function endpointEnv(fleet: ResolvedFleet): EnvVar[] {
  const endpoint = fleet.spec.storage.endpoint;
  if (!endpoint) return [];
  const secret = (key: string): EnvVar['valueFrom'] => ({
    secretKeyRef: { name: endpoint.credentialsSecretName, key },
  });
  const env: EnvVar[] = [{ name: 'S3_ENDPOINT', value: endpoint.url }];
  if (endpoint.url.startsWith('http://')) env.push({ name: 'AWS_ALLOW_HTTP', value: 'true' });
  env.push(
    { name: 'AWS_ACCESS_KEY_ID', valueFrom: secret('accessKeyId') },
    { name: 'AWS_SECRET_ACCESS_KEY', valueFrom: secret('secretAccessKey') },
  );
  return env;
}

function userEnvVar(entry: FleetEnvVarView): EnvVar {
  if (entry.secretKeyRef) {
    const { name, key, optional } = entry.secretKeyRef;
    return {
      name: entry.name,
      valueFrom: { secretKeyRef: optional === undefined ? { name, key } : { name, key, optional } },
    };
  }
  return { name: entry.name, value: entry.value ?? '' };
}

/** The user's allowed entries, in their order; a repeated name keeps its last value, as the kubelet would. */
function userEnv(entries: readonly FleetEnvVarView[]): EnvVar[] {
  const byName = new Map<string, EnvVar>();
  for (const entry of entries) {
    if (!isUserEnvNameAllowed(entry.name)) continue;
    byName.delete(entry.name);
    byName.set(entry.name, userEnvVar(entry));
  }
  return [...byName.values()];
}

/** The full container environment of a member. */
export function renderEnv(fleet: ResolvedFleet): EnvVar[] {
  return [
    ...identityEnv(fleet),
    ...runtimeEnv(fleet),
    ...endpointEnv(fleet),
    ...userEnv(fleet.spec.env ?? []),
  ];
}
