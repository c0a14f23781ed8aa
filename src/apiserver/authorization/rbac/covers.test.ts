import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { PolicyRule } from '../../../api/model/index.js';
import { breakdownRule, compactRules, compactString, covers } from './covers.js';
import { ruleAllows } from './rule-match.js';

describe('covers', () => {
  const cases: [string, PolicyRule[], PolicyRule[], boolean][] = [
    [
      'same rule',
      [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
      [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
      true,
    ],
    [
      'more verbs held',
      [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }],
      [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
      true,
    ],
    [
      'a missing verb',
      [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
      [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'delete'] }],
      false,
    ],
    [
      '* covers all',
      [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
      [
        {
          apiGroups: ['apps'],
          resources: ['deployments/scale'],
          verbs: ['update'],
          resourceNames: ['x'],
        },
      ],
      true,
    ],
    [
      '*/scale covers deployments/scale',
      [{ apiGroups: ['apps'], resources: ['*/scale'], verbs: ['get'] }],
      [{ apiGroups: ['apps'], resources: ['deployments/scale'], verbs: ['get'] }],
      true,
    ],
    [
      '*/scale does not cover deployments',
      [{ apiGroups: ['apps'], resources: ['*/scale'], verbs: ['get'] }],
      [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] }],
      false,
    ],
    [
      'named owner does not cover unnamed',
      [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['a'] }],
      [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }],
      false,
    ],
    [
      'unnamed owner covers named',
      [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }],
      [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['a', 'b'] }],
      true,
    ],
    [
      'names held one by one',
      [
        { apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['a'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['b'] },
      ],
      [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['a', 'b'] }],
      true,
    ],
    [
      'URL prefix',
      [{ nonResourceURLs: ['/apis/*'], verbs: ['get'] }],
      [{ nonResourceURLs: ['/apis/apps'], verbs: ['get'] }],
      true,
    ],
    [
      'URL * does not cover a resource',
      [{ nonResourceURLs: ['*'], verbs: ['*'] }],
      [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
      false,
    ],
    ['nothing to cover', [], [], true],
  ];
  for (const [name, owner, servant, want] of cases) {
    it(name, () => assert.equal(covers(owner, servant).covers, want));
  }

  it('names the broken-down rules not covered', () => {
    const r = covers(
      [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
      [{ apiGroups: [''], resources: ['pods', 'services'], verbs: ['get', 'list'] }],
    );
    assert.deepEqual(r.missing.map(compactString), [
      '{APIGroups:[""], Resources:["pods"], Verbs:["list"]}',
      '{APIGroups:[""], Resources:["services"], Verbs:["get"]}',
      '{APIGroups:[""], Resources:["services"], Verbs:["list"]}',
    ]);
  });

  // A covered sub-rule grants nothing its owner does not: every request a servant rule allows,
  // some owner rule allows.
  it('property: what a covered rule allows, the owner allows', () => {
    const word = fc.constantFrom('', 'apps', 'pods', 'log', 'get', 'list', 'a', '*');
    const list = fc.array(word, { minLength: 1, maxLength: 3 });
    const rule = fc.record({
      apiGroups: list,
      resources: fc.array(fc.constantFrom('pods', 'pods/log', '*', '*/log', 'services'), {
        minLength: 1,
        maxLength: 3,
      }),
      verbs: fc.array(fc.constantFrom('get', 'list', '*'), { minLength: 1, maxLength: 2 }),
      resourceNames: fc.array(fc.constantFrom('a', 'b'), { maxLength: 2 }),
    });
    const req = fc.record({
      verb: fc.constantFrom('get', 'list', 'delete'),
      apiGroup: fc.constantFrom('', 'apps'),
      resource: fc.constantFrom('pods', 'services'),
      subresource: fc.constantFrom('', 'log'),
      name: fc.constantFrom('', 'a', 'b'),
    });
    fc.assert(
      fc.property(fc.array(rule, { maxLength: 3 }), rule, req, (owner, servant, r) => {
        if (!covers(owner, [servant]).covers) return;
        const a = { user: { username: 'u', groups: [] }, resourceRequest: true, ...r };
        if (ruleAllows(a, servant)) assert.ok(owner.some((o) => ruleAllows(a, o)));
      }),
    );
  });
});

describe('compactString', () => {
  const cases: [PolicyRule, string][] = [
    [
      { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
      '{APIGroups:[""], Resources:["pods"], Verbs:["get"]}',
    ],
    [
      { nonResourceURLs: ['/healthz'], verbs: ['get', 'head'] },
      '{NonResourceURLs:["/healthz"], Verbs:["get" "head"]}',
    ],
    [
      {
        apiGroups: ['apps'],
        resources: ['deployments'],
        resourceNames: ['web'],
        verbs: ['update'],
      },
      '{APIGroups:["apps"], Resources:["deployments"], ResourceNames:["web"], Verbs:["update"]}',
    ],
    [{ verbs: [] }, '{}'],
  ];
  for (const [rule, want] of cases) it(want, () => assert.equal(compactString(rule), want));
});

describe('compactRules', () => {
  it('merges one group and resource across verbs, keeps the others', () => {
    const missing = [
      ...breakdownRule({ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }),
      { apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['a'] },
      { nonResourceURLs: ['/x'], verbs: ['get'] },
    ];
    assert.deepEqual(compactRules(missing).map(compactString).sort(), [
      '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}',
      '{APIGroups:[""], Resources:["secrets"], ResourceNames:["a"], Verbs:["get"]}',
      '{NonResourceURLs:["/x"], Verbs:["get"]}',
    ]);
  });
});
