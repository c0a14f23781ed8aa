/**
 * The TLS material of `fleetyard up`: a private CA made on first start, and a serving certificate
 * signed by it, all kept as PEM files in the data dir and reused across restarts.
 *
 * Key algorithm: ECDSA P-256 with SHA-256, for both the CA and the serving certificate. Go's
 * crypto/tls (kubectl 1.27–1.33) and Node/OpenSSL (client-node, our own server) both support it
 * in TLS 1.2 and 1.3, it is what kubeadm/k3s-style dev clusters commonly use, and a key pair
 * takes well under a millisecond to generate, whereas RSA 2048 takes tens to hundreds of
 * milliseconds per key, which would slow every first start and every test. It is also the
 * stronger choice of the two (~128-bit vs ~112-bit security). An existing CA with an RSA or
 * P-384 key (e.g. one the user dropped in) is still accepted for signing.
 *
 * @module
 */

import { createPrivateKey, type KeyObject, webcrypto, X509Certificate } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type * as X509 from '@peculiar/x509';
import type { Clock } from '../util/clock.js';
import { canonicalIPv6, ipFamily } from '../util/ip.js';
import {
  assertPrivateFile,
  ensurePrivateDir,
  isNotFound,
  PRIVATE_FILE_MODE,
  writeFileAtomic,
} from './files.js';
import { loadX509, pemText, signingAlgorithmFor } from './x509-tools.js';

/** File names inside the data dir. */
export const CA_CERT_FILE = 'ca.crt';
export const CA_KEY_FILE = 'ca.key';
export const SERVER_CERT_FILE = 'server.crt';
export const SERVER_KEY_FILE = 'server.key';

/** Certificates are public: readable by others, like /etc/ssl/certs (the dir is 0700 anyway). */
const CERT_FILE_MODE = 0o644;

const DAY_MS = 86_400_000;
const CA_VALIDITY_MS = 3650 * DAY_MS;
const SERVING_VALIDITY_MS = 365 * DAY_MS;
/** Re-issue when less than this is left, so a long-running server never reaches expiry. */
const RENEW_BEFORE_MS = 30 * DAY_MS;
/** notBefore lies a little in the past, so a client whose clock lags ours still accepts the cert. */
const BACKDATE_MS = 5 * 60_000;

/** Names always in the serving certificate, so local clients work whatever `hosts` says. */
const DEFAULT_HOSTS = ['localhost', '127.0.0.1', '::1'];

const EC_KEY_ALGORITHM: webcrypto.EcKeyGenParams = { name: 'ECDSA', namedCurve: 'P-256' };

/** Inputs of {@link ensureServingCertificates}. */
export interface EnsureServingCertificatesOptions {
  /** Directory for the four PEM files; created (or tightened) to mode 0700. */
  dir: string;
  /** Host names and IP addresses clients use to reach the server (IPv6 with or without []). */
  hosts: readonly string[];
  /** Source of "now" for validity decisions; the real clock by default. */
  clock?: Pick<Clock, 'now'>;
}

/** PEM texts for the server (`certPem`, `keyPem`) and for clients (`caPem`). */
export interface ServingCertificates {
  caPem: string;
  certPem: string;
  keyPem: string;
}

/** A CA certificate and its private key, parsed. */
interface Ca {
  certPem: string;
  cert: X509Certificate;
  key: KeyObject;
}

/** Subject alternative names, normalised: DNS names lower-case, IPs in canonical text form. */
interface AltNames {
  dns: string[];
  ips: string[];
}

/**
 * Returns the CA and serving certificate in `dir`, creating what is missing. The CA is created on
 * first use and then reused (a new one only if its files are gone or it is within 30 days of
 * expiry). The serving certificate is reused unless it is missing, unreadable, not signed by the
 * CA, not yet or no longer valid (or within 30 days of expiry), or lacks one of `hosts`; then a
 * new key and certificate are issued. Throws if `ca.key` is readable by others or the CA files
 * are corrupt or do not match, rather than silently replacing a CA that clients may trust.
 */
export async function ensureServingCertificates(
  options: EnsureServingCertificatesOptions,
): Promise<ServingCertificates> {
  const { dir } = options;
  const now = options.clock?.now() ?? Date.now();
  const wanted = altNamesFor(options.hosts);
  await ensurePrivateDir(dir);
  const ca = (await loadCa(dir, now)) ?? (await createCa(dir, now));
  const serving =
    (await loadServing(dir, ca, wanted, now)) ?? (await issueServing(dir, ca, wanted, now));
  return { caPem: ca.certPem, ...serving };
}

// ---------------------------------------------------------------------------------------------
// Hosts

/**
 * Splits `hosts` into DNS names and IPs, adds the loopback defaults, drops empty entries (as from
 * splitting an empty env var) and duplicates, and rejects anything that is neither.
 */
function altNamesFor(hosts: readonly string[]): AltNames {
  const dns = new Set<string>();
  const ips = new Set<string>();
  for (const raw of [...DEFAULT_HOSTS, ...hosts]) {
    let host = raw.trim();
    if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
    if (host === '') continue;
    // A zone id (fe80::1%eth0) names an interface, not part of the address: not encodable.
    const address = host.replace(/%.*$/, '');
    if (ipFamily(address) !== 0) ips.add(canonicalIp(address));
    else dns.add(checkedDnsName(host));
  }
  return { dns: [...dns], ips: [...ips] };
}

/** Canonical text of an IP (RFC 5952 for IPv6), so `::1` and `0:0::1` count as the same host. */
function canonicalIp(ip: string): string {
  return ipFamily(ip) === 6 ? canonicalIPv6(ip) : ip;
}

/** `host` lower-cased without a trailing dot; throws unless it is a DNS name (or `*.` one). */
export function checkedDnsName(host: string): string {
  const name = host.toLowerCase().replace(/\.$/, '');
  const label = '[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?';
  const valid = new RegExp(`^(\\*\\.)?${label}(\\.${label})*$`);
  if (name.length > 253 || !valid.test(name)) {
    throw new TypeError(`invalid host ${JSON.stringify(host)}: not an IP address or DNS name`);
  }
  return name;
}

// ---------------------------------------------------------------------------------------------
// CA

/**
 * Loads the CA; `undefined` when it must be (re)created: a file is missing, it is not yet valid,
 * or it expires within 30 days. Anything else wrong is an error for the user to look at.
 */
async function loadCa(dir: string, now: number): Promise<Ca | undefined> {
  const keyPath = join(dir, CA_KEY_FILE);
  const certPath = join(dir, CA_CERT_FILE);
  const certPem = await readIfExists(certPath);
  if (certPem === undefined) return undefined;
  let keyPem: string;
  try {
    await assertPrivateFile(keyPath);
    keyPem = await readFile(keyPath, 'utf8');
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
  const ca = parseCa(certPem, keyPem, dir);
  // Not yet valid (the clock went back past its creation) is as useless to clients as expired.
  const usable =
    now >= Date.parse(ca.cert.validFrom) && remainingMs(ca.cert, now) >= RENEW_BEFORE_MS;
  return usable ? ca : undefined;
}

function parseCa(certPem: string, keyPem: string, dir: string): Ca {
  const hint = `delete ${CA_CERT_FILE} and ${CA_KEY_FILE} in ${dir} to have a new CA created`;
  let cert: X509Certificate;
  let key: KeyObject;
  try {
    cert = new X509Certificate(certPem);
    key = createPrivateKey(keyPem);
  } catch (err) {
    throw new Error(
      `cannot parse the CA in ${dir} (${err instanceof Error ? err.message : String(err)}); ${hint}`,
    );
  }
  if (!cert.ca) throw new Error(`${CA_CERT_FILE} in ${dir} is not a CA certificate; ${hint}`);
  if (!cert.checkPrivateKey(key)) {
    throw new Error(`${CA_KEY_FILE} does not belong to ${CA_CERT_FILE} in ${dir}; ${hint}`);
  }
  signingAlgorithmFor(key); // fail now, not at the first re-issue, on an unusable key type
  return { certPem, cert, key };
}

async function createCa(dir: string, now: number): Promise<Ca> {
  const x509 = await loadX509();
  const crypto = webcrypto;
  const keys = await crypto.subtle.generateKey(EC_KEY_ALGORITHM, true, ['sign', 'verify']);
  const { BasicConstraintsExtension, KeyUsageFlags, KeyUsagesExtension } = x509;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned(
    {
      // The timestamp makes each CA's name unique, so two generations in one trust store (or in
      // kubectl's mind) are never confused, as kube-style "…-ca@<unix time>" names do.
      name: `CN=fleetyard-ca@${Math.floor(now / 1000)}, O=fleetyard`,
      keys,
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
      notBefore: new Date(now - BACKDATE_MS),
      notAfter: new Date(now + CA_VALIDITY_MS),
      extensions: [
        // pathLen 0: this CA signs leaf certificates only.
        new BasicConstraintsExtension(true, 0, true),
        new KeyUsagesExtension(
          KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign | KeyUsageFlags.digitalSignature,
          true,
        ),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, crypto),
      ],
    },
    crypto,
  );
  const certPem = pemText(certificate.toString('pem'));
  const keyPem = await privateKeyPem(keys.privateKey);
  // Order matters for crash safety: with the old certificate gone before the new key lands, an
  // interrupted run leaves "key without certificate", which the next start simply redoes,
  // never a mismatched pair (which loadCa refuses).
  await rm(join(dir, CA_CERT_FILE), { force: true });
  await writeFileAtomic(join(dir, CA_KEY_FILE), keyPem, PRIVATE_FILE_MODE);
  await writeFileAtomic(join(dir, CA_CERT_FILE), certPem, CERT_FILE_MODE);
  return { certPem, cert: new X509Certificate(certPem), key: createPrivateKey(keyPem) };
}

// ---------------------------------------------------------------------------------------------
// Serving certificate

/** Loads the serving pair if it is still good for `wanted` at `now`; `undefined` otherwise. */
async function loadServing(
  dir: string,
  ca: Ca,
  wanted: AltNames,
  now: number,
): Promise<{ certPem: string; keyPem: string } | undefined> {
  const keyPath = join(dir, SERVER_KEY_FILE);
  try {
    // A serving key others could read is treated as leaked: re-issue with a fresh key.
    await assertPrivateFile(keyPath);
    const certPem = await readFile(join(dir, SERVER_CERT_FILE), 'utf8');
    const keyPem = await readFile(keyPath, 'utf8');
    const cert = new X509Certificate(certPem);
    const usable =
      cert.checkPrivateKey(createPrivateKey(keyPem)) &&
      cert.checkIssued(ca.cert) &&
      cert.verify(ca.cert.publicKey) &&
      now >= Date.parse(cert.validFrom) &&
      remainingMs(cert, now) >= RENEW_BEFORE_MS &&
      (await covers(certPem, cert, wanted));
    return usable ? { certPem, keyPem } : undefined;
  } catch {
    // Missing, unreadable or unparsable: all mean "issue a new one", which replaces the files.
    return undefined;
  }
}

/**
 * True when the certificate names every wanted DNS name and IP address. Node's own checks
 * are enough here (subject alternative names only, no wildcards), which keeps the X.509
 * library (~40 ms to load and parse) off the path of every restart.
 */
async function covers(_certPem: string, cert: X509Certificate, wanted: AltNames): Promise<boolean> {
  const dnsOk = wanted.dns.every(
    (d) => cert.checkHost(d, { subject: 'never', wildcards: false }) !== undefined,
  );
  // checkIP compares addresses as bytes, so the textual form in the certificate does not matter.
  return dnsOk && wanted.ips.every((ip) => cert.checkIP(ip) !== undefined);
}

async function issueServing(
  dir: string,
  ca: Ca,
  wanted: AltNames,
  now: number,
): Promise<{ certPem: string; keyPem: string }> {
  const x509 = await loadX509();
  const crypto = webcrypto;
  const keys = await crypto.subtle.generateKey(EC_KEY_ALGORITHM, true, ['sign', 'verify']);
  const signing = signingAlgorithmFor(ca.key);
  const signingKey = await crypto.subtle.importKey(
    'pkcs8',
    ca.key.export({ format: 'der', type: 'pkcs8' }),
    signing.importParams,
    false,
    ['sign'],
  );
  const caCert = new x509.X509Certificate(ca.certPem);
  const certificate = await x509.X509CertificateGenerator.create(
    {
      subject: 'CN=fleetyard-apiserver, O=fleetyard',
      // The CA's own encoded name: Go matches issuer to subject byte for byte.
      issuer: caCert.subjectName,
      publicKey: keys.publicKey,
      signingKey,
      signingAlgorithm: signing.signParams,
      notBefore: new Date(now - BACKDATE_MS),
      // Never outlive the CA: verifiers would reject the chain after the CA expires anyway.
      notAfter: new Date(Math.min(now + SERVING_VALIDITY_MS, Date.parse(ca.cert.validTo))),
      extensions: await servingExtensions(x509, keys.publicKey, caCert, wanted),
    },
    crypto,
  );
  const certPem = pemText(certificate.toString('pem'));
  const keyPem = await privateKeyPem(keys.privateKey);
  await writeFileAtomic(join(dir, SERVER_KEY_FILE), keyPem, PRIVATE_FILE_MODE);
  await writeFileAtomic(join(dir, SERVER_CERT_FILE), certPem, CERT_FILE_MODE);
  return { certPem, keyPem };
}

async function servingExtensions(
  x509: typeof X509,
  publicKey: webcrypto.CryptoKey,
  caCert: X509.X509Certificate,
  wanted: AltNames,
): Promise<X509.Extension[]> {
  const names: X509.JsonGeneralNames = [
    ...wanted.dns.map((value) => ({ type: 'dns' as const, value })),
    ...wanted.ips.map((value) => ({ type: 'ip' as const, value })),
  ];
  const extensions: X509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    // ECDSA keys only sign in TLS (no key encipherment), so digitalSignature is all they need.
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
    new x509.SubjectAlternativeNameExtension(names),
    await x509.SubjectKeyIdentifierExtension.create(publicKey, false, webcrypto),
  ];
  // The authority key id must repeat the CA's subject key id (RFC 5280 section 4.2.1.1).
  const caKeyId = caCert.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
  if (caKeyId) extensions.push(new x509.AuthorityKeyIdentifierExtension(caKeyId));
  return extensions;
}

// ---------------------------------------------------------------------------------------------
// Keys and encoding

/** PKCS#8 PEM ("BEGIN PRIVATE KEY"), which Node's tls and Go's tls.X509KeyPair both read. */
async function privateKeyPem(key: webcrypto.CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })
    .export({ format: 'pem', type: 'pkcs8' })
    .toString();
}

function remainingMs(cert: X509Certificate, now: number): number {
  const notAfter = Date.parse(cert.validTo);
  // An unparsable date counts as expired, which leads to a re-issue, never to trusting it.
  return Number.isNaN(notAfter) ? -1 : notAfter - now;
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
