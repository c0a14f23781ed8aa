/**
 * Fleet views shared by the render tests: one per workload shape, with every optional field
 * the renderers read set on the PersistentFleet so the golden file shows each of them.
 *
 * @module
 */

import type { FleetSpecView } from '../fleet-view.js';

const IMAGE = `ghcr.io/example/celld@sha256:${'a'.repeat(64)}`;

export const persistentFleet: FleetSpecView = {
  metadata: { name: 'orders', namespace: 'shop', uid: 'uid-orders', generation: 4 },
  spec: {
    profile: 'PersistentFleet',
    replicas: 5,
    runtimeImage: IMAGE,
    maintenance: { restartToken: 'r1' },
    storage: {
      bucket: 'shop-orders',
      region: 'eu-west-1',
      storageClassName: 'ebs-delete',
      sizeGiB: 20,
      endpoint: {
        url: 'http://minio.storage.svc:9000',
        credentialsSecretName: 'minio-keys',
        egress: { podLabels: { app: 'minio' }, namespace: 'storage' },
      },
    },
    placement: { zones: ['eu-west-1a', 'eu-west-1b', 'eu-west-1c'], mode: 'Strict' },
    execution: {
      cpuRequest: '500m',
      cpuLimit: '2',
      memoryRequest: '1Gi',
      memoryLimit: '2Gi',
      maxResidentCells: 1000,
      idleEvictSeconds: 300,
    },
    lifecycle: { shutdownSeconds: 25, terminationGraceSeconds: 40 },
    env: [
      { name: 'CELLD_LOG', value: 'info' },
      { name: 'CELLD_MAX_RSS_MB', secretKeyRef: { name: 'tuning', key: 'rss' } },
    ],
  },
};

export const bucketFleet: FleetSpecView = {
  metadata: { name: 'cache', namespace: 'edge', uid: 'uid-cache', generation: 1 },
  spec: {
    profile: 'Bucket',
    runtimeImage: IMAGE,
    serviceAccountName: 'cache-s3',
    storage: { bucket: 'edge-cache', region: 'us-east-1' },
    placement: { zones: ['us-east-1a', 'us-east-1b'], mode: 'Relaxed' },
  },
};

export const orderedFleet: FleetSpecView = {
  ...bucketFleet,
  metadata: { name: 'jobs', namespace: 'edge', uid: 'uid-jobs', generation: 2 },
  spec: {
    ...bucketFleet.spec,
    bucketWorkload: 'Ordered',
    placement: { zones: ['us-east-1a', 'us-east-1b'], mode: 'Strict' },
  },
};

/** A copy of `fleet` with `spec` fields replaced. */
export function withSpec(
  fleet: FleetSpecView,
  spec: Partial<FleetSpecView['spec']>,
): FleetSpecView {
  return { ...fleet, spec: { ...fleet.spec, ...spec } };
}
