import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PolicyRule } from '../../../api/model/index.js';
import { breakdownRule, ruleCovers, uncoveredRules } from './covers.js';

const r = (
  verbs: string[],
  groups: string[],
  resources: string[],
  names?: string[],
): PolicyRule => ({
  verbs,
  apiGroups: groups,
  resources,
  ...(names ? { resourceNames: names } : {}),
});
const url = (verbs: string[], urls: string[]): PolicyRule => ({ verbs, nonResourceURLs: urls });

describe('ruleCovers (upstream policy_comparator)', () => {
  const cases: [string, PolicyRule, PolicyRule, boolean][] = [
    ['exact', r(['get'], [''], ['pods']), r(['get'], [''], ['pods']), true],
    ['other verb', r(['get'], [''], ['pods']), r(['list'], [''], ['pods']), false],
    ['star verb/group/resource', r(['*'], ['*'], ['*']), r(['get'], ['apps'], ['x/y']), true],
    [
      'star subresource',
      r(['get'], ['*'], ['*/scale']),
      r(['get'], ['apps'], ['deployments/scale']),
      true,
    ],
    [
      'star subresource, other sub',
      r(['get'], ['*'], ['*/scale']),
      r(['get'], ['apps'], ['deployments/status']),
      false,
    ],
    ['no names covers a name', r(['get'], [''], ['cm']), r(['get'], [''], ['cm'], ['a']), true],
    ['a name does not cover all', r(['get'], [''], ['cm'], ['a']), r(['get'], [''], ['cm']), false],
    ['url prefix star', url(['get'], ['/healthz/*']), url(['get'], ['/healthz/etcd']), true],
    ['url star', url(['*'], ['*']), url(['get'], ['/metrics']), true],
    ['resource rule never covers a url', r(['*'], ['*'], ['*']), url(['get'], ['/metrics']), false],
    ['url rule never covers a resource', url(['*'], ['*']), r(['get'], [''], ['pods']), false],
  ];
  for (const [name, owner, sub, want] of cases) {
    it(name, () => assert.equal(ruleCovers(owner, sub), want));
  }
});

describe('uncoveredRules', () => {
  it('breaks rules down and returns only what is missing', () => {
    assert.equal(breakdownRule(r(['get', 'list'], ['', 'apps'], ['a', 'b'], ['n'])).length, 8);
    assert.deepEqual(
      uncoveredRules([r(['get'], [''], ['pods'])], [r(['get', 'list'], [''], ['pods'])]),
      [r(['list'], [''], ['pods'])],
    );
    assert.deepEqual(uncoveredRules([r(['*'], ['*'], ['*'])], [r(['get'], [''], ['pods'])]), []);
  });
});
