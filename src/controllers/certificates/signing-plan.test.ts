import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { CertificateSigningRequest } from '../../api/model/index.js';
import { isCleanable } from './cleaner.js';
import {
  BACKDATE_MS,
  KUBE_APISERVER_CLIENT,
  KUBE_APISERVER_CLIENT_KUBELET,
  KUBELET_SERVING,
  planSigning,
  type RequestSubject,
} from './signing-plan.js';

const NOW = Date.parse('2026-12-01T10:00:00Z');
const APPROVED = { type: 'Approved', status: 'True', lastUpdateTime: '2026-12-01T09:59:00Z' };

function csr(
  signerName: string,
  usages: string[],
  status: CertificateSigningRequest['status'] = { conditions: [APPROVED] },
  expirationSeconds?: number,
): CertificateSigningRequest {
  return {
    metadata: { name: 'r', creationTimestamp: '2026-12-01T09:00:00Z' },
    spec: { request: '', signerName, usages, ...(expirationSeconds ? { expirationSeconds } : {}) },
    status,
  };
}

const subject = (over: Partial<RequestSubject> = {}): RequestSubject => ({
  commonName: 'system:node:n1',
  organizations: ['system:nodes'],
  dnsNames: [],
  ipAddresses: [],
  emailAddresses: [],
  uris: [],
  ...over,
});

describe('planSigning', () => {
  const cases: {
    name: string;
    csr: CertificateSigningRequest;
    req?: RequestSubject;
    want: string;
  }[] = [
    { name: 'client cert', csr: csr(KUBE_APISERVER_CLIENT, ['client auth']), want: 'sign' },
    {
      name: 'client cert with server auth',
      csr: csr(KUBE_APISERVER_CLIENT, ['client auth', 'server auth']),
      want: 'fail: invalid usage for client certificate: server auth',
    },
    {
      name: 'client cert without client auth',
      csr: csr(KUBE_APISERVER_CLIENT, ['digital signature']),
      want: 'fail: missing required usage for client certificate: client auth',
    },
    {
      name: 'kubelet client',
      csr: csr(KUBE_APISERVER_CLIENT_KUBELET, ['digital signature', 'client auth']),
      want: 'sign',
    },
    {
      name: 'kubelet client for a user',
      csr: csr(KUBE_APISERVER_CLIENT_KUBELET, ['digital signature', 'client auth']),
      req: subject({ organizations: ['devs'] }),
      want: 'fail: subject organization is not system:nodes',
    },
    {
      name: 'kubelet client with a DNS name',
      csr: csr(KUBE_APISERVER_CLIENT_KUBELET, ['digital signature', 'client auth']),
      req: subject({ dnsNames: ['n1'] }),
      want: 'fail: DNS subjectAltNames are not allowed',
    },
    {
      name: 'kubelet serving without names',
      csr: csr(KUBELET_SERVING, ['digital signature', 'server auth']),
      want: 'fail: DNS or IP subjectAltName is required',
    },
    {
      name: 'kubelet serving with wrong usages',
      csr: csr(KUBELET_SERVING, ['server auth']),
      req: subject({ ipAddresses: ['10.0.0.1'] }),
      want: 'fail: usages did not match [digital signature key encipherment server auth]',
    },
    {
      name: 'another signer',
      csr: csr('example.com/custom', ['client auth']),
      want: 'none',
    },
    { name: 'pending', csr: csr(KUBE_APISERVER_CLIENT, ['client auth'], {}), want: 'none' },
    {
      name: 'approved then denied',
      csr: csr(KUBE_APISERVER_CLIENT, ['client auth'], {
        conditions: [APPROVED, { type: 'Denied', status: 'True' }],
      }),
      want: 'none',
    },
    {
      name: 'already issued',
      csr: csr(KUBE_APISERVER_CLIENT, ['client auth'], {
        conditions: [APPROVED],
        certificate: 'Y2VydA==',
      }),
      want: 'none',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const d = planSigning(c.csr, c.req ?? subject(), NOW);
      assert.equal(d.action === 'fail' ? `fail: ${d.message}` : d.action, c.want);
    });
  }

  it('lives expirationSeconds, at most the signing duration, backdated 5 minutes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 600, max: 10 * 365 * 86_400 }), (seconds) => {
        const d = planSigning(
          csr(KUBE_APISERVER_CLIENT, ['client auth'], undefined, seconds),
          subject(),
          NOW,
          86_400,
        );
        assert.equal(d.action, 'sign');
        if (d.action !== 'sign') return;
        assert.equal(d.notBefore.getTime(), NOW - BACKDATE_MS);
        assert.equal(d.notAfter.getTime(), NOW + Math.min(seconds, 86_400) * 1000);
      }),
    );
  });
});

describe('isCleanable', () => {
  const at = (iso: string) => Date.parse(iso);
  const cases: { name: string; csr: CertificateSigningRequest; now: number; want: boolean }[] = [
    {
      name: 'issued 61 minutes after approval',
      csr: csr(KUBE_APISERVER_CLIENT, [], { conditions: [APPROVED], certificate: 'eA==' }),
      now: at('2026-12-01T11:00:01Z'),
      want: true,
    },
    {
      name: 'issued 59 minutes ago',
      csr: csr(KUBE_APISERVER_CLIENT, [], { conditions: [APPROVED], certificate: 'eA==' }),
      now: at('2026-12-01T10:58:00Z'),
      want: false,
    },
    {
      name: 'pending a day and a minute',
      csr: csr(KUBE_APISERVER_CLIENT, [], {}),
      now: at('2026-12-02T09:01:00Z'),
      want: true,
    },
    {
      name: 'pending 23 hours',
      csr: csr(KUBE_APISERVER_CLIENT, [], {}),
      now: at('2026-12-02T08:00:00Z'),
      want: false,
    },
    {
      name: 'denied over an hour ago',
      csr: csr(KUBE_APISERVER_CLIENT, [], {
        conditions: [{ type: 'Denied', status: 'True', lastUpdateTime: '2026-12-01T09:00:00Z' }],
      }),
      now: at('2026-12-01T10:00:01Z'),
      want: true,
    },
  ];
  for (const c of cases) it(c.name, () => assert.equal(isCleanable(c.csr, c.now), c.want));
});
