/**
 * The checks upstream's CSR validation makes on PEM data, without an X.509 library (the
 * strategy runs synchronously on every write): `spec.request` must be one PEM block of type
 * `CERTIFICATE REQUEST` holding a PKCS#10 request whose signature verifies with its own public
 * key (upstream `ParseCSR` + `CheckSignature`), and `status.certificate` must be PEM
 * `CERTIFICATE` blocks without headers that parse (upstream `validateCertificate`).
 *
 * The DER reader knows only what a PKCS#10 request needs: SEQUENCE, INTEGER, BIT STRING,
 * OBJECT IDENTIFIER and their lengths (short and long form).
 *
 * @module
 */
import { createPublicKey, verify, X509Certificate } from 'node:crypto';

interface Tlv {
  readonly tag: number;
  /** The whole element, header included (what a signature covers). */
  readonly raw: Buffer;
  readonly value: Buffer;
  readonly end: number;
}

class DerError extends Error {}

function readTlv(buf: Buffer, at: number): Tlv {
  if (at + 2 > buf.length) throw new DerError('truncated');
  const tag = buf[at] ?? 0;
  let len = buf[at + 1] ?? 0;
  let header = 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    // Four length bytes are far more than any request; more is malformed here.
    if (n === 0 || n > 4 || at + 2 + n > buf.length) throw new DerError('bad length');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + (buf[at + 2 + i] ?? 0);
    header += n;
  }
  const end = at + header + len;
  if (end > buf.length) throw new DerError('truncated');
  return { tag, raw: buf.subarray(at, end), value: buf.subarray(at + header, end), end };
}

function children(seq: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let at = 0; at < seq.value.length; ) {
    const t = readTlv(seq.value, at);
    out.push(t);
    at = t.end;
  }
  return out;
}

function oidText(value: Buffer): string {
  const first = value[0] ?? 0;
  const parts = [Math.floor(first / 40), first % 40];
  let n = 0;
  for (const b of value.subarray(1)) {
    n = n * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      parts.push(n);
      n = 0;
    }
  }
  return parts.join('.');
}

/** Signature algorithms by OID: the hash for `crypto.verify` (null: Ed25519). */
const ALGORITHMS: Readonly<Record<string, string | null>> = {
  '1.2.840.113549.1.1.5': 'sha1',
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '1.2.840.10045.4.1': 'sha1',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
  '1.3.101.112': null,
};

interface PemBlock {
  readonly type: string;
  readonly headers: boolean;
  readonly der: Buffer;
}

const PEM_RE = /-----BEGIN ([^-\r\n]+)-----\r?\n([\s\S]*?)-----END \1-----/g;

/** Every PEM block of `text`, in order (Go's `pem.Decode` in a loop). */
export function pemBlocks(text: string): PemBlock[] {
  const out: PemBlock[] = [];
  for (const m of text.matchAll(PEM_RE)) {
    const body = m[2] ?? '';
    const headers = /^[^\s:]+:/m.test(body);
    const b64 = body
      .split(/\r?\n/)
      .filter((l) => !l.includes(':'))
      .join('');
    out.push({ type: m[1] ?? '', headers, der: Buffer.from(b64, 'base64') });
  }
  return out;
}

/**
 * Upstream `ParseCSR` then `CheckSignature`: the error text upstream reports at
 * `spec.request`, or undefined for a well-formed, correctly signed request.
 */
export function checkCertificateRequest(pem: Buffer): string | undefined {
  const block = pemBlocks(pem.toString('latin1'))[0];
  if (block === undefined || block.type !== 'CERTIFICATE REQUEST') {
    return 'PEM block type must be CERTIFICATE REQUEST';
  }
  let info: Tlv;
  let algorithm: string;
  let signature: Buffer;
  let spki: Buffer;
  try {
    const [infoTlv, algTlv, sigTlv] = children(readTlv(block.der, 0));
    if (infoTlv === undefined || algTlv === undefined || sigTlv === undefined)
      throw new DerError('short');
    const [, , spkiTlv] = children(infoTlv);
    const oid = children(algTlv)[0];
    if (spkiTlv === undefined || oid === undefined || oid.tag !== 0x06)
      throw new DerError('fields');
    info = infoTlv;
    algorithm = oidText(oid.value);
    signature = sigTlv.value.subarray(1);
    spki = spkiTlv.raw;
  } catch {
    return 'x509: malformed certificate request';
  }
  if (!Object.hasOwn(ALGORITHMS, algorithm)) {
    return 'x509: cannot verify signature: algorithm unimplemented';
  }
  try {
    const key = createPublicKey({ key: spki, format: 'der', type: 'spki' });
    if (verify(ALGORITHMS[algorithm] ?? null, info.raw, key, signature)) return undefined;
    return key.asymmetricKeyType === 'rsa'
      ? 'crypto/rsa: verification error'
      : `x509: ${key.asymmetricKeyType === 'ec' ? 'ECDSA' : 'Ed25519'} verification failure`;
  } catch {
    return 'x509: malformed public key';
  }
}

/** Upstream `validateCertificate` of `status.certificate` (empty is fine). */
export function checkIssuedCertificate(pem: Buffer): string | undefined {
  if (pem.length === 0) return undefined;
  const blocks = pemBlocks(pem.toString('latin1'));
  if (blocks.length === 0) return 'must contain at least one CERTIFICATE PEM block';
  for (const b of blocks) {
    if (b.type !== 'CERTIFICATE')
      return `only CERTIFICATE PEM blocks are allowed, found "${b.type}"`;
    if (b.headers) return 'no PEM block headers are permitted';
    try {
      new X509Certificate(b.der);
    } catch {
      return 'x509: malformed certificate';
    }
  }
  return undefined;
}
