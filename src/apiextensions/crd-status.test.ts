import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CrdNames, CustomResourceDefinition } from '../api/crd-types.js';
import { planCrdStatus, planNames, setCondition } from './crd-status.js';

const NOW = '2026-11-30T10:00:00Z';

function crd(name: string, names: CrdNames, accepted?: CrdNames): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name },
    spec: { group: 'example.com', names, scope: 'Namespaced', versions: [] },
    ...(accepted ? { status: { acceptedNames: accepted } } : {}),
  };
}

const widgets: CrdNames = {
  plural: 'widgets',
  singular: 'widget',
  kind: 'Widget',
  listKind: 'WidgetList',
  shortNames: ['wd'],
};

describe('planNames (upstream naming controller)', () => {
  const cases: Array<{
    name: string;
    requested: CrdNames;
    others: CustomResourceDefinition[];
    reason: string;
    message: string;
    accepted: CrdNames;
  }> = [
    {
      name: 'fresh names are all accepted',
      requested: widgets,
      others: [],
      reason: 'NoConflicts',
      message: 'no conflicts found',
      accepted: widgets,
    },
    {
      name: 'a plural another CRD of the group holds conflicts',
      requested: widgets,
      others: [crd('widgets.example.com', widgets, { plural: 'widgets' })],
      reason: 'PluralConflict',
      message: '"widgets" is already in use',
      accepted: { ...widgets, plural: undefined },
    },
    {
      name: 'a kind in use conflicts; the other names are still accepted',
      requested: { ...widgets, plural: 'gadgets', singular: 'gadget', shortNames: [] },
      others: [crd('widgets.example.com', widgets, { kind: 'Widget', listKind: 'WidgetList' })],
      reason: 'ListKindConflict',
      message: '"WidgetList" is already in use',
      accepted: { plural: 'gadgets', singular: 'gadget', shortNames: [] },
    },
    {
      name: 'several short names in use are reported together',
      requested: { ...widgets, shortNames: ['a', 'b'] },
      others: [crd('x.example.com', {}, { shortNames: ['a', 'b'] })],
      reason: 'ShortNamesConflict',
      message: '["a" is already in use, "b" is already in use]',
      accepted: { ...widgets, shortNames: undefined },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const plan = planNames(crd('mine.example.com', c.requested), c.others);
      assert.equal(plan.namesAccepted.reason, c.reason);
      assert.equal(plan.namesAccepted.message, c.message);
      assert.equal(plan.namesAccepted.status, c.reason === 'NoConflicts' ? 'True' : 'False');
      for (const [k, v] of Object.entries(c.accepted)) {
        assert.deepEqual(plan.acceptedNames[k as keyof CrdNames], v, k);
      }
    });
  }

  it('names the CRD already holds stay accepted even when others list them', () => {
    const mine = crd('widgets.example.com', widgets, widgets);
    const plan = planNames(mine, [crd('other.example.com', {}, { shortNames: ['wd'] })]);
    assert.equal(plan.namesAccepted.status, 'True');
    assert.deepEqual(plan.acceptedNames.shortNames, ['wd']);
  });
});

describe('planCrdStatus', () => {
  it('accepted names establish the CRD with upstream reasons', () => {
    const status = planCrdStatus(crd('widgets.example.com', widgets), [], NOW);
    assert.deepEqual(status.conditions, [
      {
        type: 'NamesAccepted',
        status: 'True',
        lastTransitionTime: NOW,
        reason: 'NoConflicts',
        message: 'no conflicts found',
      },
      {
        type: 'Established',
        status: 'True',
        lastTransitionTime: NOW,
        reason: 'InitialNamesAccepted',
        message: 'the initial names have been accepted',
      },
    ]);
  });

  it('a conflict leaves a new CRD not established', () => {
    const status = planCrdStatus(
      crd('mine.example.com', widgets),
      [crd('widgets.example.com', widgets, widgets)],
      NOW,
    );
    const established = status.conditions?.find((c) => c.type === 'Established');
    assert.equal(established?.status, 'False');
    assert.equal(established?.reason, 'NotAccepted');
  });

  it('is stable: planning the planned status again changes nothing', () => {
    const first = planCrdStatus(crd('widgets.example.com', widgets), [], NOW);
    const again = planCrdStatus(
      { ...crd('widgets.example.com', widgets), status: first },
      [],
      '2026-11-30T11:00:00Z',
    );
    assert.deepEqual(again, first);
  });
});

describe('setCondition', () => {
  it('keeps lastTransitionTime while the status holds, moves it on a change', () => {
    const before = [{ type: 'A', status: 'True' as const, lastTransitionTime: 'T0' }];
    assert.equal(
      setCondition(before, { type: 'A', status: 'True' }, 'T1')[0]?.lastTransitionTime,
      'T0',
    );
    assert.equal(
      setCondition(before, { type: 'A', status: 'False' }, 'T1')[0]?.lastTransitionTime,
      'T1',
    );
    assert.equal(setCondition(before, { type: 'B', status: 'True' }, 'T1').length, 2);
  });
});
