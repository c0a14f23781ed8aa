import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { REDACTED } from './redact.js';
import { KNOWN_QUERY_PARAMETERS, looksLikeToken, redactRequestUrl } from './redact-url.js';

/** A token shaped as `security/token.ts` makes them (32 random bytes, base64url). */
const generateToken = (): string => randomBytes(32).toString('base64url');

const R = REDACTED;

describe('redactRequestUrl', () => {
  it('keeps ordinary API paths and Kubernetes query parameters as they are', () => {
    for (const url of [
      '/api/v1/namespaces/default/pods?labelSelector=app%3Dweb&limit=500',
      '/apis/apps/v1/namespaces/kube-system/deployments/coredns',
      '/api/v1/pods?watch=true&resourceVersion=1234&timeoutSeconds=300&allowWatchBookmarks=true',
      '/api/v1/namespaces/default/pods/web-7d4b9c8f6d-x2x9z/log?container=app&tailLines=10',
      '/apis/celld.fleetyard.dev/v1alpha1/namespaces/a/fleets/f?fieldManager=kubectl-client-side-apply&fieldValidation=Strict',
      '/readyz',
      '/api/v1/namespaces/default/configmaps/5f0c6a52-0b7e-4c0e-9d1f-2b0f2b1b1c3a',
    ]) {
      assert.equal(redactRequestUrl(url), url);
    }
  });

  it('redacts the value of every parameter the API does not define', () => {
    assert.equal(
      redactRequestUrl('/api/v1/namespaces?access_token=abc&token=def&limit=5&foo=bar'),
      `/api/v1/namespaces?access_token=${R}&token=${R}&limit=5&foo=${R}`,
    );
    // exec arguments may carry a password: `command` is not on the list.
    assert.equal(
      redactRequestUrl('/x/exec?command=mysql&command=-pS3cret'),
      `/x/exec?command=${R}&command=${R}`,
    );
  });

  it('redacts a known parameter whose value looks like a token, and a token as a name', () => {
    const token = generateToken();
    assert.equal(redactRequestUrl(`/api?labelSelector=${token}`), `/api?labelSelector=${R}`);
    assert.equal(redactRequestUrl(`/api?${token}`), `/api?${R}`);
    assert.equal(redactRequestUrl(`/api?x=1&Bearer%20${token}=`), `/api?x=${R}&${R}=${R}`);
  });

  it('redacts path segments that look like a token, encoded or not', () => {
    const token = `Zq8${generateToken()}`;
    assert.equal(
      redactRequestUrl(`/api/v1/namespaces/${token}/pods?limit=1`),
      `/api/v1/namespaces/${R}/pods?limit=1`,
    );
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln';
    assert.equal(redactRequestUrl(`/api/${encodeURIComponent(`Bearer ${jwt}`)}`), `/api/${R}`);
  });

  it('drops userinfo from an absolute-form request target', () => {
    assert.equal(
      redactRequestUrl('https://admin:hunter2@10.0.0.1:6443/api?limit=1'),
      'https://10.0.0.1:6443/api?limit=1',
    );
  });

  it('survives malformed escapes', () => {
    assert.equal(redactRequestUrl('/api/%E0%A4%A?limit=%ZZ'), '/api/%E0%A4%A?limit=%ZZ');
  });
});

describe('looksLikeToken', () => {
  it('knows tokens of every common shape', () => {
    for (const t of [
      generateToken().replace(/^./, 'A1a'),
      'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln',
      'abcdef.0123456789abcdef',
      'd41d8cd98f00b204e9800998ecf8427e',
      'Bearer x',
      'AKIAIOSFODNN7EXAMPLE9wJalrXUtnFEMI',
    ]) {
      assert.equal(looksLikeToken(t), true, t);
    }
  });

  it('does not mistake Kubernetes names and values for tokens', () => {
    for (const v of [
      'web-7d4b9c8f6d-x2x9z',
      'kube-controller-manager-control-plane-node-0001',
      '5f0c6a52-0b7e-4c0e-9d1f-2b0f2b1b1c3a',
      'app.kubernetes.io/name=web',
      '123456789',
      'v1beta1',
      'Strict',
    ]) {
      assert.equal(looksLikeToken(v), false, v);
    }
  });

  it('lists the Kubernetes query parameters clients send', () => {
    for (const p of ['labelSelector', 'fieldSelector', 'watch', 'resourceVersion', 'dryRun']) {
      assert.ok(KNOWN_QUERY_PARAMETERS.has(p), p);
    }
  });
});
