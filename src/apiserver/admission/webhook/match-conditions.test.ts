import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchConditions } from './match-conditions.js';

const input = {
  object: { metadata: { name: 'web', labels: { app: 'web' } }, spec: { replicas: 3 } },
  oldObject: null,
  request: { operation: 'CREATE', userInfo: { username: 'alice', groups: ['dev'] }, dryRun: false },
  authz: {
    user: { username: 'alice', groups: ['dev'] },
    requestResource: {
      group: 'apps',
      version: 'v1',
      resource: 'deployments',
      subresource: '',
      namespace: 'default',
      name: 'web',
    },
  },
};

describe('matchConditions', () => {
  const cases: Array<[string, string[], string, unknown]> = [
    ['no conditions match', [], 'Fail', { matches: true }],
    ['true', ["object.metadata.labels.app == 'web'"], 'Fail', { matches: true }],
    ['integers are CEL ints', ['object.spec.replicas > 2'], 'Fail', { matches: true }],
    [
      'request fields',
      ["request.userInfo.username == 'alice' && 'dev' in request.userInfo.groups"],
      'Fail',
      { matches: true },
    ],
    ['oldObject is null on create', ['oldObject == null'], 'Fail', { matches: true }],
    ['false skips', ['true', 'false'], 'Fail', { matches: false, failedCondition: 'c1' }],
    [
      'false wins over an error',
      ['object.missing.x', 'false'],
      'Fail',
      { matches: false, failedCondition: 'c1' },
    ],
    [
      'an error fails under Fail',
      ['object.missing == 1'],
      'Fail',
      {
        matches: false,
        error: "expression 'object.missing == 1' resulted in error: no such key: missing",
      },
    ],
    ['an error skips under Ignore', ['object.missing == 1'], 'Ignore', { matches: false }],
  ];
  for (const [name, expressions, policy, want] of cases) {
    it(name, () => {
      const conditions = expressions.map((expression, i) => ({ name: `c${i}`, expression }));
      assert.deepEqual(matchConditions(conditions, input, policy), want);
    });
  }

  it('authorizer checks ask the server authorizer for the requesting user', () => {
    const asked: string[] = [];
    const backend = {
      authorize: (a: {
        user: { username: string };
        verb: string;
        resource?: string;
        name?: string;
      }) => {
        asked.push(`${a.user.username} ${a.verb} ${a.resource ?? ''}/${a.name ?? ''}`);
        return { decision: a.verb === 'get' ? 'Allow' : 'NoOpinion', reason: '' };
      },
    };
    const conditions = [
      {
        name: 'can-get',
        expression:
          "authorizer.group('').resource('pods').namespace('default').check('get').allowed()",
      },
      {
        name: 'cannot-delete-self',
        expression: "!authorizer.requestResource.check('delete').allowed()",
      },
    ];
    assert.deepEqual(
      matchConditions(conditions, { ...input, authz: { ...input.authz, backend } }, 'Fail'),
      {
        matches: true,
      },
    );
    assert.deepEqual(asked, ['alice get pods/', 'alice delete deployments/web']);
    // Without a server authorizer nothing is allowed.
    assert.deepEqual(matchConditions(conditions.slice(0, 1), input, 'Fail'), {
      matches: false,
      failedCondition: 'can-get',
    });
  });
});
