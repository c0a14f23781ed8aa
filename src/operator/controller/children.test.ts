/**
 * `isOurs` and `refusal`, table-driven (docs/design/operator.md §7.1: never adopt): a child is the fleet's only with
 * this incarnation's UID label and a controller reference to the fleet; anything else at the
 * name is refused with the caller's reason, and a child of ours whose immutable fields drifted
 * is refused as `InfrastructureBlocked` with the drifted paths named.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject, OwnerReference } from '../../api/object.js';
import { isOurs, refusal } from './children.js';

const UID = 'fleet-uid-1';
const LABEL = 'celld.fleetyard.dev/fleet-uid';
const OWNER: OwnerReference = {
  apiVersion: 'celld.fleetyard.dev/v1alpha1',
  kind: 'CelldFleet',
  name: 'orders',
  uid: UID,
  controller: true,
};

function child(
  labels: Record<string, string> | undefined,
  owners: OwnerReference[] | undefined,
  spec: Record<string, unknown> = {
    serviceName: 'orders-peers',
    selector: { matchLabels: { a: 'b' } },
  },
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: {
      name: 'orders',
      namespace: 'default',
      ...(labels ? { labels } : {}),
      ...(owners ? { ownerReferences: owners } : {}),
    },
    spec,
  };
}

const desired = child({ [LABEL]: UID }, [OWNER]);

describe('isOurs', () => {
  const table: { name: string; obj: KubeObject; want: boolean }[] = [
    { name: 'label and controller reference', obj: child({ [LABEL]: UID }, [OWNER]), want: true },
    { name: 'no label', obj: child(undefined, [OWNER]), want: false },
    { name: "an older incarnation's label", obj: child({ [LABEL]: 'old' }, [OWNER]), want: false },
    { name: 'label, no owner', obj: child({ [LABEL]: UID }, undefined), want: false },
    {
      name: 'label, owner reference that is not the controller',
      obj: child({ [LABEL]: UID }, [{ ...OWNER, controller: false }]),
      want: false,
    },
    {
      name: 'label, another controller',
      obj: child({ [LABEL]: UID }, [{ ...OWNER, uid: 'other' }]),
      want: false,
    },
  ];
  for (const row of table) it(row.name, () => assert.equal(isOurs(row.obj, UID), row.want));
});

describe('refusal', () => {
  it('nothing to refuse for our child with the rendered immutable fields', () => {
    assert.equal(refusal(desired, desired, UID, 'LifecycleBlocked'), undefined);
  });

  it("a foreign object is refused with the caller's reason and never adopted", () => {
    const r = refusal(child(undefined, undefined), desired, UID, 'LifecycleBlocked');
    assert.equal(r?.kind, 'blocked');
    assert.equal(r?.reason, 'LifecycleBlocked');
    assert.equal(
      r?.message,
      `StatefulSet default/orders exists and is not this fleet's (no ${LABEL}=${UID} label and controller reference); no resources adopted: delete or rename it`,
    );
    assert.equal(
      refusal(child(undefined, undefined), desired, UID, 'InfrastructureBlocked')?.reason,
      'InfrastructureBlocked',
    );
  });

  it('our child with drifted immutable fields is InfrastructureBlocked, naming them', () => {
    const live = child({ [LABEL]: UID }, [OWNER], {
      serviceName: 'elsewhere',
      selector: { matchLabels: { x: 'y' } },
    });
    const r = refusal(live, desired, UID, 'LifecycleBlocked');
    assert.equal(r?.reason, 'InfrastructureBlocked');
    assert.equal(
      r?.message,
      'StatefulSet default/orders differs in immutable fields (spec.selector, spec.serviceName); delete it and the operator recreates it',
    );
  });
});
