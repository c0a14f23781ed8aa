/**
 * `@kubernetes/client-node` 1.4 against the real `fleetyard up --ephemeral` (one process per
 * suite): the informer (`makeInformer` → `ListWatch`) across server-side watch closes and a
 * forced compaction (k8s-wire §11, §20; style habit 7), and generic plus typed CRUD.
 *
 * The informer is observed from both ends: client-side through its callbacks, the wrapped
 * `listFn` and the `connect` event (fired once per (re)connect, before a list when one is
 * needed), server-side through `apiserver_request_total` on `/metrics`.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { after, before, describe, it } from 'node:test';
import {
  ApiException,
  AppsV1Api,
  CoreV1Api,
  createConfiguration,
  type Informer,
  KubeConfig,
  type KubernetesObject,
  KubernetesObjectApi,
  makeInformer,
  type ObjectCache,
  PatchStrategy,
  ServerConfiguration,
  setHeaderOptions,
  type V1ConfigMap,
  type V1Deployment,
  type V1Status,
} from '@kubernetes/client-node';
import { type Cluster, startCluster } from './support/cluster.js';

// ---------------------------------------------------------------------------------------------
// Harness

interface Harness {
  readonly cluster: Cluster;
  readonly kc: KubeConfig;
  readonly core: CoreV1Api;
  readonly apps: AppsV1Api;
  readonly objects: KubernetesObjectApi;
}

async function startHarness(args: readonly string[] = []): Promise<Harness> {
  const cluster = await startCluster({ ephemeral: true, args });
  const kc = new KubeConfig();
  kc.loadFromFile(cluster.kubeconfig);
  return {
    cluster,
    kc,
    core: kc.makeApiClient(CoreV1Api),
    apps: kc.makeApiClient(AppsV1Api),
    objects: KubernetesObjectApi.makeApiClient(kc),
  };
}

async function stopHarness(h: Harness | undefined): Promise<void> {
  if (h === undefined) return;
  const code = await h.cluster.stop();
  h.cluster.cleanup();
  assert.equal(code, 0, `fleetyard up exited with ${code}; stderr:\n${h.cluster.stderr()}`);
}

async function createNamespace(h: Harness, name: string): Promise<void> {
  await h.core.createNamespace({ body: { metadata: { name } } });
}

/** Polls `check` until it returns true; fails with `what` (and `detail()`) after the deadline. */
async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  options: { timeoutMs?: number; detail?: () => string } = {},
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) {
      throw new Error(
        `timed out waiting for ${what}${options.detail ? `: ${options.detail()}` : ''}`,
      );
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A GET with the cluster's CA and token; resolves with the status and the whole body. */
function rawGet(
  cluster: Cluster,
  path: string,
  timeoutMs = 10_000,
): Promise<{ status: number; body: string }> {
  const url = new URL(path, cluster.url);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { ca: cluster.ca, headers: { authorization: `Bearer ${cluster.token}` }, timeout: timeoutMs },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`GET ${path}: no end within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

/** `apiserver_request_total{verb,resource}` summed over codes, from the server's `/metrics`. */
async function serverRequests(cluster: Cluster, verb: string, resource: string): Promise<number> {
  const { status, body } = await rawGet(cluster, '/metrics');
  assert.equal(status, 200, body);
  let total = 0;
  for (const line of body.split('\n')) {
    if (!line.startsWith('apiserver_request_total{')) continue;
    if (!line.includes(`verb="${verb}"`) || !line.includes(`resource="${resource}"`)) continue;
    total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

// ---------------------------------------------------------------------------------------------
// A recorded informer

type Verb = 'add' | 'update' | 'delete';

interface InformerEvent {
  readonly verb: Verb;
  readonly name: string;
  readonly resourceVersion: string;
  readonly data: Readonly<Record<string, string>>;
}

interface RecordedInformer {
  readonly informer: Informer<V1ConfigMap> & ObjectCache<V1ConfigMap>;
  readonly events: InformerEvent[];
  readonly errors: unknown[];
  /** Calls of the wrapped listFn (each is one relist). */
  lists(): number;
  /** `connect` callbacks: the first start plus one per reconnect. */
  connects(): number;
  of(verb: Verb, name: string): InformerEvent[];
}

function recordInformer(h: Harness, namespace: string): RecordedInformer {
  let lists = 0;
  let connects = 0;
  const events: InformerEvent[] = [];
  const errors: unknown[] = [];
  const informer = makeInformer<V1ConfigMap>(
    h.kc,
    `/api/v1/namespaces/${namespace}/configmaps`,
    () => {
      lists++;
      return h.core.listNamespacedConfigMap({ namespace });
    },
  );
  const record =
    (verb: Verb) =>
    (obj: V1ConfigMap): void => {
      events.push({
        verb,
        name: obj.metadata?.name ?? '',
        resourceVersion: obj.metadata?.resourceVersion ?? '',
        data: { ...(obj.data ?? {}) },
      });
    };
  informer.on('add', record('add'));
  informer.on('update', record('update'));
  informer.on('delete', record('delete'));
  informer.on('connect', () => {
    connects++;
  });
  informer.on('error', (err: unknown) => {
    errors.push(err);
  });
  return {
    informer,
    events,
    errors,
    lists: () => lists,
    connects: () => connects,
    of: (verb, name) => events.filter((e) => e.verb === verb && e.name === name),
  };
}

/** name → resourceVersion + data, for comparing the informer cache with the server. */
function snapshot(items: readonly V1ConfigMap[]): Map<string, { rv: string; data: unknown }> {
  const out = new Map<string, { rv: string; data: unknown }>();
  for (const cm of [...items].sort((a, b) =>
    (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
  )) {
    out.set(cm.metadata?.name ?? '', {
      rv: cm.metadata?.resourceVersion ?? '',
      data: cm.data ?? {},
    });
  }
  return out;
}

async function assertCacheMatchesServer(
  h: Harness,
  rec: RecordedInformer,
  namespace: string,
): Promise<void> {
  const server = await h.core.listNamespacedConfigMap({ namespace });
  assert.deepEqual(snapshot(rec.informer.list(namespace)), snapshot(server.items));
}

function configMap(namespace: string, name: string, data: Record<string, string>): V1ConfigMap {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data };
}

// ---------------------------------------------------------------------------------------------

describe('client-node informer', () => {
  let h: Harness | undefined;
  before(async () => {
    h = await startHarness();
  });
  after(() => stopHarness(h));

  it('sees add, update and delete, and its cache follows', async () => {
    const { core } = h!;
    const ns = 'informer-basic';
    await createNamespace(h!, ns);
    await createNamespace(h!, 'informer-other');
    await core.createNamespacedConfigMap({ namespace: ns, body: configMap(ns, 'pre', { v: '0' }) });

    const rec = recordInformer(h!, ns);
    await rec.informer.start();
    try {
      await waitFor('the listed object as add', () => rec.of('add', 'pre').length === 1);
      assert.equal(rec.lists(), 1);

      const created = await core.createNamespacedConfigMap({
        namespace: ns,
        body: configMap(ns, 'a', { v: '1' }),
      });
      await core.createNamespacedConfigMap({
        namespace: 'informer-other',
        body: configMap('informer-other', 'a', { v: 'elsewhere' }),
      });
      await waitFor('add of a', () => rec.of('add', 'a').length === 1);
      assert.deepEqual(rec.of('add', 'a')[0], {
        verb: 'add',
        name: 'a',
        resourceVersion: created.metadata?.resourceVersion,
        data: { v: '1' },
      });
      assert.deepEqual(rec.informer.get('a', ns)?.data, { v: '1' });

      const updated = await core.replaceNamespacedConfigMap({
        name: 'a',
        namespace: ns,
        body: { ...configMap(ns, 'a', { v: '2' }), metadata: created.metadata },
      });
      assert.ok(
        Number(updated.metadata?.resourceVersion) > Number(created.metadata?.resourceVersion),
      );
      await waitFor('update of a', () => rec.of('update', 'a').length === 1);
      assert.deepEqual(rec.of('update', 'a')[0], {
        verb: 'update',
        name: 'a',
        resourceVersion: updated.metadata?.resourceVersion,
        data: { v: '2' },
      });
      assert.equal(
        rec.informer.get('a', ns)?.metadata?.resourceVersion,
        updated.metadata?.resourceVersion,
      );
      assert.deepEqual(rec.informer.get('a', ns)?.data, { v: '2' });

      await core.deleteNamespacedConfigMap({ name: 'a', namespace: ns });
      await waitFor('delete of a', () => rec.of('delete', 'a').length === 1);
      assert.deepEqual(rec.of('delete', 'a')[0]?.data, { v: '2' });
      assert.equal(rec.informer.get('a', ns), undefined);
      assert.deepEqual(
        rec.informer.list(ns).map((o) => o.metadata?.name),
        ['pre'],
      );

      // Exactly these callbacks: nothing from the other namespace, no duplicates.
      assert.deepEqual(
        rec.events.map((e) => `${e.verb} ${e.name}`),
        ['add pre', 'add a', 'update a', 'delete a'],
      );
      assert.deepEqual(rec.errors, []);
      assert.equal(rec.lists(), 1);
      await assertCacheMatchesServer(h!, rec, ns);
    } finally {
      await rec.informer.stop();
    }
  });
});

describe('client-node informer across server-side watch closes (--min-request-timeout 1)', () => {
  let h: Harness | undefined;
  before(async () => {
    h = await startHarness(['--min-request-timeout', '1']);
  });
  after(() => stopHarness(h));

  it('resumes at the last resourceVersion without a relist and misses no update', async () => {
    const { core } = h!;
    const ns = 'informer-resume';
    await createNamespace(h!, ns);
    await core.createNamespacedConfigMap({
      namespace: ns,
      body: configMap(ns, 'counter', { n: '0' }),
    });

    const rec = recordInformer(h!, ns);
    await rec.informer.start();
    /** Every resourceVersion the server acknowledged for a create or update in `ns`. */
    const acknowledged: string[] = [];
    let writing = true;
    let writeError: unknown;
    const writer = (async () => {
      for (let i = 1; writing; i++) {
        const cm = await core.patchNamespacedConfigMap(
          { name: 'counter', namespace: ns, body: { data: { n: String(i) } } },
          setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
        );
        acknowledged.push(cm.metadata?.resourceVersion ?? '');
        if (i % 5 === 0) {
          const extra = await core.createNamespacedConfigMap({
            namespace: ns,
            body: configMap(ns, `extra-${i}`, { i: String(i) }),
          });
          acknowledged.push(extra.metadata?.resourceVersion ?? '');
        }
        if (i % 10 === 0)
          await core.deleteNamespacedConfigMap({ name: `extra-${i - 5}`, namespace: ns });
        await new Promise((r) => setTimeout(r, 2));
      }
    })().catch((e: unknown) => {
      writeError = e;
    });
    try {
      // Three connects = the first watch plus two reconnects after server-side closes.
      await waitFor(
        'two server-side watch closes',
        () => rec.connects() >= 3 || writeError !== undefined,
        {
          timeoutMs: 15_000,
          detail: () => `connects=${rec.connects()} lists=${rec.lists()}`,
        },
      );
      writing = false;
      await writer;
      assert.equal(writeError, undefined);
      const missed = (): string[] => {
        const seen = new Set(rec.events.map((e) => e.resourceVersion));
        return acknowledged.filter((rv) => !seen.has(rv));
      };
      await waitFor(
        'every acknowledged write as an informer callback',
        () => missed().length === 0,
        {
          detail: () =>
            `missed ${missed().length} of ${acknowledged.length} writes across ${rec.connects() - 1} reconnects, e.g. resourceVersions ${missed().slice(0, 10).join(', ')}`,
        },
      );

      assert.equal(rec.lists(), 1, 'a normal close must be resumed by a watch, not a relist');
      assert.deepEqual(rec.errors, []);
      // Each resourceVersion is delivered once: a resume starts after the last event seen.
      const counterRvs = rec.events
        .filter((e) => e.name === 'counter')
        .map((e) => e.resourceVersion);
      assert.equal(new Set(counterRvs).size, counterRvs.length);
      assert.deepEqual(
        counterRvs.map(Number),
        [...counterRvs.map(Number)].sort((a, b) => a - b),
      );
      await assertCacheMatchesServer(h!, rec, ns);
      assert.ok(acknowledged.length >= 10, `only ${acknowledged.length} writes`);

      // The server saw exactly one informer list (plus the one assertCacheMatchesServer made)
      // and one watch request per connect (the callback fires just before the request).
      assert.equal(await serverRequests(h!.cluster, 'list', 'configmaps'), 2);
      const connectsBefore = rec.connects();
      const watches = await serverRequests(h!.cluster, 'watch', 'configmaps');
      const connectsAfter = rec.connects();
      assert.ok(
        watches >= connectsBefore - 1 && watches <= connectsAfter,
        `server saw ${watches} watches, informer connected ${connectsBefore}..${connectsAfter} times`,
      );
    } finally {
      writing = false;
      await writer;
      await rec.informer.stop();
    }
  });
});

describe('client-node informer after a forced compaction (--history-limit 20)', () => {
  const HISTORY = 20;
  let h: Harness | undefined;
  before(async () => {
    h = await startHarness(['--history-limit', String(HISTORY), '--min-request-timeout', '1']);
  });
  after(() => stopHarness(h));

  it('relists exactly once on 410 Expired and keeps a correct cache', async () => {
    const { core } = h!;
    const a = 'compact-a';
    const b = 'compact-b';
    await createNamespace(h!, a);
    await createNamespace(h!, b);
    for (const name of ['keep', 'change', 'gone']) {
      await core.createNamespacedConfigMap({ namespace: a, body: configMap(a, name, { v: '0' }) });
    }

    const rec = recordInformer(h!, a);
    await rec.informer.start();
    try {
      await waitFor('the initial list', () => rec.informer.list(a).length === 3);
      // Changes in A while the informer watches: the last one is the informer's revision.
      await core.patchNamespacedConfigMap(
        { name: 'change', namespace: a, body: { data: { v: '1' } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      await core.deleteNamespacedConfigMap({ name: 'gone', namespace: a });
      const added = await core.createNamespacedConfigMap({
        namespace: a,
        body: configMap(a, 'new', { v: '1' }),
      });
      const oldRevision = Number(added.metadata?.resourceVersion);
      await waitFor(
        'the informer to see the changes in A',
        () => rec.of('add', 'new').length === 1,
      );
      assert.equal(rec.lists(), 1);

      // Push the informer's revision out of the history window from another namespace.
      for (let i = 0; i < HISTORY * 2; i++) {
        await core.createNamespacedConfigMap({ namespace: b, body: configMap(b, `fill-${i}`, {}) });
      }

      // The next reconnect gets 410 Expired and relists once.
      await waitFor('the relist after 410 Expired', () => rec.lists() >= 2, {
        timeoutMs: 15_000,
        detail: () => `lists=${rec.lists()} connects=${rec.connects()} errors=${rec.errors.length}`,
      });
      const connectsAtRelist = rec.connects();
      const callbacksAtRelist = rec.events.length;

      // A change after the relist arrives through the watch.
      const kept = await core.patchNamespacedConfigMap(
        { name: 'keep', namespace: a, body: { data: { v: '2' } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      await waitFor('update of keep after the relist', () => rec.of('update', 'keep').length === 1);
      assert.equal(rec.of('update', 'keep')[0]?.resourceVersion, kept.metadata?.resourceVersion);

      // A few more server-side closes: resumed by watches at a current revision, no relist loop.
      await waitFor('three more reconnects', () => rec.connects() >= connectsAtRelist + 3, {
        timeoutMs: 15_000,
        detail: () => `lists=${rec.lists()} connects=${rec.connects()}`,
      });
      assert.equal(rec.lists(), 2, 'one 410 must cause exactly one relist');
      assert.deepEqual(rec.errors, []);

      // The relist found the cache already current: no callbacks came from it, and every
      // change was reported exactly once.
      assert.equal(
        callbacksAtRelist,
        3 + 3,
        rec.events.map((e) => `${e.verb} ${e.name}`).join(', '),
      );
      assert.deepEqual(rec.events.map((e) => `${e.verb} ${e.name}`).sort(), [
        'add change',
        'add gone',
        'add keep',
        'add new',
        'delete gone',
        'update change',
        'update keep',
      ]);
      assert.deepEqual(rec.informer.get('change', a)?.data, { v: '1' });
      assert.deepEqual(rec.informer.get('keep', a)?.data, { v: '2' });
      assert.equal(rec.informer.get('gone', a), undefined);
      await assertCacheMatchesServer(h!, rec, a);

      // The wire shape behind it (§11.4): HTTP 200, one ERROR event with a 410 Expired Status,
      // then the end of the stream.
      const { status, body } = await rawGet(
        h!.cluster,
        `/api/v1/namespaces/${a}/configmaps?watch=true&resourceVersion=${oldRevision}`,
      );
      assert.equal(status, 200);
      const lines = body.split('\n').filter((l) => l !== '');
      assert.equal(lines.length, 1, body);
      const event = JSON.parse(lines[0]!) as { type: string; object: V1Status };
      assert.equal(event.type, 'ERROR');
      assert.equal(event.object.kind, 'Status');
      assert.equal(event.object.code, 410);
      assert.equal(event.object.reason, 'Expired');
      assert.match(event.object.message ?? '', /too old resource version/);
    } finally {
      await rec.informer.stop();
    }
  });
});

// ---------------------------------------------------------------------------------------------

/**
 * A `KubernetesObjectApi` whose PATCH requests carry `ops` as the body. `patch()` serializes
 * its `spec` argument (an object: it also names the target) as the body, so a JSON patch (an
 * array) needs a request middleware.
 */
function jsonPatchApi(kc: KubeConfig, ops: readonly unknown[]): KubernetesObjectApi {
  const cluster = kc.getCurrentCluster();
  assert.ok(cluster);
  return new KubernetesObjectApi(
    createConfiguration({
      baseServer: new ServerConfiguration(cluster.server, {}),
      authMethods: { default: kc },
      promiseMiddleware: [
        {
          pre: async (ctx) => {
            if (ctx.getHttpMethod() === 'PATCH') ctx.setBody(JSON.stringify(ops));
            return ctx;
          },
          post: async (rsp) => rsp,
        },
      ],
    }),
  );
}

/** The Status carried by an ApiException (client-node 1.x keeps it as the raw JSON body). */
async function expectApiError(promise: Promise<unknown>, code: number): Promise<V1Status> {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof ApiException, `not an ApiException: ${String(e)}`);
    assert.equal(e.code, code, String(e.body));
    assert.equal(typeof e.body, 'string');
    return JSON.parse(e.body as string) as V1Status;
  }
  assert.fail(`expected HTTP ${code}`);
}

function deployment(namespace: string, name: string, replicas = 1): V1Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace, labels: { suite: 'objects' } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
      },
    },
  };
}

type Header = KubernetesObject & { metadata: { name: string; namespace: string } };

function headerOf(obj: KubernetesObject): Header {
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    metadata: { name: obj.metadata?.name ?? '', namespace: obj.metadata?.namespace ?? '' },
  };
}

describe('client-node KubernetesObjectApi and typed APIs', () => {
  const ns = 'objects';
  let h: Harness | undefined;
  before(async () => {
    h = await startHarness();
    await createNamespace(h, ns);
  });
  after(() => stopHarness(h));

  it('does generic CRUD on a ConfigMap', async () => {
    const { objects, kc } = h!;
    const created = await objects.create<V1ConfigMap>({
      ...configMap(ns, 'generic', { a: '1', b: '2' }),
      metadata: { name: 'generic', namespace: ns, labels: { suite: 'objects' } },
    });
    assert.equal(created.kind, 'ConfigMap');
    assert.ok(created.metadata?.uid);
    assert.match(created.metadata?.resourceVersion ?? '', /^[1-9][0-9]*$/);
    const rv0 = Number(created.metadata?.resourceVersion);

    const read = await objects.read<V1ConfigMap>(headerOf(created));
    assert.deepEqual(read.data, { a: '1', b: '2' });
    assert.equal(read.metadata?.uid, created.metadata?.uid);
    assert.equal(read.metadata?.resourceVersion, created.metadata?.resourceVersion);

    const listed = await objects.list<V1ConfigMap>(
      'v1',
      'ConfigMap',
      ns,
      undefined,
      undefined,
      undefined,
      undefined,
      'suite=objects',
    );
    assert.deepEqual(
      listed.items.map((i) => i.metadata?.name),
      ['generic'],
    );
    assert.ok(Number(listed.metadata?.resourceVersion) >= rv0);

    const replaced = await objects.replace<V1ConfigMap>({ ...read, data: { a: '10' } });
    assert.deepEqual(replaced.data, { a: '10' });
    const rv1 = Number(replaced.metadata?.resourceVersion);
    assert.ok(rv1 > rv0);
    // A replace carrying the old resourceVersion is a conflict.
    const conflict = await expectApiError(objects.replace({ ...read, data: { a: 'stale' } }), 409);
    assert.equal(conflict.reason, 'Conflict');

    const merged = await objects.patch<V1ConfigMap>(
      { ...headerOf(created), data: { c: '3' } },
      undefined,
      undefined,
      undefined,
      undefined,
      PatchStrategy.MergePatch,
    );
    assert.deepEqual(merged.data, { a: '10', c: '3' });
    const rv2 = Number(merged.metadata?.resourceVersion);
    assert.ok(rv2 > rv1);

    const jsonPatched = await jsonPatchApi(kc, [
      { op: 'test', path: '/data/a', value: '10' },
      { op: 'remove', path: '/data/a' },
      { op: 'add', path: '/data/d', value: '4' },
    ]).patch<V1ConfigMap>(
      headerOf(created),
      undefined,
      undefined,
      undefined,
      undefined,
      PatchStrategy.JsonPatch,
    );
    assert.deepEqual(jsonPatched.data, { c: '3', d: '4' });
    assert.ok(Number(jsonPatched.metadata?.resourceVersion) > rv2);
    // A failing `test` op changes nothing.
    await expectApiError(
      jsonPatchApi(kc, [{ op: 'test', path: '/data/c', value: 'nope' }]).patch(
        headerOf(created),
        undefined,
        undefined,
        undefined,
        undefined,
        PatchStrategy.JsonPatch,
      ),
      422,
    );
    assert.deepEqual((await objects.read<V1ConfigMap>(headerOf(created))).data, { c: '3', d: '4' });

    await objects.delete(headerOf(created));
    const gone = await expectApiError(objects.read(headerOf(created)), 404);
    assert.equal(gone.reason, 'NotFound');
  });

  it('does generic CRUD on an apps/v1 Deployment', async () => {
    const { objects, kc } = h!;
    const created = await objects.create(deployment(ns, 'web', 1));
    assert.equal(created.kind, 'Deployment');
    assert.equal(created.apiVersion, 'apps/v1');
    assert.equal(created.metadata?.generation, 1);

    const read = await objects.read<V1Deployment>(headerOf(created));
    assert.equal(read.spec?.replicas, 1);
    assert.equal(read.spec?.template.spec?.containers[0]?.image, 'nginx:1.27');

    const listed = await objects.list<V1Deployment>('apps/v1', 'Deployment', ns);
    assert.deepEqual(
      listed.items.map((i) => i.metadata?.name),
      ['web'],
    );

    const replaced = await objects.replace<V1Deployment>({
      ...read,
      spec: { ...read.spec!, replicas: 2 },
    });
    assert.equal(replaced.spec?.replicas, 2);
    assert.equal(replaced.metadata?.generation, 2);

    const mergePatch = (metadata: Record<string, unknown>): Promise<V1Deployment> =>
      objects.patch<V1Deployment>(
        { ...headerOf(created), metadata: { ...headerOf(created).metadata, ...metadata } },
        undefined,
        undefined,
        undefined,
        undefined,
        PatchStrategy.MergePatch,
      );
    const relabelled = await mergePatch({ labels: { tier: 'front' } });
    assert.deepEqual(relabelled.metadata?.labels, { suite: 'objects', tier: 'front' });
    assert.equal(relabelled.metadata?.generation, 2, 'a label change keeps the generation');
    // As upstream's deployment strategy: annotations are copied to ReplicaSets, so they count.
    const merged = await mergePatch({ annotations: { note: 'merged' } });
    assert.equal(merged.metadata?.annotations?.note, 'merged');
    assert.equal(merged.metadata?.generation, 3, 'an annotation change bumps a Deployment');
    assert.equal(merged.spec?.replicas, 2);

    const jsonPatched = await jsonPatchApi(kc, [
      { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.28' },
    ]).patch<V1Deployment>(
      headerOf(created),
      undefined,
      undefined,
      undefined,
      undefined,
      PatchStrategy.JsonPatch,
    );
    assert.equal(jsonPatched.spec?.template.spec?.containers[0]?.image, 'nginx:1.28');
    assert.equal(jsonPatched.metadata?.generation, 4);
    assert.ok(
      Number(jsonPatched.metadata?.resourceVersion) > Number(merged.metadata?.resourceVersion),
    );

    await objects.delete(headerOf(created));
    await expectApiError(objects.read(headerOf(created)), 404);
  });

  for (const kind of ['ConfigMap', 'Deployment'] as const) {
    for (const policy of ['Foreground', 'Orphan', 'Background'] as const) {
      it(`deletes a ${kind} with propagationPolicy=${policy} (a query parameter)`, async () => {
        const { objects } = h!;
        const name = `del-${kind.toLowerCase()}-${policy.toLowerCase()}`;
        const spec: KubernetesObject =
          kind === 'ConfigMap' ? configMap(ns, name, { x: '1' }) : deployment(ns, name);
        const created = await objects.create(spec);
        await objects.delete(headerOf(created), undefined, undefined, undefined, undefined, policy);

        if (policy === 'Background') {
          await expectApiError(objects.read(headerOf(created)), 404);
          return;
        }
        // No garbage collector yet: the object stays, marked for deletion, with the finalizer.
        const finalizer = policy === 'Foreground' ? 'foregroundDeletion' : 'orphan';
        const marked = await objects.read(headerOf(created));
        assert.equal(marked.metadata?.uid, created.metadata?.uid);
        assert.ok(marked.metadata?.deletionTimestamp, 'deletionTimestamp is set');
        assert.deepEqual(marked.metadata?.finalizers, [finalizer]);
        assert.ok(
          Number(marked.metadata?.resourceVersion) > Number(created.metadata?.resourceVersion),
        );

        // Emptying the finalizers (what the GC would do) removes it.
        await objects.replace({ ...marked, metadata: { ...marked.metadata, finalizers: [] } });
        await expectApiError(objects.read(headerOf(created)), 404);
      });
    }
  }

  it('surfaces a missing object as ApiException 404 with the Status body (typed CoreV1Api)', async () => {
    const status = await expectApiError(
      h!.core.readNamespacedConfigMap({ name: 'nope', namespace: ns }),
      404,
    );
    assert.equal(status.kind, 'Status');
    assert.equal(status.apiVersion, 'v1');
    assert.equal(status.status, 'Failure');
    assert.equal(status.reason, 'NotFound');
    assert.equal(status.code, 404);
    assert.equal(status.message, 'configmaps "nope" not found');
    assert.deepEqual(status.details, { name: 'nope', group: '', kind: 'configmaps' });
  });

  it('patches through typed APIs (JSON patch by default, merge patch via setHeaderOptions)', async () => {
    const { core, apps } = h!;
    await core.createNamespacedConfigMap({
      namespace: ns,
      body: configMap(ns, 'typed', { a: '1' }),
    });
    const jsonPatched = await core.patchNamespacedConfigMap({
      name: 'typed',
      namespace: ns,
      body: [{ op: 'add', path: '/data/b', value: '2' }],
    });
    assert.deepEqual(jsonPatched.data, { a: '1', b: '2' });

    const created = await apps.createNamespacedDeployment({
      namespace: ns,
      body: deployment(ns, 'scaled', 1),
    });
    const scale = await apps.patchNamespacedDeploymentScale(
      { name: 'scaled', namespace: ns, body: { spec: { replicas: 5 } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    assert.equal(scale.kind, 'Scale');
    assert.equal(scale.apiVersion, 'autoscaling/v1');
    assert.equal(scale.metadata?.name, 'scaled');
    assert.equal(scale.spec?.replicas, 5);

    const deploymentAfter = await apps.readNamespacedDeployment({ name: 'scaled', namespace: ns });
    assert.equal(deploymentAfter.spec?.replicas, 5);
    assert.equal(deploymentAfter.metadata?.generation, (created.metadata?.generation ?? 0) + 1);
    assert.equal(deploymentAfter.metadata?.resourceVersion, scale.metadata?.resourceVersion);

    const readScale = await apps.readNamespacedDeploymentScale({ name: 'scaled', namespace: ns });
    assert.equal(readScale.spec?.replicas, 5);
    assert.equal(readScale.status?.selector, 'app=scaled');
  });
});
