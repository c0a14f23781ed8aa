import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fieldErrorText } from '../field-error.js';
import type { KubeObject } from '../object.js';
import {
  approvalReplacement,
  certificateSigningRequestResource as csrResource,
  REQUESTER,
} from './certificates-csr.js';
import { checkCertificateRequest, checkIssuedCertificate } from './certificates-csr-request.js';
import { simulateCreate, simulateUpdate } from './harness.js';

const pem = (name: string): string =>
  readFileSync(join(import.meta.dirname, 'testdata', name), 'latin1');
const P256 = pem('csr-p256.pem');
const RSA = pem('csr-rsa2048.pem');
const ED25519 = pem('csr-ed25519.pem');
const CERT = pem('self-signed.pem');

/** The request with one byte flipped, `fromEnd` bytes before the end of its DER. */
function tampered(text: string, fromEnd: number): string {
  const b64 = text
    .split('\n')
    .filter((l) => !l.startsWith('-----'))
    .join('');
  const der = Buffer.from(b64, 'base64');
  der[der.length - fromEnd] = (der[der.length - fromEnd] ?? 0) ^ 1;
  const body =
    der
      .toString('base64')
      .match(/.{1,64}/g)
      ?.join('\n') ?? '';
  return `-----BEGIN CERTIFICATE REQUEST-----\n${body}\n-----END CERTIFICATE REQUEST-----\n`;
}

const b64 = (text: string) => Buffer.from(text, 'latin1').toString('base64');
type Spec = Record<string, unknown>;

function csr(spec: Spec = {}, status?: Spec): KubeObject {
  return {
    metadata: { name: 'jane' },
    spec: {
      request: b64(P256),
      signerName: 'kubernetes.io/kube-apiserver-client',
      usages: ['client auth'],
      ...spec,
    },
    ...(status ? { status } : {}),
  };
}

describe('checkCertificateRequest', () => {
  const cases: [string, string, string | undefined][] = [
    ['a P-256 request', P256, undefined],
    ['an RSA request', RSA, undefined],
    ['an Ed25519 request', ED25519, undefined],
    ['a certificate instead', CERT, 'PEM block type must be CERTIFICATE REQUEST'],
    ['no PEM at all', 'hello', 'PEM block type must be CERTIFICATE REQUEST'],
    ['a P-256 request with a bad signature', tampered(P256, 3), 'x509: ECDSA verification failure'],
    ['an RSA request with a bad signature', tampered(RSA, 3), 'crypto/rsa: verification error'],
    [
      'a truncated request',
      P256.replace(/\n[^\n]*\n-----END/, '\n-----END'),
      'x509: malformed certificate request',
    ],
  ];
  for (const [name, text, want] of cases) {
    it(`checks ${name}`, () => {
      assert.equal(checkCertificateRequest(Buffer.from(text, 'latin1')), want);
    });
  }

  it('accepts issued certificates and refuses other blocks', () => {
    assert.equal(checkIssuedCertificate(Buffer.alloc(0)), undefined);
    assert.equal(checkIssuedCertificate(Buffer.from(CERT)), undefined);
    assert.equal(
      checkIssuedCertificate(Buffer.from(P256)),
      'only CERTIFICATE PEM blocks are allowed, found "CERTIFICATE REQUEST"',
    );
  });
});

describe('CertificateSigningRequest', () => {
  it('takes the requester from the server, never from the body, and starts unapproved', () => {
    const { object, errors } = simulateCreate(
      csrResource,
      csr(
        { username: 'mallory', uid: 'u', groups: ['system:masters'], extra: { a: ['b'] } },
        {
          conditions: [{ type: 'Approved', status: 'True' }],
        },
      ),
    );
    assert.deepEqual(errors, []);
    const spec = object.spec as Spec;
    assert.equal(spec.username, REQUESTER.username);
    assert.deepEqual(spec.groups, REQUESTER.groups);
    assert.equal(spec.uid, undefined);
    assert.equal(spec.extra, undefined);
    assert.deepEqual(object.status, {});
  });

  const cases: [string, Spec, string[]][] = [
    ['no usages', { usages: [] }, ['spec.usages: Required value']],
    [
      'an unknown and a repeated usage',
      { usages: ['client auth', 'client auth', 'flying'] },
      [
        'spec.usages[1]: Duplicate value: "client auth"',
        'spec.usages[2]: Unsupported value: "flying": supported values: "any", "cert sign", "client auth", "code signing", "content commitment", "crl sign", "data encipherment", "decipher only", "digital signature", "email protection", "encipher only", "ipsec end system", "ipsec tunnel", "ipsec user", "key agreement", "key encipherment", "microsoft sgc", "netscape sgc", "ocsp signing", "s/mime", "server auth", "signing", "timestamping"',
      ],
    ],
    ['no signer', { signerName: '' }, ['spec.signerName: Required value']],
    [
      'a signer without a path',
      { signerName: 'example.com' },
      [
        'spec.signerName: Invalid value: "example.com": must be a fully qualified domain and path of the form \'example.com/signer-name\'',
      ],
    ],
    [
      'a signer domain without a dot',
      { signerName: 'example/signer' },
      [
        'spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots',
      ],
    ],
    [
      'the legacy signer',
      { signerName: 'kubernetes.io/legacy-unknown' },
      [
        'spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version',
      ],
    ],
    [
      'a duration under ten minutes',
      { expirationSeconds: 599 },
      [
        'spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)',
      ],
    ],
    ['ten minutes', { expirationSeconds: 600 }, []],
  ];
  for (const [name, spec, want] of cases) {
    it(`validates ${name}`, () => {
      assert.deepEqual(simulateCreate(csrResource, csr(spec)).messages, want);
    });
  }

  it('reports a request that does not verify at spec.request', () => {
    const { errors } = simulateCreate(csrResource, csr({ request: b64(tampered(P256, 3)) }));
    assert.deepEqual(
      errors.map((e) => [e.field, e.detail]),
      [['spec.request', 'x509: ECDSA verification failure']],
    );
  });

  const stored = simulateCreate(csrResource, csr()).object;
  const withConditions = (conditions: Spec[]): KubeObject => ({
    ...stored,
    status: { conditions },
  });

  const approvals: [string, Spec[], string[]][] = [
    ['an approval', [{ type: 'Approved', status: 'True', reason: 'KubectlApprove' }], []],
    ['a denial', [{ type: 'Denied', status: 'True' }], []],
    [
      'both',
      [
        { type: 'Approved', status: 'True' },
        { type: 'Denied', status: 'True' },
      ],
      [
        'status.conditions[1].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive',
      ],
    ],
    [
      'an approval that is not True',
      [{ type: 'Approved', status: 'False' }],
      ['status.conditions[0].status: Unsupported value: "False": supported values: "True"'],
    ],
    [
      'a repeated condition',
      [
        { type: 'Failed', status: 'True' },
        { type: 'Failed', status: 'True' },
      ],
      ['status.conditions[1].type: Duplicate value: "Failed"'],
    ],
  ];
  for (const [name, conditions, want] of approvals) {
    it(`validates /approval: ${name}`, () => {
      const next = approvalReplacement(withConditions(conditions), stored);
      // `/approval` carries the status (unlike the main resource): validate + update rules.
      const errs = [
        ...(csrResource.strategy.validate?.(next) ?? []),
        ...(csrResource.strategy.validateUpdate?.(next, stored) ?? []),
      ];
      assert.deepEqual(errs.map(fieldErrorText), want);
    });
  }

  it('takes only the conditions through /approval', () => {
    const body = withConditions([{ type: 'Approved', status: 'True' }]);
    body.spec = { ...(body.spec as Spec), usages: ['server auth'] };
    (body.status as Spec).certificate = b64(CERT);
    const next = approvalReplacement(body, stored);
    assert.deepEqual(next.spec, stored.spec);
    assert.deepEqual(next.status, { conditions: [{ type: 'Approved', status: 'True' }] });
  });

  it('never lets an update drop an approval', () => {
    const approved = withConditions([{ type: 'Approved', status: 'True' }]);
    const errs = csrResource.strategy.validateUpdate?.(withConditions([]), approved) ?? [];
    assert.deepEqual(
      errs.map((e) => e.detail),
      ['updates may not remove a condition of type "Approved"'],
    );
  });

  it('refuses approvals and certificate changes through /status', () => {
    const issued = { ...stored, status: { certificate: b64(CERT) } };
    const next = {
      ...stored,
      status: {
        certificate: b64(`${CERT}${CERT}`),
        conditions: [{ type: 'Approved', status: 'True' }],
      },
    };
    const errs = csrResource.strategy.validateStatusUpdate?.(next, issued) ?? [];
    assert.deepEqual(
      errs.map((e) => e.detail),
      [
        'updates may not add a condition of type "Approved"',
        'updates may not modify existing certificate content',
      ],
    );
  });

  it('keeps the spec on a main-resource update', () => {
    const edited = { ...stored, spec: { ...(stored.spec as Spec), usages: ['server auth'] } };
    const { object, errors } = simulateUpdate(csrResource, edited, stored);
    assert.deepEqual(errors, []);
    assert.deepEqual(object.spec, stored.spec);
  });
});
