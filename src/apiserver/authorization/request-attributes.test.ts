import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ADMIN } from '../authentication/user.js';
import { parseRequestInfo } from '../request-info.js';
import { requestAttributes } from './request-attributes.js';

function attrs(method: string, target: string) {
  const url = new URL(target, 'https://x');
  return requestAttributes(
    ADMIN,
    parseRequestInfo(method, url.pathname, url.searchParams),
    method,
    url.searchParams,
  );
}

describe('requestAttributes', () => {
  const table: [string, string, Record<string, unknown>][] = [
    ['GET', '/api/v1/namespaces/a/pods', { verb: 'list', namespace: 'a', resource: 'pods' }],
    ['GET', '/api/v1/namespaces/a/pods?watch=1', { verb: 'watch', resource: 'pods' }],
    ['GET', '/api/v1/namespaces/a/pods/web/log', { verb: 'get', subresource: 'log', name: 'web' }],
    ['GET', '/api/v1/namespaces/a/pods/web/exec', { verb: 'create', subresource: 'exec' }],
    ['POST', '/api/v1/namespaces/a/pods/web/exec', { verb: 'create', subresource: 'exec' }],
    ['DELETE', '/api/v1/namespaces/a/pods', { verb: 'deletecollection', name: '' }],
    ['GET', '/api/v1/namespaces/team', { resource: 'namespaces', name: 'team', namespace: 'team' }],
    ['GET', '/api/v1/namespaces', { resource: 'namespaces', name: '', namespace: '' }],
    [
      'GET',
      '/apis/apps/v1/namespaces/a/deployments?fieldSelector=metadata.name%3Dweb&watch=true',
      { verb: 'watch', apiGroup: 'apps', name: 'web' },
    ],
    [
      'PUT',
      '/apis/apps/v1/namespaces/a/deployments/web/scale',
      { verb: 'update', subresource: 'scale' },
    ],
    ['GET', '/healthz', { verb: 'get', resourceRequest: false, path: '/healthz' }],
    ['POST', '/logs', { verb: 'post', resourceRequest: false }],
  ];
  for (const [method, target, want] of table) {
    it(`${method} ${target}`, () => {
      const got: Record<string, unknown> = { ...attrs(method, target) };
      for (const [k, v] of Object.entries(want)) assert.equal(got[k], v, k);
    });
  }
});
