import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FieldError, fieldErrorText, path } from '../field-error.js';
import type { ObjectMeta } from '../object.js';
import {
  validateAnnotations,
  validateKubeFinalizerNames,
  validateOwnerReferences,
} from './metadata-fields.js';
import { validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';

const texts = (errs: FieldError[]): string[] => errs.map(fieldErrorText);
const ns = { namespaced: true, nameValidation: 'dns-subdomain' } as const;
const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: 'u1' };

describe('validateObjectMeta', () => {
  const cases: {
    name: string;
    meta: ObjectMeta;
    opts?: Parameters<typeof validateObjectMeta>[1];
    want: string[];
  }[] = [
    {
      name: 'valid',
      meta: { name: 'web', namespace: 'default', labels: { app: 'web' } },
      want: [],
    },
    {
      name: 'name required',
      meta: { namespace: 'default' },
      want: ['metadata.name: Required value: name or generateName is required'],
    },
    {
      name: 'name format',
      meta: { name: 'Web', namespace: 'default' },
      want: [
        `metadata.name: Invalid value: "Web": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    },
    {
      name: 'generateName prefix may end with a dash',
      meta: { name: 'web-abcde', generateName: 'web-', namespace: 'default' },
      want: [],
    },
    {
      name: 'namespace required',
      meta: { name: 'web' },
      want: ['metadata.namespace: Required value'],
    },
    {
      name: 'namespace forbidden on cluster-scoped kinds',
      meta: { name: 'n1', namespace: 'default' },
      opts: { namespaced: false, nameValidation: 'dns-subdomain' },
      want: ['metadata.namespace: Forbidden: not allowed on this type'],
    },
    {
      name: 'label value',
      meta: { name: 'web', namespace: 'default', labels: { app: 'a b' } },
      want: [
        `metadata.labels: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
      ],
    },
    {
      name: 'two controllers',
      meta: {
        name: 'web',
        namespace: 'default',
        ownerReferences: [
          { ...owner, controller: true },
          { ...owner, name: 'web-2', uid: 'u2', controller: true },
        ],
      },
      want: [
        `metadata.ownerReferences: Invalid value: [{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-1","uid":"u1","controller":true},{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-2","uid":"u2","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/web-1 and ReplicaSet/web-2`,
      ],
    },
    {
      name: 'finalizers',
      meta: { name: 'web', namespace: 'default', finalizers: ['orphan', 'foregroundDeletion'] },
      want: [
        'metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(texts(validateObjectMeta(c.meta, c.opts ?? ns)), c.want));
  }

  it('requires every owner reference field', () => {
    assert.deepEqual(
      texts(
        validateOwnerReferences(
          [{ apiVersion: 'apps/', kind: '', name: '', uid: '' }],
          path('metadata', 'ownerReferences'),
        ),
      ),
      [
        'metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty',
        'metadata.ownerReferences.kind: Invalid value: "": must not be empty',
        'metadata.ownerReferences.name: Invalid value: "": must not be empty',
        'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
      ],
    );
  });

  it('limits annotations to 256 KiB in total', () => {
    const big = { a: 'x'.repeat(256 * 1024) };
    assert.deepEqual(texts(validateAnnotations(big, path('metadata', 'annotations'))), [
      'metadata.annotations: Too long: may not be more than 262144 bytes',
    ]);
    assert.deepEqual(
      validateAnnotations({ a: 'x'.repeat(256 * 1024 - 1) }, path('metadata', 'annotations')),
      [],
    );
    assert.equal(
      validateAnnotations({ 'Example.COM/Key': 'v' }, path('metadata', 'annotations')).length,
      0,
    );
  });

  it('rejects non-standard unqualified finalizers on built-in kinds', () => {
    assert.deepEqual(
      texts(
        validateKubeFinalizerNames(
          ['kubernetes', 'example.com/x', 'custom'],
          path('metadata', 'finalizers'),
        ),
      ),
      [
        'metadata.finalizers[2]: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
      ],
    );
  });
});

describe('validateObjectMetaUpdate', () => {
  const old: ObjectMeta = {
    name: 'web',
    namespace: 'default',
    uid: 'u1',
    creationTimestamp: '2026-01-01T00:00:00Z',
    generation: 2,
  };
  it('accepts label changes', () => {
    assert.deepEqual(validateObjectMetaUpdate({ ...old, labels: { a: 'b' } }, old), []);
  });
  it('rejects changes to immutable fields', () => {
    assert.deepEqual(texts(validateObjectMetaUpdate({ ...old, name: 'x', uid: 'u2' }, old)), [
      'metadata.name: Invalid value: "x": field is immutable',
      'metadata.uid: Invalid value: "u2": field is immutable',
    ]);
  });
  it('forbids decrementing generation', () => {
    assert.deepEqual(texts(validateObjectMetaUpdate({ ...old, generation: 1 }, old)), [
      'metadata.generation: Invalid value: 1: must not be decremented',
    ]);
  });
  it('forbids new finalizers while deleting', () => {
    const deleting = { ...old, deletionTimestamp: '2026-01-02T00:00:00Z', finalizers: ['a.io/x'] };
    assert.deepEqual(
      texts(validateObjectMetaUpdate({ ...deleting, finalizers: ['a.io/x', 'b.io/y'] }, deleting)),
      [
        'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"b.io/y"}',
      ],
    );
    assert.deepEqual(validateObjectMetaUpdate({ ...deleting, finalizers: [] }, deleting), []);
  });
});
