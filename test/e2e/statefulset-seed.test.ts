/**
 * The StatefulSet concept page's statements on a running `fleetyard up` (default flags), with
 * kubectl 1.33 and client-node pod informers that judge the ordering guarantees at every
 * observed event:
 * - the page's example (headless Service `nginx` + StatefulSet `web`, minReadySeconds 10, claims
 *   from a dynamically provisioning class): pods web-0..2 created in order, each only after its
 *   predecessor was Ready for minReadySeconds; stable identity (labels, hostname, subdomain),
 *   stable storage (`www-web-N`), the DNS table (namespaces `default` and `foo`), Endpoints and
 *   EndpointSlices with hostnames;
 * - scaling down in reverse order (each pod gone before its predecessor terminates), claims kept,
 *   and reattached on scale-up;
 * - OrderedReady halting on an unready predecessor (scale up and scale down);
 * - Parallel vs OrderedReady creation, `.spec.ordinals.start`, name and selector validation.
 * PVC retention policies are in `statefulset-retention.test.ts`.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { makeInformer, type V1Pod } from '@kubernetes/client-node';
import * as support from './testing/client-node-harness.js';
import { FLEETYARD_BIN } from './testing/cluster.js';
import { type Kubectl, kubectl } from './testing/kubectl.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON read-backs, checked by assertions
type Json = Record<string, any>;

const ordinalOf = (p: V1Pod): number => Number(/-(\d+)$/.exec(p.metadata?.name ?? '')?.[1]);
const readyCond = (p: V1Pod) => p.status?.conditions?.find((c) => c.type === 'Ready');
const isReady = (p: V1Pod | Json): boolean =>
  (p.status?.conditions ?? []).some((c: Json) => c.type === 'Ready' && c.status === 'True');
const sec = (t: Date | string | undefined): number =>
  t === undefined ? Number.NaN : Math.floor(new Date(t).getTime() / 1000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function uniqueIndexes(pods: readonly V1Pod[]): string[] {
  const idx = pods.map((p) => p.metadata?.labels?.['apps.kubernetes.io/pod-index']);
  return new Set(idx).size === idx.length ? [] : [`two pods with one pod-index: ${idx}`];
}

/** A new pod's predecessors all exist, are Ready, and were Ready for minReadySeconds. */
function createdAfterPredecessors(
  pod: V1Pod,
  pods: readonly V1Pod[],
  start: number,
  minReadySeconds: number,
): string[] {
  const name = pod.metadata?.name;
  const preds = pods.filter((q) => ordinalOf(q) < ordinalOf(pod));
  const out: string[] = [];
  if (preds.length !== ordinalOf(pod) - start)
    out.push(`${name} created with ${preds.length} predecessors`);
  for (const q of preds) {
    const since = sec(pod.metadata?.creationTimestamp) - sec(readyCond(q)?.lastTransitionTime);
    if (q.metadata?.deletionTimestamp || !isReady(q) || !(since >= minReadySeconds))
      out.push(`${name} created while ${q.metadata?.name} ready=${isReady(q)} for ${since}s`);
  }
  return out;
}

function statefulSet(name: string, spec: Json = {}, annotations?: Record<string, string>): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      serviceName: name,
      replicas: 3,
      template: {
        metadata: { labels: { app: name }, ...(annotations ? { annotations } : {}) },
        spec: { terminationGracePeriodSeconds: 0, containers: [{ name: 'main', image: 'web:v1' }] },
      },
      ...spec,
    },
  };
}

/** Upstream's StatefulSet documentation's example (`web`), verbatim apart from `replicas`/`minReadySeconds`. */
function seedExample(replicas: number, minReadySeconds: number): Json[] {
  const service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'nginx', labels: { app: 'nginx' } },
    spec: { ports: [{ port: 80, name: 'web' }], clusterIP: 'None', selector: { app: 'nginx' } },
  };
  const set = statefulSet('web', {
    selector: { matchLabels: { app: 'nginx' } },
    serviceName: 'nginx',
    replicas,
    minReadySeconds,
    template: {
      metadata: { labels: { app: 'nginx' } },
      spec: {
        terminationGracePeriodSeconds: 10,
        containers: [
          {
            name: 'nginx',
            image: 'registry.k8s.io/nginx-slim:0.24',
            ports: [{ containerPort: 80, name: 'web' }],
            volumeMounts: [{ name: 'www', mountPath: '/usr/share/nginx/html' }],
          },
        ],
      },
    },
    volumeClaimTemplates: [
      {
        metadata: { name: 'www' },
        spec: {
          accessModes: ['ReadWriteOnce'],
          storageClassName: 'my-storage-class',
          resources: { requests: { storage: '1Gi' } },
        },
      },
    ],
  });
  return [service, set];
}

describe('StatefulSet concept page (seed) on fleetyard up', () => {
  let h: support.Harness | undefined;
  let k: Kubectl;
  const kc = (ns: string, ...args: string[]) => k.ok(['-n', ns, ...args], { timeoutMs: 60_000 });
  const apply = (ns: string, ...items: Json[]) =>
    k.ok(['-n', ns, 'apply', '-f', '-'], {
      input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items }),
    });
  const get = async (ns: string, ...what: string[]): Promise<Json> =>
    JSON.parse(await kc(ns, 'get', ...what, '-o', 'json')) as Json;
  const podsOf = async (ns: string, app: string): Promise<Json[]> =>
    ((await get(ns, 'pods', '-l', `app=${app}`)).items as Json[]).sort(
      (a, b) => ordinalOf(a as V1Pod) - ordinalOf(b as V1Pod),
    );
  const fleetyard = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [FLEETYARD_BIN, ...args, '--kubeconfig', h!.cluster.kubeconfig],
        { timeout: 30_000 },
        (err, stdout, stderr) =>
          resolve({
            code: err ? (typeof err.code === 'number' ? err.code : 1) : 0,
            stdout,
            stderr,
          }),
      );
    });
  const waitPods = (
    ns: string,
    app: string,
    what: string,
    ok: (p: Json[]) => boolean,
    ms = 40_000,
  ) => support.waitFor(what, async () => ok(await podsOf(ns, app)), { timeoutMs: ms });
  const readyNames = (pods: Json[]) =>
    pods.filter((p) => isReady(p) && !p.metadata.deletionTimestamp).map((p) => p.metadata.name);

  /**
   * Watches the pods `app=<app>` and checks after every event: no two pods with one pod-index;
   * under OrderedReady a new pod's predecessors all exist, are Ready, and were Ready for
   * `minReadySeconds` before it was created; a pod starts terminating only when no successor
   * is left.
   */
  async function watchOrdered(ns: string, app: string, minReadySeconds: number, start = 0) {
    const labelSelector = `app=${app}`;
    const list = () => h!.core.listNamespacedPod({ namespace: ns, labelSelector });
    const informer = makeInformer(h!.kc, `/api/v1/namespaces/${ns}/pods`, list, labelSelector);
    const violations: string[] = [];
    const seenTerminating = new Set<string>();
    const created: string[] = [];
    let listed = false;
    const check = (verb: string) => (pod: V1Pod) => {
      if (!listed) return;
      const pods = informer.list(ns);
      violations.push(...uniqueIndexes(pods));
      if (verb === 'add') {
        created.push(pod.metadata?.name ?? '');
        violations.push(...createdAfterPredecessors(pod, pods, start, minReadySeconds));
      }
      const uid = pod.metadata?.uid ?? '';
      if (verb !== 'delete' && pod.metadata?.deletionTimestamp && !seenTerminating.has(uid)) {
        seenTerminating.add(uid);
        const succ = pods.filter((q) => ordinalOf(q) > ordinalOf(pod)).map((q) => q.metadata?.name);
        if (succ.length > 0) violations.push(`${pod.metadata?.name} terminating before ${succ}`);
      }
    };
    informer.on('add', check('add'));
    informer.on('update', check('update'));
    informer.on('delete', check('delete'));
    await informer.start();
    listed = true;
    return { violations, created, stop: () => informer.stop() };
  }

  before(async () => {
    h = await support.startHarness();
    const found = kubectl('1.33', h.cluster.kubeconfig);
    assert.ok(found, 'kubectl.1.33 is needed');
    k = found;
    for (const ns of ['foo', 'halt', 'policy']) await support.createNamespace(h, ns);
    await k.ok(['apply', '-f', '-'], {
      input: JSON.stringify({
        apiVersion: 'storage.k8s.io/v1',
        kind: 'StorageClass',
        metadata: { name: 'my-storage-class' },
        provisioner: 'ebs.csi.aws.com',
        volumeBindingMode: 'WaitForFirstConsumer',
        reclaimPolicy: 'Delete',
      }),
    });
  });
  after(() => support.stopHarness(h));

  it('the example: ordered creation after minReadySeconds, stable identity, storage and DNS', async () => {
    const w = await watchOrdered('default', 'nginx', 10);
    try {
      await apply('default', ...seedExample(3, 10));
      await waitPods(
        'default',
        'nginx',
        'web-0..2 Ready',
        (p) => readyNames(p).length === 3,
        60_000,
      );
    } finally {
      await w.stop();
    }
    assert.deepEqual(w.violations, []);
    assert.deepEqual(w.created, ['web-0', 'web-1', 'web-2']);
    const pods = await podsOf('default', 'nginx');
    for (const [i, p] of pods.entries()) {
      assert.equal(p.metadata.name, `web-${i}`);
      assert.equal(p.metadata.labels['statefulset.kubernetes.io/pod-name'], `web-${i}`);
      assert.equal(p.metadata.labels['apps.kubernetes.io/pod-index'], String(i));
      assert.equal(p.spec.hostname, `web-${i}`);
      assert.equal(p.spec.subdomain, 'nginx');
      const vol = (p.spec.volumes as Json[]).find((v) => v.name === 'www');
      assert.equal(vol?.persistentVolumeClaim?.claimName, `www-web-${i}`);
      const prev = pods[i - 1];
      if (prev) {
        const gap =
          sec(p.metadata.creationTimestamp) - sec(readyCond(prev as V1Pod)?.lastTransitionTime);
        assert.ok(gap >= 10, `web-${i} created ${gap}s after web-${i - 1} became Ready`);
      }
    }
    for (const i of [0, 1, 2]) {
      const pvc = await get('default', 'pvc', `www-web-${i}`);
      assert.equal(pvc.status.phase, 'Bound');
      assert.equal(pvc.spec.storageClassName, 'my-storage-class');
      assert.equal(pvc.status.capacity.storage, '1Gi');
      assert.deepEqual(pvc.spec.accessModes, ['ReadWriteOnce']);
    }
    // The StatefulSet documentation's DNS table, row 1 (namespace default) and row 2 (namespace foo).
    await apply('foo', ...seedExample(2, 0));
    await waitPods('foo', 'nginx', 'foo/web-0..1 Ready', (p) => readyNames(p).length === 2);
    for (const [ns, count] of [
      ['default', 3],
      ['foo', 2],
    ] as const) {
      const ips = (await podsOf(ns, 'nginx')).map((p) => p.status.podIP as string);
      assert.equal(ips.length, count);
      const svc = await fleetyard('dns', `nginx.${ns}.svc.cluster.local`);
      assert.equal(svc.code, 0, svc.stderr);
      assert.deepEqual(svc.stdout.trim().split('\n').sort(), [...ips].sort());
      for (const [i, ip] of ips.entries()) {
        const one = await fleetyard('dns', `web-${i}.nginx.${ns}.svc.cluster.local`);
        assert.equal(one.code, 0, one.stderr);
        assert.deepEqual(one.stdout.trim().split('\n'), [ip]);
      }
    }
    const absent = await fleetyard('dns', 'web-5.nginx.default.svc.cluster.local');
    assert.equal(absent.code, 1);
    const hostnames = ['web-0/web-0', 'web-1/web-1', 'web-2/web-2'];
    const ep = await get('default', 'endpoints', 'nginx');
    const addrs = (ep.subsets as Json[]).flatMap((s) => s.addresses as Json[]);
    assert.deepEqual(addrs.map((a) => `${a.hostname}/${a.targetRef.name}`).sort(), hostnames);
    const slices = await get('default', 'endpointslices', '-l', 'kubernetes.io/service-name=nginx');
    const eps = (slices.items as Json[]).flatMap((s) => s.endpoints as Json[]);
    assert.deepEqual(eps.map((e) => `${e.hostname}/${e.targetRef.name}`).sort(), hostnames);
  });

  it('scales down in reverse order, keeps the claims, and reattaches them on scale-up', async () => {
    const before = new Map<string, Json>();
    for (const i of [1, 2]) before.set(`www-web-${i}`, await get('default', 'pvc', `www-web-${i}`));
    const w = await watchOrdered('default', 'nginx', 10);
    try {
      await kc('default', 'patch', 'statefulset', 'web', '-p', '{"spec":{"replicas":1}}');
      await waitPods('default', 'nginx', 'only web-0', (p) => p.length === 1);
      for (const name of before.keys()) {
        const pvc = await get('default', 'pvc', name);
        assert.equal(pvc.metadata.uid, before.get(name)!.metadata.uid, `${name} kept`);
        assert.equal(pvc.status.phase, 'Bound');
      }
      await kc('default', 'patch', 'statefulset', 'web', '-p', '{"spec":{"replicas":3}}');
      await waitPods(
        'default',
        'nginx',
        'web-0..2 Ready again',
        (p) => readyNames(p).length === 3,
        40_000,
      );
    } finally {
      await w.stop();
    }
    assert.deepEqual(w.violations, []);
    assert.deepEqual(w.created, ['web-1', 'web-2']);
    for (const [name, old] of before) {
      const pvc = await get('default', 'pvc', name);
      assert.equal(pvc.metadata.uid, old.metadata.uid);
      assert.equal(pvc.spec.volumeName, old.spec.volumeName);
    }
    for (const p of await podsOf('default', 'nginx')) {
      const vol = (p.spec.volumes as Json[]).find((v) => v.name === 'www');
      assert.equal(vol?.persistentVolumeClaim?.claimName, `www-${p.metadata.name}`);
    }
  });

  it('OrderedReady halts while a predecessor is not Ready, on scale-up and scale-down', async () => {
    await apply('halt', statefulSet('halt', { replicas: 2 }));
    await waitPods('halt', 'halt', 'halt-0..1 Ready', (p) => readyNames(p).length === 2);
    const w = await watchOrdered('halt', 'halt', 0);
    try {
      const chaos = await fleetyard('chaos', 'break-readiness', 'halt-0', '-n', 'halt');
      assert.equal(chaos.code, 0, chaos.stderr);
      await waitPods('halt', 'halt', 'halt-0 not Ready', (p) => !readyNames(p).includes('halt-0'));
      await kc('halt', 'patch', 'statefulset', 'halt', '-p', '{"spec":{"replicas":3}}');
      await sleep(3000);
      assert.deepEqual(
        (await podsOf('halt', 'halt')).map((p) => p.metadata.name),
        ['halt-0', 'halt-1'],
      );
      await fleetyard('chaos', 'restore-readiness', 'halt-0', '-n', 'halt');
      await waitPods('halt', 'halt', 'halt-0..2 Ready', (p) => readyNames(p).length === 3);
      // Scale-down counterpart: nothing terminates while halt-0 is not Ready.
      await fleetyard('chaos', 'break-readiness', 'halt-0', '-n', 'halt');
      await waitPods('halt', 'halt', 'halt-0 not Ready', (p) => !readyNames(p).includes('halt-0'));
      await kc('halt', 'patch', 'statefulset', 'halt', '-p', '{"spec":{"replicas":1}}');
      await sleep(3000);
      const held = await podsOf('halt', 'halt');
      assert.deepEqual(
        held.filter((p) => !p.metadata.deletionTimestamp).map((p) => p.metadata.name),
        ['halt-0', 'halt-1', 'halt-2'],
      );
      await fleetyard('chaos', 'restore-readiness', 'halt-0', '-n', 'halt');
      await waitPods(
        'halt',
        'halt',
        'only halt-0',
        (p) => p.length === 1 && readyNames(p).length === 1,
      );
    } finally {
      await w.stop();
    }
    assert.deepEqual(w.violations, []);
    assert.deepEqual(w.created, ['halt-2']);
  });

  it('Parallel creates every pod at once; OrderedReady only the first while it is unready', async () => {
    const unready = { 'sim.fleetyard.dev/ready': 'false' };
    await apply(
      'policy',
      statefulSet('par', { replicas: 4, podManagementPolicy: 'Parallel' }, unready),
    );
    await apply('policy', statefulSet('ord', { replicas: 4 }, unready));
    await waitPods('policy', 'par', 'par-0..3', (p) => p.length === 4);
    const par = await podsOf('policy', 'par');
    assert.deepEqual(
      par.map((p) => p.metadata.name),
      ['par-0', 'par-1', 'par-2', 'par-3'],
    );
    assert.deepEqual(readyNames(par), []);
    await waitPods('policy', 'ord', 'ord-0', (p) => p.length >= 1);
    await sleep(2000);
    const ord = await podsOf('policy', 'ord');
    assert.deepEqual(
      ord.map((p) => p.metadata.name),
      ['ord-0'],
    );
    assert.deepEqual(readyNames(ord), []);
  });

  it('.spec.ordinals.start numbers the pods from the start ordinal', async () => {
    const w = await watchOrdered('policy', 'five', 0, 5);
    try {
      await apply('policy', statefulSet('five', { replicas: 3, ordinals: { start: 5 } }));
      await waitPods('policy', 'five', 'five-5..7 Ready', (p) => readyNames(p).length === 3);
    } finally {
      await w.stop();
    }
    assert.deepEqual(w.violations, []);
    const pods = await podsOf('policy', 'five');
    assert.deepEqual(
      pods.map((p) => p.metadata.name),
      ['five-5', 'five-6', 'five-7'],
    );
    assert.deepEqual(
      pods.map((p) => p.metadata.labels['apps.kubernetes.io/pod-index']),
      ['5', '6', '7'],
    );
  });

  it('refuses a selector that does not match the template, and a name that is not a DNS label', async () => {
    const mismatch = statefulSet('mismatch');
    mismatch.spec.selector = { matchLabels: { app: 'other' } };
    const r1 = await k.run(['-n', 'policy', 'create', '-f', '-'], {
      input: JSON.stringify(mismatch),
    });
    assert.notEqual(r1.code, 0);
    assert.match(r1.stderr, /The StatefulSet "mismatch" is invalid/);
    assert.match(r1.stderr, /`selector` does not match template `labels`/);
    const r2 = await k.run(['-n', 'policy', 'create', '-f', '-'], {
      input: JSON.stringify(statefulSet('web.v1')),
    });
    assert.notEqual(r2.code, 0);
    assert.match(r2.stderr, /The StatefulSet "web.v1" is invalid: metadata.name/);
    assert.match(r2.stderr, /must not contain dots/);
    const r3 = await k.run(['-n', 'policy', 'create', '-f', '-'], {
      input: JSON.stringify(statefulSet('web_1')),
    });
    assert.notEqual(r3.code, 0);
    assert.match(r3.stderr, /"web_1" is invalid: metadata.name: .*a lowercase RFC 1123 label/);
    const left = await kc('policy', 'get', 'statefulsets', '-o', 'name');
    assert.doesNotMatch(left, /mismatch|web\.v1|web_1/);
  });
});
