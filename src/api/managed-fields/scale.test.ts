import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { recordScaleUpdate, recordUpdate } from './index.js';
import { deployment, deploymentSchema, dig, LATER, NOW, nav, webSpec } from './testing/fixtures.js';

function created(): KubeObject {
  const got = recordUpdate(undefined, deployment(webSpec()), {
    apiVersion: 'apps/v1',
    manager: 'kubectl-create',
    now: NOW,
    schema: deploymentSchema,
    nav,
  });
  return { ...got, metadata: { ...got.metadata, uid: 'u1' } };
}

describe('recordScaleUpdate', () => {
  it('gives the scaler .spec.replicas with subresource scale and takes it from the creator', () => {
    const old = created();
    const next = { ...old, spec: { ...(old.spec as object), replicas: 5 } };
    const got = recordScaleUpdate(old, next, {
      manager: 'kubectl',
      parentApiVersion: 'apps/v1',
      now: LATER,
    });
    const entries = got.metadata?.managedFields ?? [];
    const scaler = entries.find((e) => e.subresource === 'scale');
    assert.deepEqual(scaler, {
      manager: 'kubectl',
      operation: 'Update',
      apiVersion: 'apps/v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:replicas': {} } },
      subresource: 'scale',
    });
    const creator = entries.find((e) => e.manager === 'kubectl-create');
    assert.equal(dig(creator, 'fieldsV1', 'f:spec', 'f:replicas'), undefined);
    assert.ok(dig(creator, 'fieldsV1', 'f:spec', 'f:template'));
  });

  it('records nothing when no entry owned replicas', () => {
    const old: KubeObject = { ...deployment(webSpec()), metadata: { name: 'web', uid: 'u' } };
    const next = { ...old, spec: { ...(old.spec as object), replicas: 5 } };
    const got = recordScaleUpdate(old, next, {
      manager: 'kubectl',
      parentApiVersion: 'apps/v1',
      now: LATER,
    });
    assert.equal(got.metadata?.managedFields, undefined);
  });
});
