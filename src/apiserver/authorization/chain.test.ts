import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { UserInfo } from '../authentication/user.js';
import { authorizerChain, privilegedGroups, ruleResolverChain } from './chain.js';
import type { Attributes, AuthorizationResult, Authorizer, RuleResolver } from './types.js';

const fixed = (r: AuthorizationResult): Authorizer => ({ authorize: () => r });
const jane: UserInfo = { username: 'jane', groups: ['system:authenticated'] };
const admin: UserInfo = { username: 'admin', groups: ['system:masters', 'system:authenticated'] };
const attrs = (user: UserInfo): Attributes => ({
  user,
  verb: 'get',
  resourceRequest: false,
  path: '/',
});

describe('authorizerChain', () => {
  const cases: [string, Authorizer[], AuthorizationResult][] = [
    ['empty: no opinion', [], { decision: 'NoOpinion', reason: '' }],
    [
      'first allow wins',
      [
        fixed({ decision: 'NoOpinion', reason: 'a' }),
        fixed({ decision: 'Allow', reason: 'b' }),
        fixed({ decision: 'Deny', reason: 'c' }),
      ],
      { decision: 'Allow', reason: 'b' },
    ],
    [
      'first deny wins',
      [fixed({ decision: 'Deny', reason: 'no' }), fixed({ decision: 'Allow', reason: 'yes' })],
      { decision: 'Deny', reason: 'no' },
    ],
    [
      'no opinions join their reasons by newline',
      [
        fixed({ decision: 'NoOpinion', reason: 'a' }),
        fixed({ decision: 'NoOpinion', reason: '' }),
        fixed({ decision: 'NoOpinion', reason: 'b' }),
      ],
      { decision: 'NoOpinion', reason: 'a\nb' },
    ],
    [
      'no opinions aggregate their errors',
      [
        fixed({ decision: 'NoOpinion', reason: '', evaluationError: 'x' }),
        fixed({ decision: 'NoOpinion', reason: '', evaluationError: 'y' }),
      ],
      { decision: 'NoOpinion', reason: '', evaluationError: '[x, y]' },
    ],
  ];
  for (const [name, chain, want] of cases) {
    it(name, () => assert.deepEqual(authorizerChain(chain).authorize(attrs(jane)), want));
  }

  it('system:masters is allowed before anyone else is asked', () => {
    const chain = authorizerChain([privilegedGroups(), fixed({ decision: 'Deny', reason: 'no' })]);
    assert.deepEqual(chain.authorize(attrs(admin)), { decision: 'Allow', reason: '' });
    assert.deepEqual(chain.authorize(attrs(jane)), { decision: 'Deny', reason: 'no' });
  });
});

describe('ruleResolverChain', () => {
  const r = (rules: Partial<ReturnType<RuleResolver['rulesFor']>>): RuleResolver => ({
    rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false, ...rules }),
  });
  it('joins the rules, incomplete if any is, errors aggregated', () => {
    const chain = ruleResolverChain([
      r({
        incomplete: true,
        evaluationError: 'node authorizer does not support user rule resolution',
      }),
      r({
        resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
        evaluationError: 'e2',
      }),
      r({ nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/api'] }] }),
    ]);
    assert.deepEqual(chain.rulesFor(jane, 'ns'), {
      resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/api'] }],
      incomplete: true,
      evaluationError: '[node authorizer does not support user rule resolution, e2]',
    });
  });
});
