/**
 * ResourceQuota and LimitRange enforcement on a running `fleetyard up`, driven by kubectl 1.33
 * as a user would (issue 14, item 7):
 * - `kubectl create quota`, then `status.used` converging (`get -o json`, `describe quota`) and a
 *   pod over the count refused with upstream's 403 text; a compute quota asking containers for
 *   their requests; a deleted pod giving its place back;
 * - a ReplicaSet stopped by the quota, reporting `ReplicaFailure`/`FailedCreate` with the
 *   refusal, and recovering when the quota is raised;
 * - a LimitRange filling default requests and limits, and refusing a container over `max`;
 * - a StatefulSet with volumeClaimTemplates against `requests.storage` and
 *   `persistentvolumeclaims`: the claim past the quota is refused, and the set says so.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import {
  clusterForFile,
  createFromManifest,
  describeKubectl,
  inNamespace,
  type KubeObject,
  namespaceObject,
  pollUntil,
} from './testing/kubectl-fixtures.js';

const current = clusterForFile();

// biome-ignore lint/suspicious/noExplicitAny: JSON read-backs, checked by assertions
type Json = Record<string, any>;

const pod = (name: string, resources: Json = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'app', image: 'nginx:1.27', resources }] },
});

describeKubectl('1.33', current, (s) => {
  const k = () => s.k();
  /** A namespace per scenario, so their quotas do not meet. */
  const space = (ns: string) => {
    const n = inNamespace(s, ns);
    const status = async (quota: string): Promise<Json> =>
      ((await n.read('resourcequota', quota)) as Json).status ?? {};
    /** Waits until the quota's `status.used` is `want`. */
    const usedBecomes = (quota: string, want: Record<string, string>) =>
      pollUntil(`status.used of ${quota} = ${JSON.stringify(want)}`, async () => {
        const used = (await status(quota)).used;
        return JSON.stringify(used) === JSON.stringify(want) ? used : undefined;
      });
    return { ...n, status, usedBecomes };
  };

  before(async () => {
    for (const ns of ['quota-pods', 'quota-rs', 'quota-limits', 'quota-sts']) {
      await createFromManifest(k(), undefined, namespaceObject(ns));
    }
  });

  it('kubectl create quota: status converges, a pod over it gets the 403, a delete frees it', async () => {
    const { kc, create, status, usedBecomes } = space('quota-pods');
    await kc('create', 'quota', 'q', '--hard=pods=2,requests.cpu=1');
    await usedBecomes('q', { pods: '0', 'requests.cpu': '0' });
    assert.deepEqual((await status('q')).hard, { pods: '2', 'requests.cpu': '1' });

    const refusedBare = await k().run(['-n', 'quota-pods', 'create', '-f', '-'], {
      input: JSON.stringify(pod('bare')),
    });
    assert.notEqual(refusedBare.code, 0);
    assert.equal(
      refusedBare.stderr.trim(),
      'Error from server (Forbidden): error when creating "STDIN": pods "bare" is forbidden: failed quota: q: must specify requests.cpu for: app',
    );

    await create(pod('a', { requests: { cpu: '300m' } }), pod('b', { requests: { cpu: '300m' } }));
    await usedBecomes('q', { pods: '2', 'requests.cpu': '600m' });
    const over = await k().run(['-n', 'quota-pods', 'create', '-f', '-'], {
      input: JSON.stringify(pod('c', { requests: { cpu: '100m' } })),
    });
    assert.notEqual(over.code, 0);
    assert.equal(
      over.stderr.trim(),
      'Error from server (Forbidden): error when creating "STDIN": pods "c" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2',
    );
    // upstream printResourceQuota: used/hard per resource, sorted, limits.* in LIMIT.
    const table = (await kc('get', 'quota', 'q')).split('\n');
    assert.match(table[0] ?? '', /^NAME\s+AGE\s+REQUEST\s+LIMIT$/);
    assert.match(table[1] ?? '', /^q\s+\S+\s+pods: 2\/2, requests\.cpu: 600m\/1\s*$/);
    const described = await kc('describe', 'quota', 'q');
    assert.match(described, /pods\s+2\s+2/);
    assert.match(described, /requests\.cpu\s+600m\s+1/);

    await kc('delete', 'pod', 'a', '--grace-period=0', '--force');
    await usedBecomes('q', { pods: '1', 'requests.cpu': '300m' });
    await create(pod('c', { requests: { cpu: '100m' } }));
    await usedBecomes('q', { pods: '2', 'requests.cpu': '400m' });
  });

  it('a ReplicaSet over the quota reports ReplicaFailure with the refusal, then recovers', async () => {
    const { kc, read, create, usedBecomes } = space('quota-rs');
    await kc('create', 'quota', 'q', '--hard=pods=2');
    await usedBecomes('q', { pods: '0' });
    const labels = { app: 'web' };
    await create({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web' },
      spec: {
        replicas: 3,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
        },
      },
    });
    const failure = await pollUntil(
      'the ReplicaFailure condition',
      async () => {
        const rs = (await read('rs', 'web')) as Json;
        return (rs.status?.conditions ?? []).find((c: Json) => c.type === 'ReplicaFailure');
      },
      30_000,
    );
    assert.equal(failure.status, 'True');
    assert.equal(failure.reason, 'FailedCreate');
    assert.match(
      failure.message,
      /^pods "web-[a-z0-9]{5}" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2$/,
    );
    const events = JSON.parse(
      await kc(
        'get',
        'events',
        '--field-selector',
        'involvedObject.name=web,reason=FailedCreate',
        '-o',
        'json',
      ),
    ) as { items: Json[] };
    assert.ok(
      events.items.some((e) =>
        /^Error creating: pods "web-[a-z0-9]{5}" is forbidden: exceeded quota: q,/.test(e.message),
      ),
    );
    assert.equal(((await read('rs', 'web')) as Json).status.replicas, 2);

    await kc('patch', 'quota', 'q', '--type=merge', '-p', '{"spec":{"hard":{"pods":"3"}}}');
    await pollUntil(
      'three replicas and no ReplicaFailure',
      async () => {
        const rs = (await read('rs', 'web')) as Json;
        const failing = (rs.status?.conditions ?? []).some(
          (c: Json) => c.type === 'ReplicaFailure',
        );
        return rs.status?.replicas === 3 && !failing ? rs : undefined;
      },
      60_000,
    );
    await usedBecomes('q', { pods: '3' });
  });

  it('a LimitRange fills default requests and limits, and refuses a container over max', async () => {
    const { kc, read, create } = space('quota-limits');
    await create({
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'limits' },
      spec: {
        limits: [
          {
            type: 'Container',
            default: { cpu: '500m', memory: '256Mi' },
            defaultRequest: { cpu: '100m', memory: '128Mi' },
            max: { cpu: '1' },
          },
        ],
      },
    });
    await create(pod('defaulted'));
    const p = (await read('pod', 'defaulted')) as Json;
    assert.deepEqual(p.spec.containers[0].resources, {
      limits: { cpu: '500m', memory: '256Mi' },
      requests: { cpu: '100m', memory: '128Mi' },
    });
    assert.equal(p.status.qosClass, 'Burstable');
    assert.equal(
      p.metadata.annotations['kubernetes.io/limit-ranger'],
      'LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app',
    );

    const big = await k().run([
      '-n',
      'quota-limits',
      'run',
      'big',
      '--image=nginx:1.27',
      '--overrides',
      JSON.stringify({
        spec: {
          containers: [{ name: 'big', image: 'nginx:1.27', resources: { limits: { cpu: '2' } } }],
        },
      }),
    ]);
    assert.notEqual(big.code, 0);
    assert.equal(
      big.stderr.trim(),
      'Error from server (Forbidden): pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2',
    );
    const described = await kc('describe', 'limitrange', 'limits');
    assert.match(described, /Container\s+cpu\s+-\s+1\s+100m\s+500m/);
  });

  it('a StatefulSet with claims stops at the storage quota and says why', async () => {
    const { kc, read, create, usedBecomes } = space('quota-sts');
    await kc('create', 'quota', 'storage', '--hard=requests.storage=2Gi,persistentvolumeclaims=2');
    await usedBecomes('storage', { persistentvolumeclaims: '0', 'requests.storage': '0' });
    const labels = { app: 'db' };
    await create({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db' },
      spec: {
        replicas: 3,
        serviceName: 'db',
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
        },
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ],
      },
    });
    const event = await pollUntil(
      'the FailedCreate event of claim data-db-2',
      async () => {
        const events = JSON.parse(
          await kc(
            'get',
            'events',
            '--field-selector',
            'involvedObject.name=db,reason=FailedCreate',
            '-o',
            'json',
          ),
        ) as { items: Json[] };
        return events.items.find((e) => e.message.startsWith('create Claim data-db-2'));
      },
      60_000,
    );
    assert.equal(
      event.message,
      'create Claim data-db-2 for Pod db-2 in StatefulSet db failed error: persistentvolumeclaims "data-db-2" is forbidden: exceeded quota: storage, requested: persistentvolumeclaims=1,requests.storage=1Gi, used: persistentvolumeclaims=2,requests.storage=2Gi, limited: persistentvolumeclaims=2,requests.storage=2Gi',
    );
    await usedBecomes('storage', { persistentvolumeclaims: '2', 'requests.storage': '2Gi' });
    const claims = JSON.parse(await kc('get', 'pvc', '-o', 'json')) as { items: Json[] };
    assert.deepEqual(claims.items.map((c) => c.metadata.name).sort(), ['data-db-0', 'data-db-1']);
    const missing = await k().run(['-n', 'quota-sts', 'get', 'pod', 'db-2']);
    assert.notEqual(missing.code, 0);
    assert.equal(((await read('sts', 'db')) as Json).status.replicas, 2);
  });
});
