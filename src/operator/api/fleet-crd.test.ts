/**
 * The celld CRDs installed into an in-memory API server, used as a user would: valid fleets of
 * both profiles are accepted with their defaults, every CEL rule rejects its bad case with its
 * message (on create, and the transition rules on update), the scale subresource reads back,
 * Tables carry the printer columns, and reservations cannot change.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { apiExtensions } from '../../apiextensions/index.js';
import { startTestServer, type TestServer } from '../../apiserver/testing/test-server.js';
import { celldCrds } from './crds.js';
import { envNameProblem, RESERVED_ENV_NAMES, RESERVED_ENV_PREFIXES } from './env-names.js';
import { FLEET_MESSAGES as M } from './fleet-schema.js';
import { RESERVATION_MESSAGES } from './reservation.js';
import { CELLD_API_VERSION } from './types.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const FLEETS = `/apis/${CELLD_API_VERSION}/namespaces/default/celldfleets`;
const RESERVATIONS = `/apis/${CELLD_API_VERSION}/celldstoragereservations`;
const MERGE = 'application/merge-patch+json';
const IMAGE = `ghcr.io/example/celld@sha256:${'a'.repeat(64)}`;

type Spec = Record<string, unknown>;

function persistentSpec(): Spec {
  return {
    profile: 'PersistentFleet',
    runtimeImage: IMAGE,
    serviceAccountName: 'celld',
    storage: { bucket: 'fleet-data', region: 'us-east-1', storageClassName: 'ebs-delete' },
    placement: { zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'] },
  };
}

function bucketSpec(): Spec {
  return {
    profile: 'Bucket',
    bucketWorkload: 'Ordered',
    replicas: 2,
    runtimeImage: IMAGE,
    serviceAccountName: 'celld',
    storage: {
      bucket: 'bucket-data',
      region: 'eu-west-1',
      endpoint: { url: 'http://minio.storage.svc:9000', credentialsSecretName: 's3-keys' },
    },
    placement: { zones: ['eu-west-1a', 'eu-west-1b'], mode: 'Relaxed' },
    env: [
      { name: 'CELLD_LOG', value: 'debug' },
      { name: 'CELLD_MAX_RSS_MB', secretKeyRef: { name: 'tuning', key: 'rss' } },
    ],
  };
}

function fleet(name: string, spec: Spec) {
  return { apiVersion: CELLD_API_VERSION, kind: 'CelldFleet', metadata: { name }, spec };
}

async function established(t: TestServer, name: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const r = await t.request('GET', `${CRDS}/${name}`);
    const conditions =
      (r.body.status as { conditions?: { type: string; status: string }[] })?.conditions ?? [];
    if (conditions.some((c) => c.type === 'Established' && c.status === 'True')) return;
    await sleep(10);
  }
  throw new Error(`${name} was not established`);
}

/** The causes' messages of a 422, for assertions that do not depend on the detail's order. */
function causes(body: Record<string, unknown>): string[] {
  const details = body.details as { causes?: { message: string }[] } | undefined;
  return (details?.causes ?? []).map((c) => c.message);
}

describe('celld CRDs on the API server', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ extensions: apiExtensions() });
    for (const crd of celldCrds()) {
      const r = await t.request('POST', CRDS, { body: crd });
      assert.equal(r.status, 201, r.text);
      await established(t, (crd.metadata as { name: string }).name);
    }
  });
  after(async () => {
    await t.close();
  });

  it('accepts a PersistentFleet and applies the defaults', async () => {
    const r = await t.request('POST', FLEETS, { body: fleet('persistent', persistentSpec()) });
    assert.equal(r.status, 201, r.text);
    const spec = r.body.spec as Spec;
    assert.equal(spec.replicas, 3);
    assert.equal(spec.bucketWorkload, undefined);
    assert.deepEqual(spec.storage, {
      bucket: 'fleet-data',
      region: 'us-east-1',
      storageClassName: 'ebs-delete',
      sizeGiB: 10,
    });
    assert.deepEqual(spec.placement, {
      zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'],
      mode: 'Strict',
    });
    assert.deepEqual(spec.execution, {
      cpuRequest: '250m',
      memoryRequest: '512Mi',
      memoryLimit: '1Gi',
    });
    assert.deepEqual(spec.lifecycle, { shutdownSeconds: 20, terminationGraceSeconds: 30 });
  });

  it('accepts a Bucket fleet with an endpoint and env, keeping what it was given', async () => {
    const r = await t.request('POST', FLEETS, { body: fleet('bucket', bucketSpec()) });
    assert.equal(r.status, 201, r.text);
    const spec = r.body.spec as Spec;
    assert.equal(spec.bucketWorkload, 'Ordered');
    assert.equal(spec.replicas, 2);
    assert.deepEqual(spec.env, bucketSpec().env);
    assert.equal((spec.storage as Spec).sizeGiB, 10);
    assert.equal((spec.placement as Spec).mode, 'Relaxed');
  });

  it('rejects each bad fleet on create with its rule’s message', async () => {
    const p = persistentSpec;
    const b = bucketSpec;
    const storage = (s: Spec) => s.storage as Spec;
    const cases: Array<[string, Spec, string, string?]> = [
      [
        'bucketWorkload on a PersistentFleet',
        { ...p(), bucketWorkload: 'Deployment' },
        M.bucketWorkload,
      ],
      [
        'no storageClassName on a PersistentFleet',
        { ...p(), storage: { ...storage(p()), storageClassName: undefined } },
        M.storageClassRequired,
      ],
      [
        'storageClassName on a Bucket fleet',
        { ...b(), storage: { ...storage(b()), storageClassName: 'ebs' } },
        M.storageClassForbidden,
      ],
      ['fewer replicas than zones', { ...p(), replicas: 2 }, M.replicasZones],
      [
        'grace shorter than shutdown + 5',
        { ...p(), lifecycle: { shutdownSeconds: 26 } },
        M.terminationGrace,
      ],
      [
        'grace exactly shutdown + 4',
        { ...p(), lifecycle: { shutdownSeconds: 10, terminationGraceSeconds: 14 } },
        M.terminationGrace,
      ],
      [
        'cpu limit below request',
        { ...p(), execution: { cpuRequest: '1', cpuLimit: '500m' } },
        M.cpuLimit,
      ],
      [
        'memory limit below default request',
        { ...p(), execution: { memoryLimit: '256Mi' } },
        M.memoryLimit,
      ],
      ['a malformed quantity', { ...p(), execution: { cpuRequest: 'lots' } }, M.quantity],
      ['a non-CELLD env name', { ...b(), env: [{ name: 'PATH', value: '/x' }] }, M.envName],
      [
        'a reserved env name',
        { ...b(), env: [{ name: 'CELLD_BUCKET', value: 'x' }] },
        M.envReserved,
      ],
      [
        'a reserved env prefix',
        { ...b(), env: [{ name: 'CELLD_OTEL_URL', value: 'x' }] },
        M.envReservedPrefix,
      ],
      ['env with neither value nor secret', { ...b(), env: [{ name: 'CELLD_LOG' }] }, M.envValue],
      [
        'env with both value and secret',
        { ...b(), env: [{ name: 'CELLD_LOG', value: 'a', secretKeyRef: { name: 's', key: 'k' } }] },
        M.envValue,
      ],
      ['a name longer than 40 characters', p(), M.name, 'a'.repeat(41)],
      [
        'an unpinned image',
        { ...p(), runtimeImage: 'ghcr.io/example/celld:latest' },
        'spec.runtimeImage',
      ],
    ];
    for (const [what, spec, message, name] of cases) {
      const r = await t.request('POST', FLEETS, { body: fleet(name ?? 'bad', spec) });
      assert.equal(r.status, 422, `${what}: ${r.text}`);
      assert.ok(
        causes(r.body).some((c) => c.includes(message)) || String(r.body.message).includes(message),
        `${what}: want ${message}, got ${r.text}`,
      );
    }
  });

  it('judges env names exactly as envNameProblem does', async () => {
    // Names near the boundaries: reserved names, reserved prefixes with a tail, and free text.
    const name = fc.oneof(
      fc.constantFrom(...RESERVED_ENV_NAMES),
      fc
        .tuple(fc.constantFrom(...RESERVED_ENV_PREFIXES), fc.stringMatching(/^[A-Z0-9_]{0,6}$/))
        .map(([p, tail]) => p + tail),
      fc.stringMatching(/^(CELLD_)?[A-Za-z0-9_]{0,8}$/),
    );
    await fc.assert(
      fc.asyncProperty(name, async (n) => {
        const spec = { ...bucketSpec(), env: [{ name: n, value: 'v' }] };
        const r = await t.request('POST', `${FLEETS}?dryRun=All`, { body: fleet('env', spec) });
        const want = envNameProblem(n);
        if (want === undefined) assert.equal(r.status, 201, `${n}: ${r.text}`);
        else
          assert.ok(
            causes(r.body).some((c) => c.endsWith(`: ${want}`)),
            `${n}: ${r.text}`,
          );
      }),
      { numRuns: 60 },
    );
  });

  it('rejects changes to fixed fields with the transition rules’ messages', async () => {
    const base = { ...bucketSpec(), execution: { cpuRequest: '100m' } };
    const created = await t.request('POST', FLEETS, { body: fleet('fixed', base) });
    assert.equal(created.status, 201, created.text);
    const cases: Array<[string, Spec, string]> = [
      ['profile', { profile: 'PersistentFleet', bucketWorkload: null }, M.profile],
      ['the bucket', { storage: { bucket: 'other-bucket' } }, M.storage],
      ['the endpoint removed', { storage: { endpoint: null } }, M.storage],
      ['the service account', { serviceAccountName: 'other' }, M.serviceAccountName],
      ['the zones', { placement: { zones: ['eu-west-1a', 'eu-west-1c'] } }, M.placement],
      ['placement mode', { placement: { mode: 'Strict' } }, M.placement],
      ['execution changed', { execution: { cpuRequest: '200m' } }, M.execution],
      ['execution removed', { execution: null }, M.execution],
      ['lifecycle', { lifecycle: { shutdownSeconds: 5 } }, M.lifecycle],
      ['env changed', { env: [{ name: 'CELLD_LOG', value: 'info' }] }, M.env],
      ['env removed', { env: null }, M.env],
      ['bucketWorkload', { bucketWorkload: 'Deployment' }, M.bucketWorkloadFixed],
    ];
    for (const [what, patch, message] of cases) {
      const r = await t.request('PATCH', `${FLEETS}/fixed`, {
        body: { spec: patch },
        contentType: MERGE,
      });
      assert.equal(r.status, 422, `${what}: ${r.text}`);
      assert.ok(
        causes(r.body).some((c) => c.endsWith(`: ${message}`)),
        `${what}: want ${message}, got ${r.text}`,
      );
    }
    const allowed = await t.request('PATCH', `${FLEETS}/fixed`, {
      body: {
        spec: {
          replicas: 4,
          runtimeImage: `ghcr.io/example/celld@sha256:${'b'.repeat(64)}`,
          maintenance: { paused: true, restartToken: 'r1' },
        },
      },
      contentType: MERGE,
    });
    assert.equal(allowed.status, 200, allowed.text);
  });

  it('serves the scale subresource from spec.replicas and status', async () => {
    const status = await t.request('PATCH', `${FLEETS}/persistent/status`, {
      body: {
        status: {
          replicas: 3,
          readyReplicas: 2,
          labelSelector: 'celld.fleetyard.dev/fleet=persistent',
          state: 'Progressing',
          members: [{ pod: 'persistent-0', ordinal: 0, ready: true, zone: 'us-east-1a' }],
        },
      },
      contentType: MERGE,
    });
    assert.equal(status.status, 200, status.text);
    const scale = await t.request('GET', `${FLEETS}/persistent/scale`);
    assert.equal(scale.status, 200, scale.text);
    assert.deepEqual(scale.body.spec, { replicas: 3 });
    assert.deepEqual(scale.body.status, {
      replicas: 3,
      selector: 'celld.fleetyard.dev/fleet=persistent',
    });
    const up = await t.request('PATCH', `${FLEETS}/persistent/scale`, {
      body: { spec: { replicas: 5 } },
      contentType: MERGE,
    });
    assert.equal(up.status, 200, up.text);
    const read = await t.request('GET', `${FLEETS}/persistent`);
    assert.equal((read.body.spec as Spec).replicas, 5);
    const tooMany = await t.request('PATCH', `${FLEETS}/persistent/scale`, {
      body: { spec: { replicas: 101 } },
      contentType: MERGE,
    });
    assert.equal(tooMany.status, 422, tooMany.text);
  });

  it('prints the Profile, Replicas, Ready, State and Age columns', async () => {
    const r = await t.request('GET', FLEETS, {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    assert.equal(r.status, 200, r.text);
    const columns = (r.body.columnDefinitions as { name: string }[]).map((c) => c.name);
    assert.deepEqual(columns, ['Name', 'Profile', 'Replicas', 'Ready', 'State', 'Age']);
    const rows = (r.body.rows as { cells: unknown[] }[]).map((row) => row.cells.slice(0, 5));
    assert.deepEqual(
      rows.find((cells) => cells[0] === 'persistent'),
      ['persistent', 'PersistentFleet', 5, 2, 'Progressing'],
    );
  });

  it('accepts a reservation and refuses any change to its spec', async () => {
    const spec = {
      bucket: 'fleet-data',
      fleetNamespace: 'default',
      fleetName: 'persistent',
      fleetUID: '5f0c8a1e-0000-4000-8000-000000000001',
      specHash: 'sha256:abc',
      initialReplicas: 3,
    };
    const body = {
      apiVersion: CELLD_API_VERSION,
      kind: 'CelldStorageReservation',
      metadata: { name: 's3-test' },
      spec,
    };
    const r = await t.request('POST', RESERVATIONS, { body });
    assert.equal(r.status, 201, r.text);
    const changes: Array<[string, Spec]> = [
      ['transfer to another UID', { fleetUID: 'other' }],
      ['a new hash', { specHash: 'sha256:def' }],
      ['an endpoint added', { endpoint: 'http://minio:9000' }],
    ];
    for (const [what, patch] of changes) {
      const u = await t.request('PATCH', `${RESERVATIONS}/s3-test`, {
        body: { spec: patch },
        contentType: MERGE,
      });
      assert.equal(u.status, 422, `${what}: ${u.text}`);
      assert.ok(
        causes(u.body).some((c) => c.endsWith(`: ${RESERVATION_MESSAGES.immutable}`)),
        `${what}: ${u.text}`,
      );
    }
    const label = await t.request('PATCH', `${RESERVATIONS}/s3-test`, {
      body: { metadata: { labels: { note: 'kept' } } },
      contentType: MERGE,
    });
    assert.equal(label.status, 200, label.text);
  });
});
