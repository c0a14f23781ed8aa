/**
 * Tests for the DefaultTolerationSeconds admission plugin: the pure planner (after upstream
 * `admission_test.go`), the hooks, and pods created through the API (POST, dry run, apply).
 *
 * @module
 */

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { builtinResources } from '../../api/kinds/index.js';
import type { KubeObject } from '../../api/object.js';
import { createMemoryBackend } from '../../storage/memory/backend.js';
import { ApiServer } from '../server.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import {
  defaultTolerationSecondsAdmission,
  defaultTolerations,
  type Toleration,
} from './default-tolerations.js';

const NR = 'node.kubernetes.io/not-ready';
const UR = 'node.kubernetes.io/unreachable';
const def = (key: string, seconds = 300): Toleration => ({
  key,
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: seconds,
});
const pod = (tolerations?: Toleration[]): KubeObject => ({
  metadata: { name: 'p' },
  spec: tolerations ? { tolerations } : {},
});

describe('defaultTolerations', () => {
  const cases: Array<[string, Toleration[] | undefined, Toleration[]]> = [
    ['no tolerations → both added, not-ready first', undefined, [def(NR), def(UR)]],
    [
      'unrelated toleration → both added',
      [{ key: 'foo', operator: 'Exists', effect: 'NoSchedule' }],
      [def(NR), def(UR)],
    ],
    [
      'not-ready NoExecute present (any seconds) → only unreachable',
      [{ key: NR, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 700 }],
      [def(UR)],
    ],
    [
      'unreachable with empty effect → only not-ready',
      [{ key: UR, operator: 'Exists' }],
      [def(NR)],
    ],
    [
      'not-ready NoSchedule does not count',
      [{ key: NR, operator: 'Exists', effect: 'NoSchedule' }],
      [def(NR), def(UR)],
    ],
    ['empty key + NoExecute covers both', [{ operator: 'Exists', effect: 'NoExecute' }], []],
    ['empty key + empty effect covers both', [{ operator: 'Exists' }], []],
    ['both present → nothing', [def(NR, 10), def(UR, 20)], []],
  ];
  for (const [name, tols, want] of cases)
    it(name, () => assert.deepEqual(defaultTolerations(pod(tols)), want));

  it('honours the configured seconds', () => {
    assert.deepEqual(
      defaultTolerations(pod(), {
        notReadyTolerationSeconds: 60,
        unreachableTolerationSeconds: 90,
      }),
      [def(NR, 60), def(UR, 90)],
    );
  });
});

describe('defaultTolerationSecondsAdmission hooks', () => {
  const pods = { group: '', plural: 'pods' } as never;
  const configMaps = { group: '', plural: 'configmaps' } as never;
  it('appends to pods on create and on update, with the configured seconds', () => {
    const admission = defaultTolerationSecondsAdmission({
      notReadyTolerationSeconds: 30,
      unreachableTolerationSeconds: 60,
    });
    const created = pod([{ key: 'a', operator: 'Exists' }]);
    admission.admitCreate?.(pods, 'default', created);
    assert.deepEqual(created.spec, {
      tolerations: [{ key: 'a', operator: 'Exists' }, def(NR, 30), def(UR, 60)],
    });
    const updated = pod();
    admission.preserve?.(pods, updated, pod());
    assert.deepEqual(updated.spec, { tolerations: [def(NR, 30), def(UR, 60)] });
  });
  it('leaves other kinds alone', () => {
    const cm: KubeObject = { metadata: { name: 'c' } };
    defaultTolerationSecondsAdmission().admitCreate?.(configMaps, 'default', cm);
    assert.deepEqual(cm, { metadata: { name: 'c' } });
  });
});

describe('DefaultTolerationSeconds through the API', () => {
  let api: TestServer;
  before(async () => {
    api = await startTestServer();
  });
  after(() => api.close());
  const path = '/api/v1/namespaces/default/pods';
  const body = (name: string, tolerations?: Toleration[]) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: [{ name: 'c', image: 'nginx' }], ...(tolerations ? { tolerations } : {}) },
  });
  const tolerationsOf = (obj: Record<string, unknown>) =>
    (obj.spec as { tolerations?: Toleration[] }).tolerations;

  it('adds both defaults to a created pod, as read back', async () => {
    const res = await api.request('POST', path, { body: body('plain') });
    assert.equal(res.status, 201, res.text);
    const got = await api.request('GET', `${path}/plain`);
    assert.deepEqual(tolerationsOf(got.body), [def(NR), def(UR)]);
  });

  it('keeps a pod own toleration and adds only the missing one', async () => {
    const own = { key: UR, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 6000 };
    await api.request('POST', path, { body: body('own', [own]) });
    const got = await api.request('GET', `${path}/own`);
    assert.deepEqual(tolerationsOf(got.body), [own, def(NR)]);
  });

  it('adds nothing to a pod that tolerates every NoExecute taint', async () => {
    const all = { operator: 'Exists' };
    await api.request('POST', path, { body: body('all', [all]) });
    const got = await api.request('GET', `${path}/all`);
    assert.deepEqual(tolerationsOf(got.body), [all]);
  });

  it('shows the defaults in a dry-run answer, which persists nothing', async () => {
    const res = await api.request('POST', `${path}?dryRun=All`, { body: body('dry') });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(tolerationsOf(res.body), [def(NR), def(UR)]);
    assert.equal((await api.request('GET', `${path}/dry`)).status, 404);
  });

  it('adds the defaults to a pod created by server-side apply', async () => {
    const res = await api.request('PATCH', `${path}/applied?fieldManager=test`, {
      body: body('applied'),
      contentType: 'application/apply-patch+yaml',
    });
    assert.equal(res.status, 201, res.text);
    const got = await api.request('GET', `${path}/applied`);
    assert.deepEqual(tolerationsOf(got.body), [def(NR), def(UR)]);
  });

  it('puts the defaults back when an update drops them', async () => {
    const current = (await api.request('GET', `${path}/plain`)).body;
    const spec = current.spec as Record<string, unknown>;
    const res = await api.request('PUT', `${path}/plain`, {
      body: { ...current, spec: { ...spec, tolerations: [] } },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(tolerationsOf(res.body), [def(NR), def(UR)]);
  });
});

describe('defaultTolerationSeconds server option', () => {
  it('gives created pods the configured seconds', async () => {
    const server = new ApiServer({
      backend: createMemoryBackend(),
      resources: builtinResources,
      defaultNotReadyTolerationSeconds: 60,
      defaultUnreachableTolerationSeconds: 60,
    });
    const namespaces = server.registry.get('', 'v1', 'namespaces')!;
    const pods = server.registry.get('', 'v1', 'pods')!;
    await server.store.create(namespaces, '', { metadata: { name: 'default' } });
    const { object } = await server.store.create(pods, 'default', {
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    });
    assert.deepEqual((object.spec as { tolerations?: Toleration[] }).tolerations, [
      def(NR, 60),
      def(UR, 60),
    ]);
  });
});
