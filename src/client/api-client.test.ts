import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { asKind, type ConfigMap, type Pod } from '../api/model/index.js';
import { startTestServer, type TestServer } from '../apiserver/testing/test-server.js';
import { FakeClock } from '../util/clock.js';
import {
  ApiClient,
  isAlreadyExists,
  isConflict,
  isNotFound,
  isTooManyRequests,
  RequestTimeoutError,
} from './api-client.js';
import { ExpiredError, StatusCodeError } from './lister-watcher.js';
import { type ObjectRef, objectRef } from './resource-path.js';

const NS = 'default';
const PODS = { group: '', version: 'v1', plural: 'pods', namespace: NS };
const CONFIGMAPS = { group: '', version: 'v1', plural: 'configmaps', namespace: NS };
const TOKEN = 'test-token';

function pod(name: string, containers = ['c']): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: containers.map((c) => ({ name: c, image: 'busybox:1.36' })) },
  };
}

function configMap(name: string, data: Record<string, string>): ConfigMap {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data };
}

/** The rejection of `promise`, which must reject. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  return assert.fail('expected a rejection');
}

describe('ApiClient against the API server', { timeout: 30_000 }, () => {
  let t: TestServer;
  let client: ApiClient;
  before(async () => {
    t = await startTestServer({ token: TOKEN });
    client = new ApiClient({ server: t.url, token: TOKEN, fieldManager: 'test-controller' });
  });
  after(async () => {
    client.close();
    await t.close();
  });

  it('creates and reads back an object, recording the field manager', async () => {
    const created = await client.create(PODS, pod('create-get'));
    assert.equal(created.metadata?.namespace, NS);
    assert.ok(created.metadata?.resourceVersion, 'created.metadata?.resourceVersion');
    const read = asKind(await client.get({ ...PODS, name: 'create-get' }), 'Pod');
    assert.equal(read.metadata?.uid, created.metadata?.uid);
    assert.deepEqual(
      read.metadata?.managedFields?.map((f) => [f.manager, f.operation]),
      [['test-controller', 'Update']],
    );
    const again = await rejection(client.create(PODS, pod('create-get')));
    assert.ok(isAlreadyExists(again), 'isAlreadyExists(again)');
    assert.ok(!isConflict(again), 'AlreadyExists is not a conflict');
  });

  it('lists with a label selector and pages with limit/continue', async () => {
    for (const name of ['page-a', 'page-b', 'page-c']) {
      await client.create(CONFIGMAPS, {
        ...configMap(name, {}),
        metadata: { name, labels: { set: 'paged' } },
      });
    }
    await client.create(CONFIGMAPS, configMap('page-other', {}));
    const names: string[] = [];
    let cont: string | undefined;
    let pages = 0;
    do {
      const page = await client.list(CONFIGMAPS, {
        labelSelector: 'set=paged',
        limit: 2,
        ...(cont ? { continue: cont } : {}),
      });
      assert.ok(page.items.length <= 2, 'page.items.length <= 2');
      names.push(...page.items.map((i) => i.metadata?.name ?? ''));
      cont = page.metadata.continue;
      pages++;
    } while (cont);
    assert.deepEqual(names.sort(), ['page-a', 'page-b', 'page-c']);
    assert.equal(pages, 2);
  });

  it('updates with the object resourceVersion as precondition: a stale one is a 409', async () => {
    const created = await client.create(CONFIGMAPS, configMap('update', { k: 'v1' }));
    const ref = objectRef(CONFIGMAPS, created);
    const updated = asKind(
      await client.update(ref, { ...created, data: { k: 'v2' } }),
      'ConfigMap',
    );
    assert.equal(updated.data?.k, 'v2');
    assert.notEqual(updated.metadata?.resourceVersion, created.metadata?.resourceVersion);
    const err = await rejection(client.update(ref, { ...created, data: { k: 'stale' } }));
    assert.ok(err instanceof StatusCodeError, 'err instanceof StatusCodeError');
    assert.equal(err.code, 409);
    assert.equal(err.status?.reason, 'Conflict');
    assert.match(err.message, /the object has been modified/);
    assert.ok(isConflict(err), 'isConflict(err)');
    assert.equal(asKind(await client.get(ref), 'ConfigMap').data?.k, 'v2');
  });

  it('writes status only through updateStatus', async () => {
    const created = await client.create(PODS, pod('status'));
    const ref = objectRef(PODS, created);
    const withStatus = asKind(
      await client.updateStatus(ref, { ...created, status: { phase: 'Running' } }),
      'Pod',
    );
    assert.equal(withStatus.status?.phase, 'Running');
    // The main resource ignores status changes (the status subresource owns them).
    const main = asKind(
      await client.update(ref, { ...withStatus, status: { phase: 'Failed' } }),
      'Pod',
    );
    assert.equal(main.status?.phase, 'Running');
  });

  describe('patch', () => {
    const cases: Array<[string, 'merge' | 'json' | 'strategic', unknown, Record<string, string>]> =
      [
        ['merge', 'merge', { data: { a: null, c: '3' } }, { b: '2', c: '3' }],
        [
          'json',
          'json',
          [
            { op: 'remove', path: '/data/a' },
            { op: 'replace', path: '/data/b', value: '20' },
          ],
          { b: '20' },
        ],
        [
          'strategic (a map: as merge)',
          'strategic',
          { data: { b: null, d: '4' } },
          { a: '1', d: '4' },
        ],
      ];
    for (const [what, type, body, want] of cases) {
      it(what, async () => {
        const name = `patch-${type}`;
        const created = await client.create(CONFIGMAPS, configMap(name, { a: '1', b: '2' }));
        const patched = asKind(
          await client.patch(objectRef(CONFIGMAPS, created), body, type, {
            fieldManager: `patcher-${type}`,
          }),
          'ConfigMap',
        );
        assert.deepEqual(patched.data, want);
        assert.ok(
          patched.metadata?.managedFields?.some((f) => f.manager === `patcher-${type}`),
          'the patcher is a field manager',
        );
      });
    }

    it('strategic merges a list by its key where merge replaces it', async () => {
      const ref = objectRef(PODS, await client.create(PODS, pod('smp', ['a', 'b'])));
      const change = { spec: { containers: [{ name: 'b', image: 'busybox:1.37' }] } };
      const patched = asKind(await client.patch(ref, change, 'strategic'), 'Pod');
      assert.deepEqual(
        patched.spec?.containers.map((c) => [c.name, c.image]),
        [
          ['a', 'busybox:1.36'],
          ['b', 'busybox:1.37'],
        ],
      );
    });

    it('patches a subresource', async () => {
      const ref = objectRef(PODS, await client.create(PODS, pod('patch-status')));
      const patched = asKind(
        await client.patch(ref, { status: { phase: 'Succeeded' } }, 'merge', {
          subresource: 'status',
        }),
        'Pod',
      );
      assert.equal(patched.status?.phase, 'Succeeded');
    });

    it('rejects a malformed JSON patch with a 4xx Status', async () => {
      const ref = objectRef(CONFIGMAPS, await client.create(CONFIGMAPS, configMap('bad-json', {})));
      const err = await rejection(client.patch(ref, { not: 'an array' }, 'json'));
      assert.ok(err instanceof StatusCodeError && err.code >= 400 && err.code < 500, String(err));
      assert.equal(typeof err.status?.message, 'string');
    });
  });

  describe('server-side apply', () => {
    const ref: ObjectRef = { ...CONFIGMAPS, name: 'applied' };
    const intent = (value: string): ConfigMap => configMap('applied', { owned: value });

    it('creates, conflicts with another manager, and takes over with force', async () => {
      const first = asKind(
        await client.patch(ref, intent('a'), 'apply', {
          fieldManager: 'mgr-a',
        }),
        'ConfigMap',
      );
      assert.equal(first.data?.owned, 'a');
      const err = await rejection(
        client.patch(ref, intent('b'), 'apply', { fieldManager: 'mgr-b' }),
      );
      assert.ok(err instanceof StatusCodeError, 'err instanceof StatusCodeError');
      assert.equal(err.code, 409);
      assert.ok(isConflict(err), 'isConflict(err)');
      assert.match(err.message, /conflict/i);
      assert.match(err.message, /mgr-a/);
      const forced = asKind(
        await client.patch(ref, intent('b'), 'apply', {
          fieldManager: 'mgr-b',
          force: true,
        }),
        'ConfigMap',
      );
      assert.equal(forced.data?.owned, 'b');
      const appliers = forced.metadata?.managedFields
        ?.filter((f) => f.operation === 'Apply')
        .map((f) => f.manager);
      assert.ok(appliers?.includes('mgr-b'), "appliers?.includes('mgr-b')");
    });

    it('needs a field manager: 422 without one', async () => {
      const bare = new ApiClient({ server: t.url, token: TOKEN });
      try {
        const err = await rejection(bare.patch(ref, intent('c'), 'apply'));
        assert.ok(err instanceof StatusCodeError, 'err instanceof StatusCodeError');
        assert.equal(err.code, 422);
        assert.equal(err.status?.reason, 'Invalid');
      } finally {
        bare.close();
      }
    });

    it('dry-runs without persisting', async () => {
      const dry = asKind(
        await client.patch(ref, intent('dry'), 'apply', {
          fieldManager: 'mgr-b',
          dryRun: true,
        }),
        'ConfigMap',
      );
      assert.equal(dry.data?.owned, 'dry');
      assert.equal(asKind(await client.get(ref), 'ConfigMap').data?.owned, 'b');
    });
  });

  describe('delete', () => {
    it('removes the object; a second delete is NotFound', async () => {
      const ref = objectRef(CONFIGMAPS, await client.create(CONFIGMAPS, configMap('del', {})));
      await client.delete(ref, { propagationPolicy: 'Background' });
      assert.ok(
        isNotFound(await rejection(client.get(ref))),
        'isNotFound(await rejection(client.get(ref)))',
      );
      assert.ok(
        isNotFound(await rejection(client.delete(ref))),
        'isNotFound(await rejection(client.delete(ref)))',
      );
    });

    it('sends propagationPolicy in the body: Foreground leaves the object finalizing', async () => {
      const ref = objectRef(CONFIGMAPS, await client.create(CONFIGMAPS, configMap('del-fg', {})));
      const answer = await client.delete(ref, { propagationPolicy: 'Foreground' });
      assert.ok(answer.metadata?.deletionTimestamp, 'answer.metadata?.deletionTimestamp');
      assert.deepEqual(answer.metadata?.finalizers, ['foregroundDeletion']);
      const live = await client.get(ref);
      assert.deepEqual(live.metadata?.finalizers, ['foregroundDeletion']);
    });

    it('honours preconditions and dryRun', async () => {
      const created = await client.create(CONFIGMAPS, configMap('del-pre', {}));
      const ref = objectRef(CONFIGMAPS, created);
      const err = await rejection(client.delete(ref, { preconditions: { uid: 'not-the-uid' } }));
      assert.ok(isConflict(err), String(err));
      await client.delete(ref, { dryRun: true });
      assert.equal((await client.get(ref)).metadata?.uid, created.metadata?.uid);
      await client.delete(ref, {
        preconditions: { uid: created.metadata?.uid ?? '' },
        gracePeriodSeconds: 0,
      });
      assert.ok(
        isNotFound(await rejection(client.get(ref))),
        'isNotFound(await rejection(client.get(ref)))',
      );
    });

    it('rejects a bad propagationPolicy with 422 Invalid', async () => {
      const ref = objectRef(CONFIGMAPS, await client.create(CONFIGMAPS, configMap('del-bad', {})));
      // Not a PropagationPolicy: what an untyped caller could send.
      const options = { propagationPolicy: 'Sideways' } as unknown as {
        propagationPolicy: 'Orphan';
      };
      const err = await rejection(client.delete(ref, options));
      assert.ok(err instanceof StatusCodeError, 'err instanceof StatusCodeError');
      assert.equal(err.code, 422);
    });
  });

  it('binds a pod through the binding subresource', async () => {
    const ref = objectRef(PODS, await client.create(PODS, pod('bind-me')));
    const binding = {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'bind-me' },
      target: { apiVersion: 'v1', kind: 'Node', name: 'node-1' },
    };
    const answer = await client.createSubresource(ref, 'binding', binding, {
      fieldManager: 'test-scheduler',
    });
    assert.equal(answer.kind, 'Status');
    assert.equal(asKind(await client.get(ref), 'Pod').spec?.nodeName, 'node-1');
    const again = await rejection(client.createSubresource(ref, 'binding', binding));
    assert.ok(isConflict(again), String(again));
  });

  describe('error mapping', () => {
    it('maps a missing object to NotFound with the upstream message', async () => {
      const err = await rejection(client.get({ ...PODS, name: 'nope' }));
      assert.ok(err instanceof StatusCodeError, 'err instanceof StatusCodeError');
      assert.equal(err.code, 404);
      assert.equal(err.status?.reason, 'NotFound');
      assert.equal(err.message, 'pods "nope" not found');
      assert.ok(isNotFound(err), 'isNotFound(err)');
      assert.ok(
        !isConflict(err) && !isAlreadyExists(err) && !isTooManyRequests(err),
        '!isConflict(err) && !isAlreadyExists(err) && !isTooManyRequests(err)',
      );
    });

    it('maps an unknown resource path to NotFound', async () => {
      const err = await rejection(
        client.get({ group: 'nope.io', version: 'v1', plural: 'x', name: 'y' }),
      );
      assert.ok(isNotFound(err), String(err));
    });

    it('sends the bearer token: without it the answer is 401', async () => {
      const anonymous = new ApiClient({ server: t.url });
      try {
        const err = await rejection(anonymous.get({ ...PODS, name: 'create-get' }));
        assert.ok(err instanceof StatusCodeError, 'err instanceof StatusCodeError');
        assert.equal(err.code, 401);
      } finally {
        anonymous.close();
      }
    });
  });

  it('connects from a kubeconfig file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'api-client-'));
    const path = join(dir, 'config');
    await writeFile(
      path,
      [
        'apiVersion: v1',
        'kind: Config',
        'current-context: test',
        `clusters: [{name: c, cluster: {server: "${t.url}"}}]`,
        `users: [{name: u, user: {token: ${TOKEN}}}]`,
        'contexts: [{name: test, context: {cluster: c, user: u}}]',
      ].join('\n'),
    );
    const fromFile = await ApiClient.fromKubeconfig(path, { fieldManager: 'kubeconfig-test' });
    try {
      const read = await fromFile.get({ ...PODS, name: 'create-get' });
      assert.equal(read.metadata?.name, 'create-get');
    } finally {
      fromFile.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('ApiClient error classification', () => {
  const cases: Array<[string, unknown, { nf: boolean; cf: boolean; ae: boolean; tm: boolean }]> = [
    [
      'NotFound',
      new StatusCodeError(404, { reason: 'NotFound' }),
      { nf: true, cf: false, ae: false, tm: false },
    ],
    ['a bare 404', new StatusCodeError(404), { nf: true, cf: false, ae: false, tm: false }],
    [
      'a 404 with a known other reason',
      new StatusCodeError(404, { reason: 'Forbidden' }),
      { nf: false, cf: false, ae: false, tm: false },
    ],
    [
      'Conflict',
      new StatusCodeError(409, { reason: 'Conflict' }),
      { nf: false, cf: true, ae: false, tm: false },
    ],
    ['a bare 409', new StatusCodeError(409), { nf: false, cf: true, ae: false, tm: false }],
    [
      'AlreadyExists',
      new StatusCodeError(409, { reason: 'AlreadyExists' }),
      { nf: false, cf: false, ae: true, tm: false },
    ],
    [
      'TooManyRequests',
      new StatusCodeError(429, { reason: 'TooManyRequests' }),
      { nf: false, cf: false, ae: false, tm: true },
    ],
    [
      'a 429 of any reason',
      new StatusCodeError(429, { reason: 'Unknown' }),
      { nf: false, cf: false, ae: false, tm: true },
    ],
    [
      'Expired',
      new ExpiredError({ reason: 'Expired' }),
      { nf: false, cf: false, ae: false, tm: false },
    ],
    ['a plain error', new Error('NotFound'), { nf: false, cf: false, ae: false, tm: false }],
    [
      'not an error',
      { code: 404, status: { reason: 'NotFound' } },
      { nf: false, cf: false, ae: false, tm: false },
    ],
  ];
  for (const [what, err, want] of cases) {
    it(what, () => {
      assert.deepEqual(
        {
          nf: isNotFound(err),
          cf: isConflict(err),
          ae: isAlreadyExists(err),
          tm: isTooManyRequests(err),
        },
        want,
      );
    });
  }
});

describe('ApiClient against a server that never answers', { timeout: 10_000 }, () => {
  let server: Server;
  let url: string;
  let arrivals: Array<(req: IncomingMessage) => void> = [];
  const arrived = (): Promise<IncomingMessage> => new Promise((r) => arrivals.push(r));
  before(async () => {
    // Reads each request and never responds.
    server = createServer((req) => {
      for (const notify of arrivals.splice(0)) notify(req);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    arrivals = [];
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('aborts the request after timeoutMs on the injected clock', async () => {
    const clock = new FakeClock();
    const client = new ApiClient({ server: url, clock, timeoutMs: 5_000 });
    try {
      const seen = arrived();
      const pending = rejection(client.get({ ...PODS, name: 'x' }));
      const req = await seen;
      assert.equal(req.url, '/api/v1/namespaces/default/pods/x');
      const closed = new Promise<void>((r) => req.socket.once('close', () => r()));
      await clock.step(4_999);
      assert.equal(clock.pending(), 1, 'the timer is still armed before its time');
      await clock.step(1);
      assert.equal(clock.pending(), 0, 'the timer fired');
      const err = await pending;
      assert.ok(err instanceof RequestTimeoutError, String(err));
      assert.equal(err.timeoutMs, 5_000);
      assert.match(err.message, /GET \/api\/v1\/namespaces\/default\/pods\/x timed out/);
      await closed; // the connection was torn down, not left hanging
    } finally {
      client.close();
    }
  });

  it('a per-call timeoutMs overrides the client default', async () => {
    const clock = new FakeClock();
    const client = new ApiClient({ server: url, clock, timeoutMs: 60_000 });
    try {
      const seen = arrived();
      const pending = rejection(client.create(CONFIGMAPS, configMap('x', {}), { timeoutMs: 100 }));
      await seen;
      await clock.step(100);
      assert.equal(clock.pending(), 0, 'the timer fired');
      const err = await pending;
      assert.ok(err instanceof RequestTimeoutError, String(err));
    } finally {
      client.close();
    }
  });

  it("rejects with the caller's abort reason and disarms the timer", async () => {
    const clock = new FakeClock();
    const client = new ApiClient({ server: url, clock });
    try {
      const controller = new AbortController();
      const seen = arrived();
      const pending = rejection(client.get({ ...PODS, name: 'y' }, { signal: controller.signal }));
      await seen;
      const reason = new Error('controller stopping');
      controller.abort(reason);
      assert.equal(await pending, reason);
      assert.equal(clock.pending(), 0);
      const already = await rejection(
        client.get({ ...PODS, name: 'z' }, { signal: AbortSignal.abort(reason) }),
      );
      assert.equal(already, reason);
    } finally {
      client.close();
    }
  });
});
