import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Auditor } from './auditor.js';
import { DEFAULT_AUDIT_POLICY_YAML } from './default-policy.js';
import { LogBackend } from './log-backend.js';
import { parsePolicy } from './policy.js';
import { dev, request, setup } from './testing/fixtures.js';

describe('no token or secret value in the log', () => {
  it('a TokenReview token is dropped at Request level, kept at RequestResponse', () => {
    const { sink, auditor } = setup();
    const review = {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      spec: { token: 'eyJsecret', audiences: ['a'] },
    };
    const a = auditor.begin({
      ...request('POST', '/apis/authentication.k8s.io/v1/tokenreviews'),
      user: dev,
    });
    a.requestObject(review);
    a.finish(201);
    assert.deepEqual(sink.events()[1]!.requestObject, { ...review, spec: { audiences: ['a'] } });
    assert.ok(!sink.lines.join('').includes('eyJsecret'));
    const b = auditor.begin({
      ...request('PUT', '/apis/authentication.k8s.io/v1/tokenreviews/x'),
      user: dev,
    });
    b.requestObject(review);
    b.finish(200);
    assert.deepEqual(sink.events()[3]!.requestObject, review);
  });

  it('a TokenRequest at Metadata never logs the issued token', () => {
    const { sink, auditor } = setup();
    const a = auditor.begin({
      ...request('POST', '/api/v1/namespaces/ns/serviceaccounts/sa/token'),
      user: dev,
    });
    a.requestObject({ kind: 'TokenRequest', spec: { audiences: ['x'] } });
    a.responseObject({ kind: 'TokenRequest', status: { token: 'eyJissued' } });
    a.finish(201);
    assert.equal(sink.events()[1]!.level, 'Metadata');
    assert.ok(!sink.lines.join('').includes('eyJ'));
  });
});

describe('cost by level', () => {
  /** A body whose serialisation fails: proves no JSON work is done with it. */
  const unserialisable = {
    metadata: { name: 'big', namespace: 'default', uid: 'u', resourceVersion: '7' },
    toJSON(): never {
      throw new Error('serialised');
    },
  };
  it('Metadata reads a body only for its objectRef, never serialises it', () => {
    const { sink, auditor } = setup();
    const a = auditor.begin({
      ...request('PUT', '/api/v1/namespaces/default/secrets/big'),
      user: dev,
    });
    a.requestObject(unserialisable);
    a.responseObject(unserialisable);
    a.finish(200);
    assert.deepEqual(sink.events()[1]!.objectRef, {
      resource: 'secrets',
      namespace: 'default',
      name: 'big',
      uid: 'u',
      apiVersion: 'v1',
      resourceVersion: '7',
    });
  });
  it('Request serialises the request body only', () => {
    const { auditor } = setup();
    const a = auditor.begin({ ...request('POST', '/api/v1/namespaces/default/pods'), user: dev });
    a.responseObject(unserialisable);
    assert.throws(() => a.requestObject(unserialisable), /serialised/);
  });
});

describe('Auditor with the log backend', () => {
  it('writes parseable JSON lines to the file by close', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fy-auditor-'));
    try {
      const sink = await LogBackend.open({ path: join(dir, 'audit.log') });
      const auditor = new Auditor({ policy: parsePolicy(DEFAULT_AUDIT_POLICY_YAML), sink });
      for (let i = 0; i < 100; i++) {
        const a = auditor.begin({
          ...request('POST', '/api/v1/namespaces/default/pods'),
          user: dev,
        });
        a.requestObject({ kind: 'Pod', metadata: { name: `p${i}` } });
        a.finish(201);
      }
      await auditor.close();
      const lines = (await readFile(join(dir, 'audit.log'), 'utf8')).trimEnd().split('\n');
      // The default policy omits RequestReceived: one line per request.
      assert.deepEqual(
        lines.map((l) => JSON.parse(l).requestObject.metadata.name),
        Array.from({ length: 100 }, (_, i) => `p${i}`),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
