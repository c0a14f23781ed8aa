/**
 * The dashboard's routes on a real in-process API server with identities and RBAC: the
 * one-time link, the session cookie on the API itself, the cross-site refusals, and the change
 * stream showing each user only what it may list.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type RequestOptions, startTestServer, type TestServer } from '../testing/test-server.js';

const TOKEN = 'dashboard-admin-token-0123456789abcdefghijklmnop';
const ADMIN = { authorization: `Bearer ${TOKEN}` };

interface Frame {
  readonly type: string;
  readonly resource?: string;
  readonly object?: { metadata?: { name?: string; namespace?: string } };
  readonly user?: { username: string };
}

describe('the dashboard routes', () => {
  let t: TestServer;
  let host = '';
  let assets = '';
  const req = (method: string, path: string, o: RequestOptions = {}) => t.request(method, path, o);
  /** Signs `as` in through a fresh link; the cookie header value. */
  async function signIn(as?: string): Promise<string> {
    const headers: Record<string, string> = { ...ADMIN, ...(as ? { 'impersonate-user': as } : {}) };
    const link = await req('POST', '/ui/api/login-links', { body: {}, headers });
    assert.equal(link.status, 201, link.text);
    const redeemed = await req('GET', String(link.body.path));
    assert.equal(redeemed.status, 303);
    const set = String(redeemed.headers['set-cookie']?.[0] ?? '');
    return set.split(';')[0] ?? '';
  }
  /** Opens the stream and collects frames until `until` holds. */
  function stream(cookie: string, until: (frames: Frame[]) => boolean): Promise<Frame[]> {
    const base = new URL(t.url);
    return new Promise((resolve, reject) => {
      const r = httpRequest(
        { host: base.hostname, port: base.port, path: '/ui/api/stream', headers: { cookie } },
        (res) => {
          const frames: Frame[] = [];
          let buffered = '';
          const timer = setTimeout(() => {
            r.destroy();
            reject(new Error(`stream: ${JSON.stringify(frames.map((f) => f.type))}`));
          }, 3000);
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            buffered += chunk;
            const lines = buffered.split('\n');
            buffered = lines.pop() ?? '';
            for (const l of lines) if (l !== '') frames.push(JSON.parse(l) as Frame);
            if (until(frames)) {
              clearTimeout(timer);
              r.destroy();
              resolve(frames);
            }
          });
        },
      );
      r.on('error', () => undefined);
      r.end();
    });
  }
  const names = (frames: Frame[], resource: string) =>
    frames
      .filter((f) => f.resource === resource)
      .map((f) => `${f.object?.metadata?.namespace}/${f.object?.metadata?.name}`)
      .sort();

  before(async () => {
    assets = mkdtempSync(join(tmpdir(), 'fy-ui-'));
    writeFileSync(join(assets, 'index.html'), '<!doctype html><title>fy</title>');
    writeFileSync(join(assets, 'app.js'), 'export {};');
    t = await startTestServer({
      token: TOKEN,
      server: { access: {}, dashboard: { assetsDir: assets } },
    });
    host = new URL(t.url).host;
    await t.server.startKubernetesService();
    for (const ns of ['a', 'b']) {
      await req('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } }, headers: ADMIN });
      const cm = { metadata: { name: `cm-${ns}` }, data: { k: 'v' } };
      await req('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: cm, headers: ADMIN });
    }
    const secret = { metadata: { name: 'hidden' }, stringData: { password: 'p' } };
    await req('POST', '/api/v1/namespaces/a/secrets', { body: secret, headers: ADMIN });
    // alice may list ConfigMaps in namespace a only.
    const role = {
      metadata: { name: 'cm-reader', namespace: 'a' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list', 'get'] }],
    };
    await req('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/a/roles', {
      body: role,
      headers: ADMIN,
    });
    const binding = {
      metadata: { name: 'alice', namespace: 'a' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-reader' },
      subjects: [{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }],
    };
    await req('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/a/rolebindings', {
      body: binding,
      headers: ADMIN,
    });
  });
  after(async () => {
    await t.close();
    rmSync(assets, { recursive: true, force: true });
  });

  it('serves the page with a strict Content Security Policy, and nothing outside it', async () => {
    const page = await req('GET', '/ui/');
    assert.equal(page.status, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(
      String(page.headers['content-security-policy']),
      /default-src 'self'.*frame-ancestors 'none'/,
    );
    assert.equal(page.headers['referrer-policy'], 'no-referrer');
    assert.equal((await req('GET', '/ui')).status, 301);
    assert.equal((await req('GET', '/ui/..%2Fpackage.json')).status, 404);
    assert.equal((await req('GET', '/ui/missing.js')).status, 404);
  });

  it('signs in once through a link; the link cannot be reused', async () => {
    const link = await req('POST', '/ui/api/login-links', { body: {}, headers: ADMIN });
    assert.equal(link.status, 201);
    const path = String(link.body.path);
    assert.match(path, /^\/ui\/login\?code=[A-Za-z0-9_-]{43}$/);
    const first = await req('GET', path);
    assert.equal(first.status, 303);
    assert.equal(first.headers.location, '/ui/');
    const cookie = String(first.headers['set-cookie']?.[0]);
    assert.match(
      cookie,
      /^__Host-fleetyard-session=[^;]+; HttpOnly; Secure; SameSite=Strict; Path=\/; Max-Age=28800$/,
    );
    const again = await req('GET', path);
    assert.equal(again.status, 401);
    assert.match(again.text, /This login link is invalid or has already been used/);
    const session = await req('GET', '/ui/api/session', {
      headers: { cookie: cookie.split(';')[0]! },
    });
    assert.deepEqual(session.body, {
      user: { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] },
    });
  });

  it('refuses the dashboard API without a session', async () => {
    assert.equal((await req('GET', '/ui/api/session')).status, 401);
    assert.equal((await req('GET', '/ui/api/stream')).status, 401);
    const stale = await req('GET', '/ui/api/history', {
      headers: { cookie: '__Host-fleetyard-session=nope' },
    });
    assert.equal(stale.status, 401);
    assert.equal(stale.body.kind, 'Status');
  });

  it('the cookie works on the Kubernetes API, from the page only', async () => {
    const cookie = await signIn();
    const list = await req('GET', '/api/v1/namespaces/a/configmaps', { headers: { cookie } });
    assert.equal(list.status, 200);
    const body = { metadata: { name: 'from-page' } };
    const own = { cookie, origin: `https://${host}`, 'sec-fetch-site': 'same-origin' };
    const made = await req('POST', '/api/v1/namespaces/a/configmaps', { body, headers: own });
    assert.equal(made.status, 201, made.text);
    const foreign = { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    const forged = await req('DELETE', '/api/v1/namespaces/a/configmaps/from-page', {
      headers: foreign,
    });
    assert.equal(forged.status, 401);
    const noOrigin = await req('DELETE', '/api/v1/namespaces/a/configmaps/from-page', {
      headers: { cookie },
    });
    assert.equal(noOrigin.status, 401);
    assert.equal(
      (await req('GET', '/api/v1/namespaces/a/configmaps/from-page', { headers: ADMIN })).status,
      200,
    );
  });

  it('logs out', async () => {
    const cookie = await signIn();
    const own = { cookie, origin: `https://${host}` };
    const out = await req('POST', '/ui/api/logout', { headers: own });
    assert.equal(out.status, 204);
    assert.match(String(out.headers['set-cookie']?.[0]), /Max-Age=0/);
    assert.equal((await req('GET', '/ui/api/session', { headers: { cookie } })).status, 401);
  });

  it('gives no link to a ServiceAccount, nor to nobody', async () => {
    const sa = { ...ADMIN, 'impersonate-user': 'system:serviceaccount:a:default' };
    assert.equal((await req('POST', '/ui/api/login-links', { body: {}, headers: sa })).status, 403);
    assert.equal((await req('POST', '/ui/api/login-links', { body: {} })).status, 401);
  });

  it('streams the current objects, then changes, never a Secret', async () => {
    const cookie = await signIn();
    const frames = await stream(cookie, (f) => f.some((x) => x.type === 'SYNCED'));
    assert.equal(frames[0]?.type, 'HELLO');
    assert.equal(frames[0]?.user?.username, 'kubernetes-admin');
    assert.ok(names(frames, 'configmaps').includes('a/cm-a'));
    assert.deepEqual(names(frames, 'secrets'), []);
    const live = stream(cookie, (f) => f.some((x) => x.type === 'MODIFIED'));
    await new Promise((r) => setTimeout(r, 50));
    const patch = { metadata: { labels: { seen: 'yes' } } };
    await req('PATCH', '/api/v1/namespaces/b/configmaps/cm-b', {
      body: patch,
      contentType: 'application/merge-patch+json',
      headers: ADMIN,
    });
    const modified = (await live).find((f) => f.type === 'MODIFIED');
    assert.equal(modified?.object?.metadata?.name, 'cm-b');
  });

  it('shows a user only what it may list', async () => {
    const cookie = await signIn('alice');
    const frames = await stream(cookie, (f) => f.some((x) => x.type === 'SYNCED'));
    assert.deepEqual(names(frames, 'configmaps'), ['a/cm-a', 'a/from-page']);
    assert.deepEqual(names(frames, 'namespaces'), []);
    const history = await req('GET', '/ui/api/history', { headers: { cookie } });
    const entries = history.body.entries as Frame[];
    assert.ok(entries.length > 0);
    assert.ok(
      entries.every((e) => e.resource === 'configmaps' && e.object?.metadata?.namespace === 'a'),
    );
  });
});
