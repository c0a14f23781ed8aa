import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Namespace } from '../../api/model/index.js';
import { planServiceAccounts } from './plan.js';

function namespace(phase: string | undefined, deleting = false): Namespace {
  return {
    metadata: { name: 'team', ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
    ...(phase === undefined ? {} : { status: { phase } }),
  };
}

describe('planServiceAccounts', () => {
  const cases: {
    name: string;
    namespace: Namespace | undefined;
    existing: string[];
    toEnsure?: string[];
    want: string[];
  }[] = [
    {
      name: 'a new namespace: default',
      namespace: namespace('Active'),
      existing: [],
      want: ['default'],
    },
    {
      name: 'default there: nothing',
      namespace: namespace('Active'),
      existing: ['default', 'app'],
      want: [],
    },
    {
      name: 'only other accounts there: default',
      namespace: namespace('Active'),
      existing: ['app'],
      want: ['default'],
    },
    {
      name: 'a terminating namespace: nothing',
      namespace: namespace('Terminating', true),
      existing: [],
      want: [],
    },
    {
      name: 'a namespace without a phase: nothing',
      namespace: namespace(undefined),
      existing: [],
      want: [],
    },
    { name: 'no namespace: nothing', namespace: undefined, existing: [], want: [] },
    {
      name: 'a longer ensure list: each missing one',
      namespace: namespace('Active'),
      existing: ['builder'],
      toEnsure: ['default', 'builder', 'deployer'],
      want: ['default', 'deployer'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const plan = planServiceAccounts(c.namespace, new Set(c.existing), c.toEnsure);
      assert.deepEqual(
        plan.map((sa) => sa.metadata?.name),
        c.want,
      );
      for (const sa of plan) {
        assert.deepEqual(sa, {
          apiVersion: 'v1',
          kind: 'ServiceAccount',
          metadata: { name: sa.metadata?.name, namespace: 'team' },
        });
      }
    });
  }
});
