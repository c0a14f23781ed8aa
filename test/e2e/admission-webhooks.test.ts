/**
 * Admission webhooks on the real `fleetyard up` (API server only), configured with kubectl 1.33
 * and answered by a real HTTPS server in this process (127.0.0.1, a certificate from
 * fleetyard's PKI): a validating webhook refusing labelled pods, a mutating JSONPatch, the
 * failure policies against a stopped server, a 1 s timeout, reinvocation (counted on the
 * server), `sideEffects` and dry run, and Service-backed webhooks: the API refuses endpoints at
 * 127.0.0.1 (as upstream: no loopback endpoints), so the suite checks that refusal and the two
 * ways docs/webhooks.md gives to reach a local process: an ExternalName Service at `localhost`,
 * and an EndpointSlice at this machine's non-loopback address (a forwarder there to the server).
 * Each test owns a namespace and its webhooks select that namespace alone, so one cluster
 * serves the file.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type HookAnswer,
  objectLabels,
  patchOf,
  startWebhookServer,
  type TestWebhookServer,
} from '../../src/apiserver/admission/webhook/testing.js';
import { API_ONLY } from './testing/cluster.js';
import { type Kubectl, kubectl } from './testing/kubectl.js';
import { clusterForFile, getJson } from './testing/kubectl-fixtures.js';
import {
  addLabel,
  config,
  hook,
  hostAddress,
  type Json,
  rawRequest,
  service,
  slice,
  startForwarder,
} from './testing/webhook-server.js';

const cluster = clusterForFile({ args: [...API_ONLY, '--nodes=0'] });

/** The Service-backed webhook's Service: its name, namespace and the DNS name TLS checks. */
const SVC = { name: 'hook', namespace: 'hooks', host: 'hook.hooks.svc' };

/** What the server answers, by path (the query, `?timeout=…`, stripped). */
function answer(request: Json, path: string): HookAnswer {
  const labels = objectLabels(request);
  switch (path.replace(/\?.*$/, '')) {
    case '/deny':
    case '/svc':
      return labels.deny === 'yes'
        ? {
            allowed: false,
            status: {
              code: 403,
              reason: 'Forbidden',
              message: `pods labelled deny=yes are refused`,
            },
          }
        : { allowed: true };
    case '/label':
      return {
        allowed: true,
        patchType: 'JSONPatch',
        patch: patchOf([addLabel('mutated', 'yes')]),
      };
    case '/hang':
      return 'hang';
    case '/first':
      return labels.first === undefined
        ? { allowed: true, patchType: 'JSONPatch', patch: patchOf([addLabel('first', 'yes')]) }
        : { allowed: true };
    case '/second':
      return labels.second === undefined
        ? { allowed: true, patchType: 'JSONPatch', patch: patchOf([addLabel('second', 'yes')]) }
        : { allowed: true };
    default:
      return { allowed: true };
  }
}

describe('admission webhooks with kubectl 1.33', () => {
  let k: Kubectl;
  let server: TestWebhookServer;
  /** A port nothing listens on: a server started, then stopped. */
  let deadPort: number;
  const url = (path: string, port = server.port) => ({
    url: `https://127.0.0.1:${port}${path}`,
    caBundle: server.caBundle,
  });
  const viaService = (name: string, port: number, namespace = SVC.namespace) => ({
    service: { name, namespace, path: '/svc', port },
    caBundle: server.caBundle,
  });

  before(async () => {
    const bin = kubectl('1.33', cluster().kubeconfig);
    assert.ok(bin, 'kubectl.1.33 is not installed beside the kubectl on the PATH');
    k = bin;
    server = await startWebhookServer(answer, [SVC.host, 'hook.hooks-ip.svc']);
    const stopped = await startWebhookServer(() => ({ allowed: true }));
    deadPort = stopped.port;
    await stopped.close();
  });
  after(async () => {
    await server?.close();
  });

  /** Creates the namespace, then the objects (a JSON List read by `kubectl create -f -`). */
  async function setUp(ns: string, ...objects: Json[]): Promise<void> {
    await k.ok(['create', 'namespace', ns]);
    const input = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects });
    await k.ok(['create', '-f', '-'], { input });
  }

  const run = (ns: string, name: string, ...args: string[]) =>
    k.run(['run', name, '--image=nginx', '-n', ns, ...args]);

  const labelsOf = async (ns: string, name: string) =>
    (await getJson(k, ['pod', name, '-n', ns])).metadata.labels ?? {};

  it('a validating webhook refuses a labelled pod', async () => {
    await setUp(
      'wh-deny',
      config('Validating', 'deny', [hook('deny.fleetyard.test', 'wh-deny', url('/deny'))]),
    );
    const refused = await run('wh-deny', 'bad', '--labels=deny=yes');
    assert.notEqual(refused.code, 0);
    assert.equal(
      refused.stderr.trim(),
      'Error from server (Forbidden): admission webhook "deny.fleetyard.test" denied the request: pods labelled deny=yes are refused',
    );
    const good = await run('wh-deny', 'good', '--labels=deny=no');
    assert.equal(good.code, 0, good.stderr);
    assert.equal(good.stdout.trim(), 'pod/good created');
    const missing = await k.run(['get', 'pod', 'bad', '-n', 'wh-deny']);
    assert.equal(missing.stderr.trim(), 'Error from server (NotFound): pods "bad" not found');
  });

  it('a mutating webhook adds a label with a JSON patch', async () => {
    await setUp(
      'wh-mutate',
      config('Mutating', 'label', [hook('label.fleetyard.test', 'wh-mutate', url('/label'))]),
    );
    assert.equal((await run('wh-mutate', 'web')).code, 0);
    assert.deepEqual(await labelsOf('wh-mutate', 'web'), { run: 'web', mutated: 'yes' });
  });

  it('failurePolicy Fail refuses with 500 when the server is down; Ignore lets the write through', async () => {
    const refusedUrl = `https://127.0.0.1:${deadPort}/down?timeout=5s`;
    await setUp(
      'wh-fail',
      config('Validating', 'down-fail', [
        hook('down.fleetyard.test', 'wh-fail', url('/down', deadPort)),
      ]),
    );
    const text = `Internal error occurred: failed calling webhook "down.fleetyard.test": failed to call webhook: Post "${refusedUrl}": dial tcp 127.0.0.1:${deadPort}: connect: connection refused`;
    const refused = await run('wh-fail', 'web');
    assert.equal(refused.stderr.trim(), `Error from server (InternalError): ${text}`);
    const raw = await rawRequest(cluster(), 'POST', '/api/v1/namespaces/wh-fail/pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web' },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    });
    assert.equal(raw.code, 500);
    assert.equal(raw.body.reason, 'InternalError');
    assert.equal(raw.body.message, text);

    await setUp(
      'wh-ignore',
      config('Validating', 'down-ignore', [
        hook('down.fleetyard.test', 'wh-ignore', url('/down', deadPort), {
          failurePolicy: 'Ignore',
        }),
      ]),
    );
    const ignored = await run('wh-ignore', 'web');
    assert.equal(ignored.code, 0, ignored.stderr);
    assert.equal(ignored.stdout.trim(), 'pod/web created');
  });

  it('a webhook that does not answer within timeoutSeconds: 1 fails the request', async () => {
    await setUp(
      'wh-slow',
      config('Validating', 'slow', [
        hook('slow.fleetyard.test', 'wh-slow', url('/hang'), { timeoutSeconds: 1 }),
      ]),
    );
    const refused = await run('wh-slow', 'web');
    assert.equal(
      refused.stderr.trim(),
      `Error from server (InternalError): Internal error occurred: failed calling webhook "slow.fleetyard.test": failed to call webhook: Post "https://127.0.0.1:${server.port}/hang?timeout=1s": context deadline exceeded`,
    );
  });

  it('reinvocationPolicy IfNeeded calls the first webhook again after the second changes the pod', async () => {
    const calls = (path: string) =>
      server.received.filter(
        (r) => r.path.startsWith(`${path}?`) && r.request.namespace === 'wh-reinvoke',
      ).length;
    await setUp(
      'wh-reinvoke',
      config('Mutating', 'reinvoke', [
        hook('first.fleetyard.test', 'wh-reinvoke', url('/first'), {
          reinvocationPolicy: 'IfNeeded',
        }),
        hook('second.fleetyard.test', 'wh-reinvoke', url('/second')),
      ]),
    );
    assert.equal((await run('wh-reinvoke', 'web')).code, 0);
    assert.deepEqual(await labelsOf('wh-reinvoke', 'web'), {
      run: 'web',
      first: 'yes',
      second: 'yes',
    });
    assert.deepEqual({ first: calls('/first'), second: calls('/second') }, { first: 2, second: 1 });
  });

  it('sideEffects Some is refused in v1; NoneOnDryRun webhooks see dry runs', async () => {
    const some = await k.run(['create', '-f', '-'], {
      input: JSON.stringify(
        config('Validating', 'side-effects', [
          hook('some.fleetyard.test', 'wh-dry', url('/deny'), { sideEffects: 'Some' }),
        ]),
      ),
    });
    assert.equal(
      some.stderr.trim(),
      'The ValidatingWebhookConfiguration "side-effects" is invalid: webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
    );
    await setUp(
      'wh-dry',
      config('Validating', 'dry', [
        hook('dry.fleetyard.test', 'wh-dry', url('/deny'), { sideEffects: 'NoneOnDryRun' }),
      ]),
    );
    const refused = await run('wh-dry', 'bad', '--labels=deny=yes', '--dry-run=server');
    assert.match(refused.stderr, /admission webhook "dry.fleetyard.test" denied the request/);
    const dry = await run('wh-dry', 'web', '--dry-run=server');
    assert.equal(dry.stdout.trim(), 'pod/web created (server dry run)');
    const seen = server.received.filter((r) => r.request.namespace === 'wh-dry');
    assert.deepEqual(
      seen.map((r) => r.request.dryRun),
      [true, true],
    );
    const none = await k.run(['get', 'pods', '-n', 'wh-dry', '-o', 'name']);
    assert.equal(none.stdout, '');
  });

  it('a Service-backed webhook: the EndpointSlice at 127.0.0.1 of docs/webhooks.md is refused', async () => {
    await k.ok(['create', 'namespace', 'hooks-doc']);
    const refused = await k.run(['create', '-f', '-'], {
      input: JSON.stringify(slice('hooks-doc', SVC.name, '127.0.0.1', server.port)),
    });
    // As upstream (ValidateNonSpecialIP): no EndpointSlice may name a loopback address.
    assert.equal(
      refused.stderr.trim(),
      'The EndpointSlice "hook-local" is invalid: endpoints[0].addresses[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
    );
  });

  it('a Service-backed webhook: legacy Endpoints at 127.0.0.1 are refused too', async () => {
    await k.run(['create', 'namespace', 'hooks-doc']);
    const legacy = await k.run(['create', '-f', '-'], {
      input: JSON.stringify({
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name: SVC.name, namespace: 'hooks-doc' },
        subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: 9443 }] }],
      }),
    });
    assert.equal(
      legacy.stderr.trim(),
      'The Endpoints "hook" is invalid: subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
    );
  });

  it('a Service-backed webhook reaches a local server through an ExternalName Service', async () => {
    await setUp(SVC.namespace, {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: SVC.name, namespace: SVC.namespace },
      spec: { type: 'ExternalName', externalName: 'localhost' },
    });
    // An ExternalName Service has no port mapping: it is dialled at the webhook's `port`, so
    // the configuration names the server's own port, not 443 (a change to shipped manifests).
    await setUp(
      'wh-svc',
      config('Validating', 'svc', [
        hook('svc.fleetyard.test', 'wh-svc', viaService(SVC.name, server.port)),
      ]),
    );
    const refused = await run('wh-svc', 'bad', '--labels=deny=yes');
    assert.equal(
      refused.stderr.trim(),
      'Error from server (Forbidden): admission webhook "svc.fleetyard.test" denied the request: pods labelled deny=yes are refused',
    );
    assert.equal((await run('wh-svc', 'good')).code, 0);
    const paths = server.received
      .filter((r) => r.request.namespace === 'wh-svc')
      .map((r) => r.path);
    assert.deepEqual(paths, ['/svc?timeout=5s', '/svc?timeout=5s']);
  });

  it('a Service-backed webhook reaches a local server through an EndpointSlice at a host address', async (t) => {
    const host = hostAddress();
    if (host === undefined) {
      t.skip('this machine has no non-loopback IPv4 address');
      return;
    }
    const forward = await startForwarder(host, server.port);
    t.after(() => forward.close());
    const port = forward.port;
    await setUp(
      'hooks-ip',
      service('hooks-ip', 'hook', port),
      slice('hooks-ip', 'hook', host, port),
      service('hooks-ip', 'dead', deadPort),
      slice('hooks-ip', 'dead', host, deadPort),
    );
    await setUp(
      'wh-ip',
      config('Validating', 'ip', [
        hook('ip.fleetyard.test', 'wh-ip', viaService('hook', 443, 'hooks-ip')),
      ]),
    );
    const refused = await run('wh-ip', 'bad', '--labels=deny=yes');
    assert.equal(
      refused.stderr.trim(),
      'Error from server (Forbidden): admission webhook "ip.fleetyard.test" denied the request: pods labelled deny=yes are refused',
    );
    assert.equal((await run('wh-ip', 'good')).code, 0);

    await setUp(
      'wh-ip-dead',
      config('Validating', 'ip-dead', [
        hook('dead.fleetyard.test', 'wh-ip-dead', viaService('dead', 443, 'hooks-ip')),
      ]),
    );
    const down = await run('wh-ip-dead', 'web');
    assert.equal(
      down.stderr.trim(),
      `Error from server (InternalError): Internal error occurred: failed calling webhook "dead.fleetyard.test": failed to call webhook: Post "https://dead.hooks-ip.svc:443/svc?timeout=5s": dial tcp ${host}:${deadPort}: connect: connection refused`,
    );
  });

  it("a certificate without the Service name fails with Go's x509 text", async () => {
    await setUp('wh-name', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'other', namespace: 'wh-name' },
      spec: { type: 'ExternalName', externalName: 'localhost' },
    });
    await k.ok(['create', '-f', '-'], {
      input: JSON.stringify(
        config('Validating', 'name', [
          hook('name.fleetyard.test', 'wh-name', viaService('other', server.port, 'wh-name')),
        ]),
      ),
    });
    const refused = await run('wh-name', 'web');
    assert.equal(
      refused.stderr.trim(),
      `Error from server (InternalError): Internal error occurred: failed calling webhook "name.fleetyard.test": failed to call webhook: Post "https://other.wh-name.svc:${server.port}/svc?timeout=5s": tls: failed to verify certificate: x509: certificate is valid for localhost, ${SVC.host}, hook.hooks-ip.svc, not other.wh-name.svc`,
    );
  });
});
