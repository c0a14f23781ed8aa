/**
 * No credential reaches a log, at debug level (every request logged, the controller thread
 * logging too), however a client sends it: a good or bad `Authorization` header, Basic auth,
 * `?access_token=` / `?token=` (refused, but logged), a token as a path segment, cookies,
 * impersonation and front-proxy headers, userinfo in the request target, a WebSocket
 * protocol token, a token in the User-Agent. The whole of stderr is searched for each secret.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { type Cluster, startCluster } from './testing/cluster.js';

/** A random secret with upper case, lower case and digits, like most real tokens. */
const token = (prefix: string): string => `${prefix}Q7${randomBytes(24).toString('base64url')}`;
const hex = (prefix: string): string => `${prefix}-${randomBytes(12).toString('hex')}`;

const foreignBearer = token('fb');
const queryToken = token('qt');
const pathToken = token('pt');
const basicPassword = hex('basic-password');
const basic = Buffer.from(`admin:${basicPassword}`).toString('base64');
const cookie = hex('cookie');
const impersonated = hex('impersonated-user');
const remoteUser = hex('remote-user');
const unknownParam = hex('hunter');
const userinfo = hex('userinfo');
const websocket = token('ws');
const agentToken = token('ua');
const jwt = `eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ${randomBytes(12).toString('base64url')}.c2ln`;

interface Sent {
  readonly path: string;
  readonly headers?: Record<string, string>;
}

function send(c: Cluster, { path, headers = {} }: Sent): Promise<number> {
  const url = new URL(c.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path, ca: c.ca, headers, method: 'GET' },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('fleetyard up: credentials never reach the logs', () => {
  let cluster: Cluster;
  let stderr = '';
  const requests: Sent[] = [];
  before(async () => {
    cluster = await startCluster({ args: ['--log-level', 'debug', '--nodes', '1'] });
    const good = { authorization: `Bearer ${cluster.token}` };
    requests.push(
      { path: '/api/v1/namespaces', headers: good },
      { path: '/api/v1/namespaces', headers: { authorization: `Bearer ${foreignBearer}` } },
      { path: '/api/v1/namespaces', headers: { authorization: `Basic ${basic}` } },
      { path: `/api/v1/namespaces?access_token=${cluster.token}` },
      { path: `/api/v1/namespaces?token=${queryToken}&limit=1` },
      { path: `/api/v1/namespaces?labelSelector=${jwt}`, headers: good },
      { path: `/api/v1/namespaces?password=${unknownParam}`, headers: good },
      { path: `/api/v1/namespaces/default/configmaps/${cluster.token}`, headers: good },
      { path: `/api/v1/namespaces/${pathToken}/pods`, headers: good },
      { path: '/api/v1/namespaces', headers: { ...good, cookie: `session=${cookie}` } },
      {
        path: '/api/v1/namespaces',
        headers: {
          ...good,
          'impersonate-user': impersonated,
          'impersonate-group': impersonated,
          'x-remote-user': remoteUser,
          'proxy-authorization': `Basic ${basic}`,
          'sec-websocket-protocol': `base64url.bearer.authorization.k8s.io.${websocket}`,
          'user-agent': `evil/1.0 Bearer ${agentToken}`,
        },
      },
      // An absolute-form request target (as to a proxy), with userinfo.
      {
        path: `${cluster.url.replace('https://', `https://admin:${userinfo}@`)}/api`,
        headers: good,
      },
    );
    for (const r of requests) await send(cluster, r);
    assert.equal(await cluster.stop(), 0);
    stderr = cluster.stderr();
  });
  after(() => cluster.cleanup());

  it('logged every request (the search below is not vacuous)', () => {
    const logged = stderr.split('\n').filter((l) => l.includes('"msg":"request"'));
    assert.ok(logged.length >= requests.length, `${logged.length} request lines`);
    assert.ok(stderr.includes('"component":"controller-manager"'), 'controller thread logs');
    assert.ok(stderr.includes('[REDACTED]'));
  });

  it('wrote none of the secrets, anywhere on stderr', () => {
    const secrets = {
      token: cluster.token,
      foreignBearer,
      queryToken,
      pathToken,
      basic,
      basicPassword,
      cookie,
      impersonated,
      remoteUser,
      unknownParam,
      userinfo,
      websocket,
      agentToken,
      jwt,
    };
    for (const [name, secret] of Object.entries(secrets)) {
      assert.ok(!stderr.includes(secret), `${name} (${secret}) is in the log`);
    }
  });

  it('still shows what was asked: method, path, known parameters, status', () => {
    assert.match(stderr, /"url":"\/api\/v1\/namespaces\?token=\[REDACTED\]&limit=1"/);
    assert.match(stderr, /"url":"\/api\/v1\/namespaces\/\[REDACTED\]\/pods","code":200/);
    assert.match(stderr, /"method":"GET","url":"\/api\/v1\/namespaces","code":401/);
  });
});
