import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '../../util/clock.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

const NET = '/apis/networking.k8s.io/v1';
const INGRESSES = `${NET}/namespaces/default/ingresses`;
const DEFAULT = { 'ingressclass.kubernetes.io/is-default-class': 'true' };

function ingress(
  name: string,
  spec: Record<string, unknown> = {},
  annotations?: Record<string, string>,
) {
  return {
    metadata: { name, ...(annotations ? { annotations } : {}) },
    spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } }, ...spec },
  };
}

describe('DefaultIngressClass admission', () => {
  let t: TestServer;
  const clock = new FakeClock(Date.parse('2025-01-01T00:00:00Z'));
  before(async () => {
    t = await startTestServer({ clock });
  });
  after(() => t.close());

  const classOf = async (body: object): Promise<unknown> => {
    const r = await t.request('POST', INGRESSES, { body });
    assert.equal(r.status, 201, r.text);
    return (r.body.spec as Record<string, unknown>).ingressClassName;
  };
  const createClass = async (name: string, annotations?: Record<string, string>) => {
    const body = {
      metadata: { name, ...(annotations ? { annotations } : {}) },
      spec: { controller: 'k8s.io/x' },
    };
    const r = await t.request('POST', `${NET}/ingressclasses`, { body });
    assert.equal(r.status, 201, r.text);
  };

  it('leaves the class unset while no class is the default', async () => {
    await createClass('plain');
    assert.equal(await classOf(ingress('a')), undefined);
  });

  it('fills the default class, and the newest of several defaults', async () => {
    await createClass('old-default', DEFAULT);
    assert.equal(await classOf(ingress('b')), 'old-default');
    await clock.step(60_000);
    await createClass('new-default', DEFAULT);
    assert.equal(await classOf(ingress('c')), 'new-default');
  });

  it('keeps a class the Ingress names, and leaves one with the deprecated annotation alone', async () => {
    assert.equal(await classOf(ingress('d', { ingressClassName: 'plain' })), 'plain');
    assert.equal(
      await classOf(ingress('e', {}, { 'kubernetes.io/ingress.class': 'nginx' })),
      undefined,
    );
  });

  it('never adds a class on update', async () => {
    const r = await t.request('GET', `${INGRESSES}/a`);
    const put = await t.request('PUT', `${INGRESSES}/a`, { body: r.body });
    assert.equal(put.status, 200, put.text);
    assert.equal((put.body.spec as Record<string, unknown>).ingressClassName, undefined);
  });
});
