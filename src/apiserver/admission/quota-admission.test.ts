/**
 * LimitRanger and ResourceQuota as object-store hooks, in upstream's order (LimitRanger
 * mutates, ResourceQuota validates last), over a memory backend: the 403 texts, the charge
 * written to `status.used` before the object, defaults that make a pod Burstable, and the
 * update paths (a claim resize, a Service turned NodePort).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isStatusError } from '../../api/errors.js';
import { createBuiltinResources } from '../../api/kinds/index.js';
import type { KubeObject } from '../../api/object.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { createMemoryBackend } from '../../storage/memory/backend.js';
import { ObjectStore } from '../store/object-store.js';
import { composeAdmission } from './chain.js';
import { limitRangerAdmission } from './limit-ranger.js';
import { resourceQuotaAdmission } from './resource-quota.js';

const resources = createBuiltinResources();
function def(plural: string): ResourceDefinition {
  const d = resources.find((r) => r.group === '' && r.plural === plural);
  assert.ok(d, plural);
  return d;
}
const PODS = def('pods');
const QUOTAS = def('resourcequotas');
const LIMITS = def('limitranges');
const CLAIMS = def('persistentvolumeclaims');
const SERVICES = def('services');
const NS = 'team';

function setup() {
  const backend = createMemoryBackend();
  const store = new ObjectStore({
    backend,
    admission: composeAdmission(limitRangerAdmission(backend), resourceQuotaAdmission(backend)),
  });
  /** A quota as the controller leaves it: status.hard = spec.hard, status.used as given. */
  const quota = async (
    name: string,
    hard: Record<string, string>,
    used: Record<string, string>,
    spec = {},
  ) => {
    await store.create(QUOTAS, NS, { metadata: { name }, spec: { hard, ...spec } });
    await store.update(QUOTAS, NS, name, (q) => ({ ...q, status: { hard, used } }), {
      subresource: 'status',
    });
  };
  const used = (name: string) =>
    (store.get(QUOTAS, NS, name).status as { used: Record<string, string> }).used;
  const refusal = async (write: Promise<unknown>): Promise<string> => {
    try {
      await write;
    } catch (e) {
      assert.ok(isStatusError(e), String(e));
      return `${e.status.code} ${e.status.message}`;
    }
    assert.fail('the write was admitted');
  };
  return { backend, store, quota, used, refusal };
}

const pod = (name: string, resources: Record<string, unknown> = {}): KubeObject => ({
  metadata: { name },
  spec: { containers: [{ name: 'app', image: 'nginx', resources }] },
});

describe('ResourceQuota admission', () => {
  it('checks a dry run as a write but charges nothing', async () => {
    const { store, quota, used, refusal } = setup();
    await quota('q', { pods: '1' }, { pods: '0' });
    await store.create(PODS, NS, pod('dry'), { dryRun: true });
    assert.deepEqual(used('q'), { pods: '0' });
    await store.create(PODS, NS, pod('a'));
    assert.deepEqual(used('q'), { pods: '1' });
    assert.match(
      await refusal(store.create(PODS, NS, pod('b'), { dryRun: true })),
      /^403 .*exceeded quota: q/,
    );
  });

  it('charges status.used on create and refuses the pod over the count with upstream text', async () => {
    const { store, quota, used, refusal } = setup();
    await quota('q', { pods: '2' }, { pods: '0' });
    await store.create(PODS, NS, pod('a'));
    await store.create(PODS, NS, pod('b'));
    assert.deepEqual(used('q'), { pods: '2' });
    assert.equal(
      await refusal(store.create(PODS, NS, pod('c'))),
      '403 pods "c" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2',
    );
    assert.deepEqual(used('q'), { pods: '2' });
  });

  it('names a generated pod by its generated name', async () => {
    const { store, quota, refusal } = setup();
    await quota('q', { pods: '0' }, { pods: '0' });
    const msg = await refusal(
      store.create(PODS, NS, { ...pod(''), metadata: { generateName: 'web-' } }),
    );
    assert.match(msg, /^403 pods "web-[a-z0-9]{5}" is forbidden: exceeded quota: q, /);
  });

  it('asks compute quotas for requests, then charges them', async () => {
    const { store, quota, used, refusal } = setup();
    await quota(
      'compute',
      { 'requests.cpu': '1', 'limits.cpu': '2' },
      { 'requests.cpu': '0', 'limits.cpu': '0' },
    );
    assert.equal(
      await refusal(store.create(PODS, NS, pod('bare'))),
      '403 pods "bare" is forbidden: failed quota: compute: must specify limits.cpu for: app; requests.cpu for: app',
    );
    await store.create(PODS, NS, pod('ok', { requests: { cpu: '600m' }, limits: { cpu: '1' } }));
    assert.deepEqual(used('compute'), { 'limits.cpu': '1', 'requests.cpu': '600m' });
    assert.equal(
      await refusal(
        store.create(PODS, NS, pod('big', { requests: { cpu: '500m' }, limits: { cpu: '500m' } })),
      ),
      '403 pods "big" is forbidden: exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=600m, limited: requests.cpu=1',
    );
  });

  it('charges a claim resize its growth only', async () => {
    const { store, quota, used, refusal } = setup();
    await quota('storage', { 'requests.storage': '3Gi' }, { 'requests.storage': '0' });
    const claim = {
      metadata: { name: 'data' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    };
    await store.create(CLAIMS, NS, claim);
    assert.deepEqual(used('storage'), { 'requests.storage': '1Gi' });
    // Bind it, so the claim's validation lets the size change.
    await store.update(CLAIMS, NS, 'data', (c) => ({ ...c, status: { phase: 'Bound' } }), {
      subresource: 'status',
    });
    const resize = (size: string) =>
      store.update(CLAIMS, NS, 'data', (c) => ({
        ...c,
        spec: { ...(c.spec as object), resources: { requests: { storage: size } } },
      }));
    assert.equal(
      await refusal(resize('5Gi')),
      '403 persistentvolumeclaims "data" is forbidden: exceeded quota: storage, requested: requests.storage=4Gi, used: requests.storage=1Gi, limited: requests.storage=3Gi',
    );
  });

  it('counts objects of any kind, quotas and load balancers included', async () => {
    const { store, quota, used, refusal } = setup();
    await quota(
      'objects',
      { resourcequotas: '2', configmaps: '1', 'count/secrets': '0', 'services.loadbalancers': '0' },
      { resourcequotas: '1', configmaps: '0', 'count/secrets': '0', 'services.loadbalancers': '0' },
    );
    await store.create(def('configmaps'), NS, { metadata: { name: 'one' } });
    assert.equal(
      await refusal(store.create(def('configmaps'), NS, { metadata: { name: 'two' } })),
      '403 configmaps "two" is forbidden: exceeded quota: objects, requested: configmaps=1, used: configmaps=1, limited: configmaps=1',
    );
    assert.equal(
      await refusal(store.create(def('secrets'), NS, { metadata: { name: 's' } })),
      '403 secrets "s" is forbidden: exceeded quota: objects, requested: count/secrets=1, used: count/secrets=0, limited: count/secrets=0',
    );
    assert.equal(
      await refusal(
        store.create(SERVICES, NS, {
          metadata: { name: 'lb' },
          spec: { type: 'LoadBalancer', ports: [{ name: 'a', port: 80 }] },
        }),
      ),
      '403 services "lb" is forbidden: exceeded quota: objects, requested: services.loadbalancers=1, used: services.loadbalancers=0, limited: services.loadbalancers=0',
    );
    await quota('second', { pods: '1' }, { pods: '0' });
    assert.equal(used('objects').resourcequotas, '2');
    assert.equal(
      await refusal(store.create(QUOTAS, NS, { metadata: { name: 'third' }, spec: { hard: {} } })),
      '403 resourcequotas "third" is forbidden: exceeded quota: objects, requested: resourcequotas=1, used: resourcequotas=2, limited: resourcequotas=2',
    );
  });

  it('charges a Service turned NodePort its ports', async () => {
    const { store, quota, used, refusal } = setup();
    await quota(
      'svc',
      { services: '5', 'services.nodeports': '1' },
      { services: '0', 'services.nodeports': '0' },
    );
    await store.create(SERVICES, NS, {
      metadata: { name: 's' },
      spec: {
        ports: [
          { name: 'a', port: 80 },
          { name: 'b', port: 81 },
        ],
      },
    });
    assert.deepEqual(used('svc'), { services: '1', 'services.nodeports': '0' });
    assert.equal(
      await refusal(
        store.update(SERVICES, NS, 's', (s) => ({
          ...s,
          spec: { ...(s.spec as object), type: 'NodePort' },
        })),
      ),
      '403 services "s" is forbidden: exceeded quota: svc, requested: services.nodeports=2, used: services.nodeports=0, limited: services.nodeports=1',
    );
  });
});

describe('LimitRanger admission', () => {
  const limits = {
    metadata: { name: 'limits' },
    spec: {
      limits: [
        {
          type: 'Container',
          default: { cpu: '500m', memory: '128Mi' },
          defaultRequest: { cpu: '100m' },
          max: { cpu: '1' },
        },
      ],
    },
  };

  it('fills defaults, so the pod is Burstable and counts against a compute quota', async () => {
    const { store, quota, used } = setup();
    await store.create(LIMITS, NS, limits);
    await quota(
      'compute',
      { 'requests.cpu': '1', 'limits.memory': '1Gi' },
      { 'requests.cpu': '0', 'limits.memory': '0' },
    );
    const created = (await store.create(PODS, NS, pod('web'))).object;
    const spec = created.spec as { containers: { resources: unknown }[] };
    assert.deepEqual(spec.containers[0]?.resources, {
      limits: { cpu: '500m', memory: '128Mi' },
      requests: { cpu: '100m', memory: '128Mi' },
    });
    assert.equal((created.status as { qosClass: string }).qosClass, 'Burstable');
    assert.equal(
      created.metadata?.annotations?.['kubernetes.io/limit-ranger'],
      'LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app',
    );
    assert.deepEqual(used('compute'), { 'limits.memory': '128Mi', 'requests.cpu': '100m' });
  });

  it('refuses a container over max with upstream text', async () => {
    const { store, refusal } = setup();
    await store.create(LIMITS, NS, limits);
    assert.equal(
      await refusal(store.create(PODS, NS, pod('x', { limits: { cpu: '2' } }))),
      '403 pods "x" is forbidden: maximum cpu usage per Container is 1, but limit is 2',
    );
  });

  it('a default limit below the container request is the pod validation 422, as upstream', async () => {
    const { store, refusal } = setup();
    await store.create(LIMITS, NS, {
      metadata: { name: 'small' },
      spec: { limits: [{ type: 'Container', default: { cpu: '100m' } }] },
    });
    const msg = await refusal(store.create(PODS, NS, pod('y', { requests: { cpu: '200m' } })));
    assert.match(
      msg,
      /^422 Pod "y" is invalid: spec\.containers\[0\]\.resources\.requests: Invalid value: "200m": must be less than or equal to cpu limit/,
    );
  });
});
