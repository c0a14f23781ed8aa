/**
 * Issues certificates for approved CertificateSigningRequests with the cluster CA, as
 * kube-controller-manager's `csrsigning` controller does with `--cluster-signing-cert-file` and
 * `--cluster-signing-key-file` (upstream `pkg/controller/certificates/authority`): the subject
 * and subject alternative names of the request, the usages the CSR asks for, `NotBefore`
 * backdated 5 minutes, `NotAfter` at most the CA's own.
 *
 * The controller (`src/controllers/certificates/`) decides what to sign; this only parses and
 * signs, so the CA key never leaves the `security` layer.
 *
 * @module
 */
import { createPrivateKey, type KeyObject, webcrypto, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type * as X509 from '@peculiar/x509';
import { assertPrivateFile } from './files.js';
import { CA_CERT_FILE, CA_KEY_FILE } from './pki.js';
import { loadX509, pemText, signingAlgorithmFor } from './x509-tools.js';

/** What a PKCS#10 request asks for (Go's `x509.CertificateRequest` fields the signers check). */
export interface ParsedCertificateRequest {
  readonly commonName: string;
  readonly organizations: readonly string[];
  readonly dnsNames: readonly string[];
  readonly ipAddresses: readonly string[];
  readonly emailAddresses: readonly string[];
  readonly uris: readonly string[];
}

export interface IssueOptions {
  /** `spec.usages` of the CSR (`client auth`, `digital signature`, …). */
  readonly usages: readonly string[];
  readonly notBefore: Date;
  readonly notAfter: Date;
}

export interface CertificateIssuer {
  /** Parses and verifies a PEM request; throws when it is not a valid, self-signed one. */
  parse(requestPem: string): Promise<ParsedCertificateRequest>;
  /** A PEM certificate for the request, signed by the CA (NotAfter clamped to the CA's). */
  issue(requestPem: string, options: IssueOptions): Promise<string>;
}

/** Upstream `keyUsagesFromStrings`: CSR usage names → key usage bits and extended key usage OIDs. */
const KEY_USAGES: Readonly<Record<string, number>> = {
  signing: 1,
  'digital signature': 1,
  'content commitment': 2,
  'key encipherment': 4,
  'data encipherment': 8,
  'key agreement': 16,
  'cert sign': 32,
  'crl sign': 64,
  'encipher only': 128,
  'decipher only': 256,
};
const EXTENDED_KEY_USAGES: Readonly<Record<string, string>> = {
  any: '2.5.29.37.0',
  'server auth': '1.3.6.1.5.5.7.3.1',
  'client auth': '1.3.6.1.5.5.7.3.2',
  'code signing': '1.3.6.1.5.5.7.3.3',
  'email protection': '1.3.6.1.5.5.7.3.4',
  's/mime': '1.3.6.1.5.5.7.3.4',
  'ipsec end system': '1.3.6.1.5.5.7.3.5',
  'ipsec tunnel': '1.3.6.1.5.5.7.3.6',
  'ipsec user': '1.3.6.1.5.5.7.3.7',
  timestamping: '1.3.6.1.5.5.7.3.8',
  'ocsp signing': '1.3.6.1.5.5.7.3.9',
  'microsoft sgc': '1.3.6.1.4.1.311.10.3.3',
  'netscape sgc': '2.16.840.1.113730.4.1',
};

interface Ca {
  readonly certPem: string;
  readonly cert: X509Certificate;
  readonly key: KeyObject;
}

async function readCa(dir: string): Promise<Ca> {
  const keyPath = join(dir, CA_KEY_FILE);
  await assertPrivateFile(keyPath);
  const [certPem, keyPem] = await Promise.all([
    readFile(join(dir, CA_CERT_FILE), 'utf8'),
    readFile(keyPath, 'utf8'),
  ]);
  return { certPem, cert: new X509Certificate(certPem), key: createPrivateKey(keyPem) };
}

/** The subjectAltName the request carries in its extensionRequest attribute, if any. */
function alternativeNames(
  x509: typeof X509,
  request: X509.Pkcs10CertificateRequest,
): readonly X509.GeneralName[] {
  // 2.5.29.17: subjectAltName.
  const ext = request.getExtension('2.5.29.17');
  return ext ? new x509.SubjectAlternativeNameExtension(ext.rawData).names.items : [];
}

async function parseRequest(
  x509: typeof X509,
  pem: string,
): Promise<X509.Pkcs10CertificateRequest> {
  const request = new x509.Pkcs10CertificateRequest(pem);
  if (!(await request.verify())) throw new Error('the request signature does not verify');
  return request;
}

function fields(request: X509.Pkcs10CertificateRequest, type: string): string[] {
  return request.subjectName.getField(type);
}

/** The issuer for the CA in `dir` (`ca.crt`, `ca.key` of mode 0600), read on first use. */
export function csrIssuer(dir: string): CertificateIssuer {
  let ca: Promise<Ca> | undefined;
  const loadCa = () => {
    ca ??= readCa(dir);
    return ca;
  };
  return {
    async parse(requestPem) {
      const x509 = await loadX509();
      const request = await parseRequest(x509, requestPem);
      const names = alternativeNames(x509, request);
      const of = (type: string) => names.filter((n) => n.type === type).map((n) => n.value);
      return {
        commonName: fields(request, 'CN')[0] ?? '',
        organizations: fields(request, 'O'),
        dnsNames: of('dns'),
        ipAddresses: of('ip'),
        emailAddresses: of('email'),
        uris: of('url'),
      };
    },
    async issue(requestPem, options) {
      const [x509, authority] = await Promise.all([loadX509(), loadCa()]);
      const request = await parseRequest(x509, requestPem);
      const signing = signingAlgorithmFor(authority.key);
      const signingKey = await webcrypto.subtle.importKey(
        'pkcs8',
        authority.key.export({ format: 'der', type: 'pkcs8' }),
        signing.importParams,
        false,
        ['sign'],
      );
      const caCert = new x509.X509Certificate(authority.certPem);
      const keyBits = options.usages.reduce((bits, u) => bits | (KEY_USAGES[u] ?? 0), 0);
      const extended = options.usages.flatMap((u) => EXTENDED_KEY_USAGES[u] ?? []);
      const names = alternativeNames(x509, request);
      const publicKey = await request.publicKey.export(webcrypto);
      const extensions: X509.Extension[] = [
        new x509.BasicConstraintsExtension(false, undefined, true),
        await x509.SubjectKeyIdentifierExtension.create(publicKey, false, webcrypto),
        await x509.AuthorityKeyIdentifierExtension.create(caCert, false, webcrypto),
      ];
      if (keyBits !== 0) extensions.push(new x509.KeyUsagesExtension(keyBits, true));
      if (extended.length > 0) extensions.push(new x509.ExtendedKeyUsageExtension(extended));
      if (names.length > 0) {
        extensions.push(new x509.SubjectAlternativeNameExtension(names.map((n) => n.toJSON())));
      }
      const notAfter = Math.min(options.notAfter.getTime(), Date.parse(authority.cert.validTo));
      const serial = Buffer.from(webcrypto.getRandomValues(new Uint8Array(16)));
      serial[0] = (serial[0] ?? 0) & 0x7f; // a positive INTEGER, as Go's serials are
      const certificate = await x509.X509CertificateGenerator.create(
        {
          serialNumber: serial.toString('hex'),
          subject: request.subjectName,
          issuer: caCert.subjectName,
          publicKey,
          signingKey,
          signingAlgorithm: signing.signParams,
          notBefore: options.notBefore,
          notAfter: new Date(notAfter),
          extensions,
        },
        webcrypto,
      );
      return pemText(certificate.toString('pem'));
    },
  };
}
