import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { alreadyExists, invalid, notFound, optimisticLockConflict } from './errors.js';
import { fieldErrors, path } from './field-error.js';

describe('Status errors', () => {
  it('formats NotFound with the group-qualified resource and the plural in details.kind', () => {
    const e = notFound({ group: 'apps', resource: 'deployments' }, 'web');
    assert.equal(e.status.message, 'deployments.apps "web" not found');
    assert.deepEqual(e.status.details, { name: 'web', group: 'apps', kind: 'deployments' });
    assert.equal(e.code, 404);
    assert.equal(
      notFound({ group: '', resource: 'pods' }, 'nope').message,
      'pods "nope" not found',
    );
  });

  it('formats conflicts as upstream', () => {
    assert.equal(
      optimisticLockConflict({ group: 'apps', resource: 'deployments' }, 'web').message,
      'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again',
    );
    assert.equal(
      alreadyExists({ group: '', resource: 'pods' }, 'a').status.reason,
      'AlreadyExists',
    );
  });

  const invalidCases = [
    {
      name: 'one invalid value',
      errors: [
        fieldErrors.invalid(path('spec', 'replicas'), -1, 'must be greater than or equal to 0'),
      ],
      message:
        'The Deployment "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      cause: {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: -1: must be greater than or equal to 0',
        field: 'spec.replicas',
      },
    },
    {
      name: 'two errors are bracketed',
      errors: [
        fieldErrors.required(path('spec', 'selector'), ''),
        fieldErrors.notSupported(path('spec', 'strategy', 'type'), 'X', [
          'Recreate',
          'RollingUpdate',
        ]),
      ],
      message:
        'The Deployment "web" is invalid: [spec.selector: Required value, spec.strategy.type: Unsupported value: "X": supported values: "Recreate", "RollingUpdate"]',
      cause: { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.selector' },
    },
  ];
  for (const c of invalidCases) {
    it(`formats Invalid: ${c.name}`, () => {
      const e = invalid({ group: '', kind: 'Deployment' }, 'web', c.errors);
      assert.equal(`The ${e.message}`, c.message);
      assert.equal(e.code, 422);
      assert.deepEqual(e.status.details?.causes?.[0], c.cause);
      assert.equal(e.status.details?.kind, 'Deployment');
    });
  }
});
