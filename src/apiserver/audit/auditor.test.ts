import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forbidden } from '../../api/errors.js';
import { ADMIN, type UserInfo } from '../authentication/user.js';
import { attachAudit, auditOf, recordAuthorization } from './auditor.js';
import { DEFAULT_AUDIT_POLICY_YAML } from './default-policy.js';
import { parsePolicy } from './policy.js';
import { dev, request, setup } from './testing/fixtures.js';

describe('Auditor events', () => {
  it('create pod at Request level: request body without managedFields, no response body', async () => {
    const { sink, clock, auditor } = setup();
    const a = auditor.begin({ ...request('POST', '/api/v1/namespaces/default/pods'), user: dev });
    recordAuthorization(a, {
      decision: 'Allow',
      reason: 'RBAC: allowed by RoleBinding "edit/default"',
    });
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'default', managedFields: [{ manager: 'kubectl' }] },
      spec: { containers: [] },
    };
    a.requestObject(pod);
    pod.metadata.name = 'changed-later';
    await clock.step(5);
    a.responseObject({ ...pod, metadata: { ...pod.metadata, uid: 'pod-uid' } });
    a.finish(201);
    assert.equal(sink.lines.length, 2);
    assert.deepEqual(
      sink.lines.map((l) => JSON.parse(l).stage),
      ['RequestReceived', 'ResponseComplete'],
    );
    assert.equal(
      sink.lines[1],
      '{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Request","auditID":"id-1","stage":"ResponseComplete",' +
        '"requestURI":"/api/v1/namespaces/default/pods","verb":"create","user":{"username":"dev","uid":"u-1","groups":["system:authenticated"]},' +
        '"sourceIPs":["127.0.0.1"],"userAgent":"kubectl/v1.33.0","objectRef":{"resource":"pods","namespace":"default","name":"web","apiVersion":"v1"},' +
        '"responseStatus":{"metadata":{},"code":201},' +
        '"requestObject":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","namespace":"default"},"spec":{"containers":[]}},' +
        '"requestReceivedTimestamp":"2026-12-02T05:10:00.123000Z","stageTimestamp":"2026-12-02T05:10:00.128000Z",' +
        '"annotations":{"authorization.k8s.io/decision":"allow","authorization.k8s.io/reason":"RBAC: allowed by RoleBinding \\"edit/default\\""}}',
    );
    // The first stage has nothing that was learnt later.
    const first = JSON.parse(sink.lines[0]!);
    assert.equal(first.responseStatus, undefined);
    assert.equal(first.annotations, undefined);
    assert.equal(first.stageTimestamp, first.requestReceivedTimestamp);
  });

  it('get secret at Metadata level: no body, no secret value anywhere', () => {
    const { sink, auditor } = setup();
    const a = auditor.begin({
      ...request('GET', '/api/v1/namespaces/default/secrets/db'),
      user: dev,
    });
    assert.equal(a.recordsRequestBody, false);
    a.responseObject({
      kind: 'Secret',
      metadata: { name: 'db' },
      data: { password: 'aHVudGVyMg==' },
    });
    a.finish(200);
    const ev = sink.events()[1]!;
    assert.equal(ev.level, 'Metadata');
    assert.equal(ev.responseObject, undefined);
    assert.deepEqual(ev.objectRef, {
      resource: 'secrets',
      namespace: 'default',
      name: 'db',
      apiVersion: 'v1',
    });
    assert.ok(!sink.lines.join('\n').includes('aHVudGVyMg=='));
  });

  it('a 403 records the Status bounded fields and the forbid decision', () => {
    const { sink, auditor } = setup();
    const a = auditor.begin({ ...request('GET', '/api/v1/namespaces/default/pods'), user: dev });
    recordAuthorization(a, { decision: 'NoOpinion', reason: '' });
    const err = forbidden(
      { group: '', resource: 'pods' },
      '',
      'User "dev" cannot list resource "pods" in API group "" in the namespace "default"',
    );
    a.finish(403, err.status);
    const ev = sink.events()[1]!;
    assert.deepEqual(ev.responseStatus, {
      metadata: {},
      status: 'Failure',
      message:
        'pods is forbidden: User "dev" cannot list resource "pods" in API group "" in the namespace "default"',
      reason: 'Forbidden',
      details: { kind: 'pods' },
      code: 403,
    });
    assert.deepEqual(ev.annotations, {
      'authorization.k8s.io/decision': 'forbid',
      'authorization.k8s.io/reason': '',
    });
  });

  it('a watch writes ResponseStarted when its headers go out, then ResponseComplete', async () => {
    const { sink, clock, auditor } = setup();
    const a = auditor.begin({
      ...request('GET', '/api/v1/pods?watch=true'),
      user: dev,
      longRunning: true,
    });
    await clock.step(1);
    a.responseStarted(200);
    await clock.step(60_000);
    a.finish(200);
    const evs = sink.events();
    assert.deepEqual(
      evs.map((e) => e.stage),
      ['RequestReceived', 'ResponseStarted', 'ResponseComplete'],
    );
    assert.equal(evs[0]!.verb, 'watch');
    assert.equal(evs[1]!.stageTimestamp, '2026-12-02T05:10:00.124000Z');
    assert.equal(evs[2]!.stageTimestamp, '2026-12-02T05:11:00.124000Z');
    assert.deepEqual(evs[2]!.responseStatus, { metadata: {}, code: 200 });
  });

  it('a long-running request that ends without headers fakes them as upstream', () => {
    const { sink, auditor } = setup();
    const a = auditor.begin({
      ...request('GET', '/api/v1/pods?watch=1'),
      user: dev,
      longRunning: true,
    });
    a.finish();
    const evs = sink.events();
    assert.deepEqual(
      evs.map((e) => e.stage),
      ['RequestReceived', 'ResponseStarted', 'ResponseComplete'],
    );
    assert.deepEqual(evs[2]!.responseStatus, {
      metadata: {},
      status: 'Success',
      message: 'Connection closed early',
      code: 200,
    });
  });

  it('a short request writes no ResponseStarted, and finishes once', () => {
    const { sink, auditor } = setup();
    const a = auditor.begin({ ...request('GET', '/api/v1/pods'), user: dev });
    a.responseStarted(200);
    a.finish(200);
    a.finish(500);
    assert.deepEqual(
      sink.events().map((e) => e.stage),
      ['RequestReceived', 'ResponseComplete'],
    );
  });

  it('None: nothing written, still an audit ID, the request header honoured', () => {
    const { sink, auditor } = setup(parsePolicy(DEFAULT_AUDIT_POLICY_YAML));
    const a = auditor.begin({
      ...request('GET', '/healthz', { 'audit-id': 'from-client' }),
      user: ADMIN,
    });
    assert.equal(a.level, 'None');
    assert.equal(a.auditID, 'from-client');
    a.annotate('k', 'v');
    a.requestObject({});
    a.finish(200);
    assert.equal(sink.lines.length, 0);
  });

  it('sourceIPs follow utilnet.SourceIPs: forwarded, real IP, then the peer', () => {
    const { sink, auditor } = setup();
    const r = request('GET', '/api/v1/pods', {
      'x-forwarded-for': '10.0.0.1, bogus, 10.0.0.2',
      'x-real-ip': '10.0.0.1',
    });
    auditor.begin({ ...r, user: dev }).finish(200);
    assert.deepEqual(sink.events()[0]!.sourceIPs, ['10.0.0.1', '10.0.0.2', '127.0.0.1']);
  });

  it('impersonation is recorded after RequestReceived; the policy sees the real user', () => {
    const { sink, auditor } = setup();
    const as: UserInfo = {
      username: 'system:serviceaccount:ns:sa',
      groups: ['system:serviceaccounts'],
    };
    auditor
      .begin({ ...request('GET', '/api/v1/pods'), user: ADMIN, impersonatedUser: as })
      .finish(200);
    const [received, complete] = sink.events();
    assert.equal(received!.impersonatedUser, undefined);
    assert.deepEqual(complete!.impersonatedUser, { username: as.username, groups: as.groups });
    assert.equal((complete!.user as { username: string }).username, 'kubernetes-admin');
  });

  it('a patch is logged raw; annotations keep their first value', () => {
    const { sink, auditor } = setup(
      parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: RequestResponse}]'),
    );
    const a = auditor.begin({ ...request('PATCH', '/api/v1/namespaces/a/pods/p'), user: dev });
    a.requestPatch('{"metadata":{"labels":{"a":"b"}}}');
    a.annotate('validation.policy.admission.k8s.io/validation_failure', '[{"message":"x"}]');
    a.annotate('validation.policy.admission.k8s.io/validation_failure', 'second');
    a.finish(200);
    const ev = sink.events()[1]!;
    assert.deepEqual(ev.requestObject, { metadata: { labels: { a: 'b' } } });
    assert.deepEqual(ev.annotations, {
      'validation.policy.admission.k8s.io/validation_failure': '[{"message":"x"}]',
    });
  });

  it('failed authentication: one ResponseStarted event, 401, no user', () => {
    const { sink, auditor } = setup();
    auditor.failedAuthentication({
      ...request('GET', '/api/v1/pods', { authorization: 'Bearer nope' }),
    });
    const evs = sink.events();
    assert.deepEqual(
      evs.map((e) => e.stage),
      ['ResponseStarted'],
    );
    assert.deepEqual(evs[0]!.user, {});
    assert.deepEqual(evs[0]!.responseStatus, {
      metadata: {},
      message: 'Authentication failed, attempted: bearer',
      code: 401,
    });
    assert.ok(!sink.lines.join('').includes('nope'));
  });

  it('a panic writes Panic with 500 instead of ResponseComplete', () => {
    const { sink, auditor } = setup();
    const a = auditor.begin({ ...request('GET', '/api/v1/pods'), user: dev });
    a.panicked('boom');
    a.finish(200);
    const evs = sink.events();
    assert.deepEqual(
      evs.map((e) => e.stage),
      ['RequestReceived', 'Panic'],
    );
    assert.equal(
      (evs[1]!.responseStatus as { message: string }).message,
      "APIServer panic'd: boom",
    );
  });
});

describe('attachAudit / auditOf', () => {
  it('reaches the handle from the request, and a no-op without one', () => {
    const { sink, auditor } = setup(
      parsePolicy(
        'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: RequestResponse, omitManagedFields: true}]',
      ),
    );
    const r = request('GET', '/api/v1/namespaces/a/pods/p');
    assert.equal(auditOf(r.req).level, 'None');
    attachAudit(r.req, auditor.begin({ ...r, user: dev }));
    auditOf(r.req).responseJson('{"kind":"Pod","metadata":{"name":"p","managedFields":[{}]}}\n');
    auditOf(r.req).finish(200);
    assert.deepEqual(sink.events()[1]!.responseObject, { kind: 'Pod', metadata: { name: 'p' } });
  });
});
