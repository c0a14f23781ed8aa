import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PolicyRule } from '../../../api/model/index.js';
import type { UserInfo } from '../../authentication/user.js';
import type { Attributes } from '../types.js';
import { nonResourceURLMatches, resourceMatches, ruleAllows } from './rule-match.js';

const user: UserInfo = { username: 'jane', groups: [] };

const res = (verb: string, resource: string, more: Partial<Attributes> = {}): Attributes => ({
  user,
  verb,
  resourceRequest: true,
  apiGroup: '',
  resource,
  ...more,
});

const path = (verb: string, p: string): Attributes => ({
  user,
  verb,
  resourceRequest: false,
  path: p,
});

describe('ruleAllows', () => {
  const pods: PolicyRule = { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] };
  const cases: [string, PolicyRule, Attributes, boolean][] = [
    ['exact verb, group, resource', pods, res('get', 'pods'), true],
    ['other verb', pods, res('delete', 'pods'), false],
    ['other group', pods, res('get', 'pods', { apiGroup: 'apps' }), false],
    ['subresource needs its own entry', pods, res('get', 'pods', { subresource: 'log' }), false],
    [
      'verb *',
      { apiGroups: [''], resources: ['pods'], verbs: ['*'] },
      res('escalate', 'pods'),
      true,
    ],
    [
      'group *',
      { apiGroups: ['*'], resources: ['deployments'], verbs: ['get'] },
      res('get', 'deployments', { apiGroup: 'apps' }),
      true,
    ],
    [
      'resource * covers subresources',
      { apiGroups: [''], resources: ['*'], verbs: ['get'] },
      res('get', 'pods', { subresource: 'log' }),
      true,
    ],
    [
      'pods/log',
      { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
      res('get', 'pods', { subresource: 'log' }),
      true,
    ],
    [
      'pods/log is not pods',
      { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
      res('get', 'pods'),
      false,
    ],
    [
      '*/scale',
      { apiGroups: ['*'], resources: ['*/scale'], verbs: ['update'] },
      res('update', 'deployments', { apiGroup: 'apps', subresource: 'scale' }),
      true,
    ],
    [
      '*/scale is not the resource',
      { apiGroups: ['*'], resources: ['*/scale'], verbs: ['update'] },
      res('update', 'deployments', { apiGroup: 'apps' }),
      false,
    ],
    [
      '*/scale is not */status',
      { apiGroups: ['*'], resources: ['*/scale'], verbs: ['update'] },
      res('update', 'deployments', { subresource: 'status' }),
      false,
    ],
    [
      'resourceNames match',
      { apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'], verbs: ['get'] },
      res('get', 'configmaps', { name: 'a' }),
      true,
    ],
    [
      'resourceNames other',
      { apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'], verbs: ['get'] },
      res('get', 'configmaps', { name: 'b' }),
      false,
    ],
    [
      'resourceNames and a list (no name)',
      { apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'], verbs: ['list'] },
      res('list', 'configmaps'),
      false,
    ],
    ['a resource rule never matches a path', pods, path('get', '/api'), false],
    ['URL exact', { nonResourceURLs: ['/healthz'], verbs: ['get'] }, path('get', '/healthz'), true],
    [
      'URL prefix *',
      { nonResourceURLs: ['/healthz/*'], verbs: ['get'] },
      path('get', '/healthz/etcd'),
      true,
    ],
    [
      'URL prefix * matches the bare prefix',
      { nonResourceURLs: ['/healthz/*'], verbs: ['get'] },
      path('get', '/healthz/'),
      true,
    ],
    [
      'URL prefix * does not match without the slash',
      { nonResourceURLs: ['/healthz/*'], verbs: ['get'] },
      path('get', '/healthz'),
      false,
    ],
    ['URL * alone', { nonResourceURLs: ['*'], verbs: ['*'] }, path('post', '/anything'), true],
    [
      'URL rule verb',
      { nonResourceURLs: ['/metrics'], verbs: ['get'] },
      path('post', '/metrics'),
      false,
    ],
    [
      'a URL rule never matches a resource',
      { nonResourceURLs: ['*'], verbs: ['*'] },
      res('get', 'pods'),
      false,
    ],
  ];
  for (const [name, rule, attrs, want] of cases) {
    it(name, () => assert.equal(ruleAllows(attrs, rule), want));
  }
});

describe('matchers, as upstream writes them', () => {
  it('*/sub needs exactly "*/" before the subresource', () => {
    const rule: PolicyRule = { apiGroups: [''], resources: ['x*/log'], verbs: ['get'] };
    assert.equal(resourceMatches(rule, 'pods/log', 'log'), false);
  });
  it('a URL ending in several * is a prefix without them', () => {
    assert.equal(
      nonResourceURLMatches({ nonResourceURLs: ['/a**'], verbs: ['get'] }, '/abc'),
      true,
    );
  });
});
