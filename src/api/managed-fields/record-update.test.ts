import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject, ManagedFieldsEntry } from '../object.js';
import { ANCIENT_CHANGES_MANAGER, applyPatch, recordUpdate } from './index.js';
import { configMapSchema, dig, NOW, nav } from './testing/fixtures.js';

const base = { apiVersion: 'v1', schema: configMapSchema, nav } as const;

function cm(data: Record<string, string>, meta: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'c', namespace: 'd', ...meta },
    data,
  };
}

/** Stores like the handler does: the created object gets a uid. */
function write(
  old: KubeObject | undefined,
  next: KubeObject,
  manager: string,
  now = NOW,
  subresource?: string,
): KubeObject {
  const got = recordUpdate(old, next, { ...base, manager, now, subresource });
  return { ...got, metadata: { ...got.metadata, uid: 'u1' } };
}

function withData(obj: KubeObject, data: Record<string, string>): KubeObject {
  return { ...obj, data };
}

function owners(obj: KubeObject): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const e of obj.metadata?.managedFields ?? []) {
    const data = ((e.fieldsV1 as Record<string, Record<string, unknown>>)['f:data'] ??
      {}) as Record<string, unknown>;
    out[`${e.manager}/${e.operation}`] = Object.keys(data).filter((k) => k !== '.');
  }
  return out;
}

const at = (minute: number): string => `2024-05-01T10:${String(minute).padStart(2, '0')}:00Z`;

describe('recordUpdate: ownership', () => {
  it('create records the creator with second-precision time', () => {
    const got = write(undefined, cm({ a: '1' }), 'kubectl-create');
    assert.deepEqual(got.metadata?.managedFields, [
      {
        manager: 'kubectl-create',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2024-05-01T10:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:a': {}, '.': {} } },
      },
    ]);
  });

  const cases: {
    name: string;
    steps: [string, Record<string, string>][];
    want: Record<string, string[]>;
  }[] = [
    {
      name: 'a changed field moves to the writer',
      steps: [
        ['one', { a: '1', b: '2' }],
        ['two', { a: 'x', b: '2' }],
      ],
      want: { 'one/Update': ['f:b'], 'two/Update': ['f:a'] },
    },
    {
      name: 'an unchanged field stays with its owner',
      steps: [
        ['one', { a: '1' }],
        ['two', { a: '1', b: '2' }],
      ],
      want: { 'one/Update': ['f:a'], 'two/Update': ['f:b'] },
    },
    {
      name: 'a removed field leaves every owner; an emptied entry disappears',
      steps: [
        ['one', { a: '1' }],
        ['two', { a: '1', b: '2' }],
        ['three', { a: '1' }],
      ],
      want: { 'one/Update': ['f:a'] },
    },
    {
      name: 'the same manager keeps one entry',
      steps: [
        ['one', { a: '1' }],
        ['one', { a: '1', b: '2' }],
      ],
      want: { 'one/Update': ['f:a', 'f:b'] },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      let obj: KubeObject | undefined;
      for (const [manager, data] of c.steps)
        obj = write(obj, obj ? withData(obj, data) : cm(data), manager);
      assert.deepEqual(owners(obj as KubeObject), c.want);
    });
  }

  it('a write that changes nothing keeps the entry time', () => {
    const first = write(undefined, cm({ a: '1' }), 'one', at(0));
    const again = write(first, { ...first }, 'one', at(5));
    assert.equal(again.metadata?.managedFields?.[0]?.time, at(0));
  });

  it('an empty manager name is recorded as unknown', () => {
    const got = write(undefined, cm({ a: '1' }), '');
    assert.equal(got.metadata?.managedFields?.[0]?.manager, 'unknown');
  });

  it('orders entries: Apply first, then by time, then by manager', () => {
    let obj = write(undefined, cm({ a: '1' }), 'zeta', at(1));
    obj = write(obj, withData(obj, { a: '1', b: '2' }), 'alpha', at(2));
    obj = write(obj, withData(obj, { a: '1', b: '2', c: '3' }), 'beta', at(2));
    const applied = applyPatch(obj, cm({ d: '4' }), {
      ...base,
      kind: 'ConfigMap',
      manager: 'applier',
      force: false,
      now: at(9),
    }).object;
    assert.deepEqual(
      applied.metadata?.managedFields?.map((e) => `${e.operation}:${e.manager}`),
      ['Apply:applier', 'Update:zeta', 'Update:alpha', 'Update:beta'],
    );
  });
});

describe('recordUpdate: cap of 10 update managers', () => {
  it('merges the oldest entries into ancient-changes', () => {
    let obj: KubeObject | undefined;
    const data: Record<string, string> = {};
    for (let i = 0; i < 12; i++) {
      data[`k${i}`] = String(i);
      obj = write(
        obj,
        obj ? withData(obj, { ...data }) : cm({ ...data }),
        `m${String(i).padStart(2, '0')}`,
        at(i),
      );
    }
    const entries = (obj as KubeObject).metadata?.managedFields ?? [];
    assert.equal(entries.length, 10);
    const ancient = entries.find((e) => e.manager === ANCIENT_CHANGES_MANAGER);
    assert.deepEqual(Object.keys(dig(ancient, 'fieldsV1', 'f:data') as object).sort(), [
      '.',
      'f:k0',
      'f:k1',
      'f:k2',
    ]);
    assert.equal(ancient?.time, at(2));
    assert.ok(!entries.some((e) => ['m00', 'm01', 'm02'].includes(e.manager ?? '')));
  });
});

describe('recordUpdate: managedFields sent by the client', () => {
  const stored = (): KubeObject => write(undefined, cm({ a: '1' }), 'kubectl-client-side-apply');
  const migrated: ManagedFieldsEntry[] = [
    {
      manager: 'kubectl',
      operation: 'Apply',
      apiVersion: 'v1',
      time: NOW,
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:data': { 'f:a': {} } },
    },
  ];

  it('valid entries replace the stored ones (the CSA→SSA migration patch)', () => {
    const live = stored();
    const got = write(
      live,
      { ...live, metadata: { ...live.metadata, managedFields: migrated } },
      'kubectl',
    );
    assert.deepEqual(owners(got), { 'kubectl/Apply': ['f:a'] });
  });

  it('[] resets tracking; the writer then owns what it changes', () => {
    const live = stored();
    const got = write(
      live,
      { ...live, data: { a: '1', b: '2' }, metadata: { ...live.metadata, managedFields: [] } },
      'w',
    );
    assert.deepEqual(owners(got), {});
    assert.equal(got.metadata?.managedFields, undefined);
  });

  it('invalid entries are ignored in favour of the stored ones', () => {
    const live = stored();
    const bad = [
      { manager: 'x', operation: 'Bogus', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} },
    ] as unknown as ManagedFieldsEntry[];
    const got = write(live, { ...live, metadata: { ...live.metadata, managedFields: bad } }, 'w');
    assert.deepEqual(owners(got), { 'kubectl-client-side-apply/Update': ['f:a'] });
  });

  it('a subresource write ignores entries sent with the object', () => {
    const live = stored();
    const got = write(
      live,
      { ...live, metadata: { ...live.metadata, managedFields: migrated } },
      'w',
      NOW,
      'status',
    );
    assert.deepEqual(owners(got), { 'kubectl-client-side-apply/Update': ['f:a'] });
  });

  it('an existing object without managedFields stays untracked', () => {
    const live = { ...cm({ a: '1' }), metadata: { name: 'c', uid: 'u' } };
    const got = write(live, withData(live, { a: '2' }), 'w');
    assert.equal(got.metadata?.managedFields, undefined);
  });
});
