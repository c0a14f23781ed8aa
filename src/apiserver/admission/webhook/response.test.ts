import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidResponseError, verifyAdmissionResponse } from './response.js';

const UID = '0f7c1e9e-0000-4000-8000-000000000001';

function v1(response: Record<string, unknown> | undefined): Record<string, unknown> {
  return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response };
}

describe('verifyAdmissionResponse', () => {
  const refused: Array<[string, unknown, boolean, string]> = [
    ['no response', v1(undefined), true, 'webhook response was absent'],
    ['other uid', v1({ uid: 'x', allowed: true }), true, `expected response.uid="${UID}", got "x"`],
    [
      'v1beta1 answer to a v1 request',
      { apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', response: { uid: UID } },
      true,
      'expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1beta1, Kind=AdmissionReview',
    ],
    [
      'patch without type',
      v1({ uid: UID, allowed: true, patch: 'W10=' }),
      true,
      'webhook returned response.patch but not response.patchType',
    ],
    [
      'type without patch',
      v1({ uid: UID, allowed: true, patchType: 'JSONPatch' }),
      true,
      'webhook returned response.patchType but not response.patch',
    ],
    [
      'validating patch',
      v1({ uid: UID, allowed: true, patch: 'W10=' }),
      false,
      'validating webhook may not return response.patch',
    ],
    [
      'validating patchType',
      v1({ uid: UID, allowed: true, patchType: 'JSONPatch' }),
      false,
      'validating webhook may not return response.patchType',
    ],
  ];
  for (const [name, review, mutating, message] of refused) {
    it(`refuses: ${name}`, () => {
      assert.throws(
        () => verifyAdmissionResponse('v1', UID, mutating, review),
        (e: unknown) => {
          assert.ok(e instanceof InvalidResponseError);
          assert.equal(e.message, message);
          return true;
        },
      );
    });
  }

  it('accepts a v1 answer and keeps its parts', () => {
    const r = verifyAdmissionResponse(
      'v1',
      UID,
      true,
      v1({
        uid: UID,
        allowed: true,
        patch: 'W10=',
        patchType: 'JSONPatch',
        warnings: ['w'],
        auditAnnotations: { a: 'b' },
      }),
    );
    assert.deepEqual(r, {
      allowed: true,
      result: undefined,
      patch: 'W10=',
      patchType: 'JSONPatch',
      warnings: ['w'],
      auditAnnotations: { a: 'b' },
    });
  });

  it('checks a v1beta1 answer as upstream does: neither uid nor kind, patch pinned to JSONPatch', () => {
    const r = verifyAdmissionResponse('v1beta1', UID, true, {
      response: { uid: 'other', allowed: false, patch: 'W10=' },
    });
    assert.equal(r.allowed, false);
    assert.equal(r.patchType, 'JSONPatch');
  });
});
