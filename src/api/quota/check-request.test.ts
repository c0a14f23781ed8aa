import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { KubeObject } from '../object.js';
import { compareQuantities } from '../validation/quantity.js';
import { type CheckResult, checkRequest, type QuotaState, quotaState } from './check-request.js';
import {
  claimEvaluator,
  objectCountEvaluator,
  podEvaluator,
  serviceEvaluator,
} from './evaluators.js';
import { addLists, mask, toJsonList } from './resource-list.js';

function quota(
  name: string,
  hard: Record<string, string>,
  used?: Record<string, string>,
  spec: Record<string, unknown> = {},
): QuotaState {
  return quotaState({
    metadata: { name },
    spec: { hard, ...spec },
    status: used === undefined ? {} : { hard, used },
  });
}

const pod = (
  requests: Record<string, string> = {},
  limits: Record<string, string> = {},
  extra = {},
) =>
  ({
    metadata: { name: 'p' },
    spec: { containers: [{ name: 'app', resources: { requests, limits } }], ...extra },
    status: { phase: 'Pending' },
  }) as KubeObject;

const create = (object: KubeObject) => ({ operation: 'create' as const, object, now: 0 });

function message(r: CheckResult): string | undefined {
  return r.ok ? undefined : r.message;
}

describe('checkRequest messages (upstream CheckRequest)', () => {
  const cases: Array<[string, QuotaState[], KubeObject, string | undefined]> = [
    [
      'pods over the count',
      [quota('q', { pods: '2' }, { pods: '2' })],
      pod(),
      'exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2',
    ],
    [
      'only the exceeded resources are listed',
      [
        quota(
          'compute',
          { pods: '10', 'requests.cpu': '1' },
          { pods: '1', 'requests.cpu': '800m' },
        ),
      ],
      pod({ cpu: '500m' }),
      'exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=800m, limited: requests.cpu=1',
    ],
    [
      'a compute quota needs the container to declare it',
      [
        quota(
          'compute',
          { 'limits.memory': '1Gi', 'requests.cpu': '1' },
          { 'limits.memory': '0', 'requests.cpu': '0' },
        ),
      ],
      pod(),
      'failed quota: compute: must specify limits.memory for: app; requests.cpu for: app',
    ],
    [
      'a tracked resource without usage yet',
      [quota('q', { pods: '2', 'count/pods': '5' }, { pods: '0' })],
      pod(),
      'status unknown for quota: q, resources: count/pods,pods',
    ],
    [
      'a quota the controller has not synced constrains nothing',
      [quota('q', { pods: '0' })],
      pod(),
      undefined,
    ],
    [
      'a scoped quota that does not match the pod',
      [quota('be', { pods: '0' }, { pods: '0' }, { scopes: ['BestEffort'] })],
      pod({ cpu: '1' }),
      undefined,
    ],
    [
      'the first refusing quota by name',
      [quota('a', { pods: '5' }, { pods: '1' }), quota('b', { pods: '1' }, { pods: '1' })],
      pod(),
      'exceeded quota: b, requested: pods=1, used: pods=1, limited: pods=1',
    ],
  ];
  for (const [name, quotas, p, want] of cases) {
    it(name, () => assert.equal(message(checkRequest(quotas, create(p), podEvaluator)), want));
  }

  it('charges every matching quota', () => {
    const r = checkRequest(
      [
        quota('a', { pods: '5', 'requests.memory': '1Gi' }, { pods: '1', 'requests.memory': '0' }),
        quota('other', { secrets: '1' }, { secrets: '0' }),
      ],
      create(pod({ memory: '256Mi' })),
      podEvaluator,
    );
    assert.ok(r.ok);
    assert.deepEqual(toJsonList(r.quotas[0]!.used), { pods: '2', 'requests.memory': '256Mi' });
    assert.deepEqual(toJsonList(r.quotas[1]!.used), { secrets: '0' });
  });

  it('charges a claim resize only its growth, and ignores a shrink', () => {
    const claim = (size: string) => ({
      metadata: { name: 'data', resourceVersion: '5' },
      spec: { resources: { requests: { storage: size } } },
    });
    const quotas = [
      quota(
        's',
        { 'requests.storage': '3Gi', persistentvolumeclaims: '1' },
        { 'requests.storage': '1Gi', persistentvolumeclaims: '1' },
      ),
    ];
    const grow = checkRequest(
      quotas,
      { operation: 'update', object: claim('4Gi'), old: claim('1Gi'), now: 0 },
      claimEvaluator,
    );
    assert.equal(
      message(grow),
      'exceeded quota: s, requested: requests.storage=3Gi, used: requests.storage=1Gi, limited: requests.storage=3Gi',
    );
    const fits = checkRequest(
      quotas,
      { operation: 'update', object: claim('2Gi'), old: claim('1Gi'), now: 0 },
      claimEvaluator,
    );
    assert.ok(fits.ok);
    assert.deepEqual(toJsonList(fits.quotas[0]!.used), {
      persistentvolumeclaims: '1',
      'requests.storage': '2Gi',
    });
  });

  it('charges a service turned NodePort its ports', () => {
    const svc = (type: string) => ({
      metadata: { name: 's', resourceVersion: '2' },
      spec: { type, ports: [{ port: 80 }] },
    });
    const quotas = [quota('s', { 'services.nodeports': '0' }, { 'services.nodeports': '0' })];
    assert.equal(
      message(
        checkRequest(
          quotas,
          { operation: 'update', object: svc('NodePort'), old: svc('ClusterIP'), now: 0 },
          serviceEvaluator,
        ),
      ),
      'exceeded quota: s, requested: services.nodeports=1, used: services.nodeports=0, limited: services.nodeports=0',
    );
  });

  it('object counts are charged on create only', () => {
    const ev = objectCountEvaluator('apps', 'deployments');
    const quotas = [
      quota('q', { 'count/deployments.apps': '1' }, { 'count/deployments.apps': '1' }),
    ];
    const d = { metadata: { name: 'd' } };
    assert.equal(
      message(checkRequest(quotas, create(d), ev)),
      'exceeded quota: q, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1',
    );
    assert.ok(checkRequest(quotas, { operation: 'update', object: d, old: d, now: 0 }, ev).ok);
  });
});

interface PodSpec {
  readonly cpu: number;
  readonly memoryMi: number;
  readonly besteffort: boolean;
}

/** Admits `pods` in order; returns the final quotas and the sum of what was admitted. */
function admitAll(quotas: QuotaState[], pods: readonly PodSpec[]) {
  let admitted = new Map();
  for (const p of pods) {
    const obj = p.besteffort ? pod() : pod({ cpu: `${p.cpu}m`, memory: `${p.memoryMi}Mi` });
    const r = checkRequest(quotas, create(obj), podEvaluator);
    if (!r.ok) {
      assert.match(
        r.message,
        /^(exceeded quota: [ab], |failed quota: a: must specify requests\.cpu)/,
      );
      continue;
    }
    quotas = [...r.quotas];
    admitted = addLists(admitted, podEvaluator.usage(obj, 0));
  }
  return { quotas, admitted };
}

describe('admitted usage never exceeds hard (property)', () => {
  const milli = fc.integer({ min: 0, max: 3000 });
  const podArb = fc.record({
    cpu: milli,
    memoryMi: fc.integer({ min: 0, max: 2048 }),
    besteffort: fc.boolean(),
  });
  it('a sequence of pod creates against two quotas', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 6 }),
        milli,
        fc.integer({ min: 0, max: 4096 }),
        fc.array(podArb, { maxLength: 25 }),
        (podsHard, cpuHard, memHard, pods) => {
          const { quotas, admitted } = admitAll(
            [
              quota(
                'a',
                { pods: String(podsHard), 'requests.cpu': `${cpuHard}m` },
                { pods: '0', 'requests.cpu': '0' },
              ),
              quota(
                'b',
                { 'requests.memory': `${memHard}Mi` },
                { 'requests.memory': '0' },
                { scopes: ['NotBestEffort'] },
              ),
            ],
            pods,
          );
          for (const q of quotas) {
            for (const [name, limit] of q.hard) {
              const used = q.used.get(name);
              assert.ok(
                used !== undefined && compareQuantities(used, limit) <= 0,
                `${q.name} ${name}`,
              );
            }
          }
          // Quota a sees every admitted pod: its usage is exactly their sum.
          const a = quotas[0]!;
          for (const [name, used] of mask(admitted, a.hard.keys())) {
            assert.equal(compareQuantities(a.used.get(name)!, used), 0);
          }
        },
      ),
    );
  });
});
