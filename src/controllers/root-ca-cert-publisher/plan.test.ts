import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asKind, type ConfigMap, type Namespace } from '../../api/model/index.js';
import { DESCRIPTION, DESCRIPTION_ANNOTATION, planRootCAConfigMap } from './plan.js';

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const ACTIVE: Namespace = { metadata: { name: 'team' }, status: { phase: 'Active' } };
const TERMINATING: Namespace = {
  metadata: { name: 'team', deletionTimestamp: '2026-01-01T00:00:00Z' },
  status: { phase: 'Terminating' },
};

function stored(data: unknown, annotations: Record<string, string> | undefined): ConfigMap {
  return asKind(
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'kube-root-ca.crt',
        namespace: 'team',
        resourceVersion: '5',
        labels: { kept: 'yes' },
        ...(annotations ? { annotations } : {}),
      },
      ...(data === undefined ? {} : { data }),
    },
    'ConfigMap',
  );
}

const DESCRIBED = { [DESCRIPTION_ANNOTATION]: DESCRIPTION };

describe('planRootCAConfigMap', () => {
  it('creates the ConfigMap upstream creates', () => {
    assert.deepEqual(planRootCAConfigMap(ACTIVE, undefined, CA), {
      action: 'create',
      object: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'kube-root-ca.crt', namespace: 'team', annotations: DESCRIBED },
        data: { 'ca.crt': CA },
      },
    });
  });

  const cases: {
    name: string;
    namespace: Namespace | undefined;
    current: ConfigMap | undefined;
    want: 'none' | { data: unknown; annotations: Record<string, string> };
  }[] = [
    {
      name: 'as published: nothing',
      namespace: ACTIVE,
      current: stored({ 'ca.crt': CA }, DESCRIBED),
      want: 'none',
    },
    {
      name: 'another description: kept (upstream only checks one is there)',
      namespace: ACTIVE,
      current: stored({ 'ca.crt': CA }, { [DESCRIPTION_ANNOTATION]: 'mine' }),
      want: 'none',
    },
    {
      name: 'the description removed: set again, other annotations kept',
      namespace: ACTIVE,
      current: stored({ 'ca.crt': CA }, { other: 'x' }),
      want: { data: { 'ca.crt': CA }, annotations: { other: 'x', ...DESCRIBED } },
    },
    {
      name: 'ca.crt edited: restored',
      namespace: ACTIVE,
      current: stored({ 'ca.crt': 'not a CA' }, DESCRIBED),
      want: { data: { 'ca.crt': CA }, annotations: DESCRIBED },
    },
    {
      name: 'a key added: data is exactly ca.crt again',
      namespace: ACTIVE,
      current: stored({ 'ca.crt': CA, extra: 'x' }, DESCRIBED),
      want: { data: { 'ca.crt': CA }, annotations: DESCRIBED },
    },
    {
      name: 'no data: filled',
      namespace: ACTIVE,
      current: stored(undefined, DESCRIBED),
      want: { data: { 'ca.crt': CA }, annotations: DESCRIBED },
    },
    {
      name: 'missing in a terminating namespace: nothing',
      namespace: TERMINATING,
      current: undefined,
      want: 'none',
    },
    {
      name: 'edited in a terminating namespace: nothing',
      namespace: TERMINATING,
      current: stored({ 'ca.crt': 'x' }, undefined),
      want: 'none',
    },
    { name: 'no namespace: nothing', namespace: undefined, current: undefined, want: 'none' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const plan = planRootCAConfigMap(c.namespace, c.current, CA);
      if (c.want === 'none') {
        assert.equal(plan, undefined);
        return;
      }
      assert.equal(plan?.action, 'update');
      assert.deepEqual(plan.object.data, c.want.data);
      assert.deepEqual(plan.object.metadata?.annotations, c.want.annotations);
      assert.deepEqual(plan.object.metadata?.labels, { kept: 'yes' });
      assert.equal(plan.object.metadata?.resourceVersion, '5', 'an update of the stored version');
    });
  }
});
