import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './testing/test-server.js';

const SVC = '/api/v1/namespaces/default/services';

function service(name: string, spec: Record<string, unknown> = {}): object {
  return {
    metadata: { name },
    spec: { selector: { app: name }, ports: [{ port: 80, targetPort: 8080 }], ...spec },
  };
}

type Spec = { clusterIP?: string; clusterIPs?: string[]; ports: Array<{ nodePort?: number }> };

describe('Service cluster IPs and node ports', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t.close();
  });

  it('allocates distinct cluster IPs from 10.96.0.0/12, also under concurrent creates', async () => {
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) => t.request('POST', SVC, { body: service(`s${i}`) })),
    );
    const ips = created.map((r) => {
      assert.equal(r.status, 201, r.text);
      const spec = r.body.spec as Spec;
      assert.deepEqual(spec.clusterIPs, [spec.clusterIP]);
      return spec.clusterIP!;
    });
    assert.equal(new Set(ips).size, 20);
    for (const ip of ips) assert.match(ip, /^10\.(9[6-9]|10\d|11[01])\.\d+\.\d+$/);
  });

  it('keeps a headless service headless and gives ExternalName no IP', async () => {
    const headless = await t.request('POST', SVC, {
      body: service('headless', { clusterIP: 'None' }),
    });
    assert.equal((headless.body.spec as Spec).clusterIP, 'None');
    const ext = await t.request('POST', SVC, {
      body: {
        metadata: { name: 'ext' },
        spec: { type: 'ExternalName', externalName: 'example.com' },
      },
    });
    assert.equal(ext.status, 201, ext.text);
    assert.equal((ext.body.spec as Spec).clusterIP, undefined);
  });

  it('allocates node ports for NodePort services and keeps them on updates that omit them', async () => {
    const r = await t.request('POST', SVC, { body: service('np', { type: 'NodePort' }) });
    const spec = r.body.spec as Spec;
    const port = spec.ports[0]!.nodePort!;
    assert.ok(port >= 30000 && port <= 32767, String(port));
    const put = await t.request('PUT', `${SVC}/np`, { body: service('np', { type: 'NodePort' }) });
    assert.equal(put.status, 200, put.text);
    assert.equal((put.body.spec as Spec).clusterIP, spec.clusterIP);
    assert.equal((put.body.spec as Spec).ports[0]!.nodePort, port);
  });

  it('refuses a requested cluster IP another service holds', async () => {
    const first = await t.request('GET', `${SVC}/s0`);
    const ip = (first.body.spec as Spec).clusterIP;
    const r = await t.request('POST', SVC, { body: service('dup', { clusterIP: ip }) });
    assert.equal(r.status, 422);
    assert.match(String(r.body.message), /provided IP is already allocated/);
  });

  it("never hands out the first address (the kubernetes Service's) nor the static band", async () => {
    const created = await Promise.all(
      Array.from({ length: 5 }, (_, i) => t.request('POST', SVC, { body: service(`dyn${i}`) })),
    );
    for (const r of created) {
      const ip = (r.body.spec as Spec).clusterIP!;
      // The static band is 10.96.0.1-10.96.1.0 (upstream: 256 addresses for a /12).
      assert.doesNotMatch(ip, /^10\.96\.0\.\d+$|^10\.96\.1\.0$/, ip);
    }
  });

  it('gives a user an address of the static band they ask for', async () => {
    const r = await t.request('POST', SVC, { body: service('dns', { clusterIP: '10.96.0.10' }) });
    assert.equal(r.status, 201, r.text);
    assert.equal((r.body.spec as Spec).clusterIP, '10.96.0.10');
  });

  it('frees the address of a deleted service', async () => {
    const r = await t.request('POST', SVC, { body: service('gone') });
    const ip = (r.body.spec as Spec).clusterIP;
    await t.request('DELETE', `${SVC}/gone`);
    const again = await t.request('POST', SVC, { body: service('reuse', { clusterIP: ip }) });
    assert.equal(again.status, 201, again.text);
    assert.equal((again.body.spec as Spec).clusterIP, ip);
  });
});

describe("the kubernetes Service's address, 10.96.0.1", () => {
  const cases: { name: string; namespace: string; want: number }[] = [
    { name: 'kubernetes', namespace: 'kube-system', want: 422 },
    { name: 'api', namespace: 'default', want: 422 },
    { name: 'kubernetes', namespace: 'default', want: 201 },
  ];
  for (const c of cases) {
    it(`asked for by ${c.namespace}/${c.name} on a fresh server: ${c.want}`, async () => {
      const t = await startTestServer();
      try {
        const r = await t.request('POST', `/api/v1/namespaces/${c.namespace}/services`, {
          body: service(c.name, { clusterIP: '10.96.0.1' }),
        });
        assert.equal(r.status, c.want, r.text);
        if (c.want === 422) {
          assert.equal(
            r.body.message,
            `Service "${c.name}" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.1"}: failed to allocate IP 10.96.0.1: provided IP is already allocated`,
          );
        }
      } finally {
        await t.close();
      }
    });
  }
});
