/**
 * X.509 client certificate authentication (upstream `request/x509`): a TLS client that presents
 * a certificate chaining to the cluster CA, valid now, and usable for client authentication is
 * the user named by its subject's CN, in the groups named by its O values (upstream
 * `CommonNameUserConversion`), so a user made through a CertificateSigningRequest
 * (`kubernetes.io/kube-apiserver-client`) can log in with a kubeconfig.
 *
 * The TLS server asks for a certificate but does not reject the handshake without a trusted one
 * (`requestCert: true, rejectUnauthorized: false`, as Go's `VerifyClientCertIfGiven` with the
 * verification done here): token clients present none, and an untrusted certificate is refused
 * with a 401 like upstream's, not a TLS alert. Verification here, not by OpenSSL, so validity is
 * judged on the injected clock (the virtual clock of `fleetyard up`).
 *
 * @module
 */
import { createHash, X509Certificate } from 'node:crypto';
import { TLSSocket } from 'node:tls';
import type * as X509 from '@peculiar/x509';
import { loadX509 } from '../../security/x509-tools.js';
import type { Clock } from '../../util/clock.js';
import type { AuthenticationRequest, CredentialResult } from './request-authenticator.js';
import type { UserInfo } from './user.js';

/** Extra key upstream (1.32+) records the credential under: `X509SHA256=<hex of the DER>`. */
export const CREDENTIAL_ID_KEY = 'authentication.kubernetes.io/credential-id';

const EKU_CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const EKU_ANY = '2.5.29.37.0';
/** Go's `maxChainLength`-like bound: a CA of this cluster signs leaves only (pathLen 0). */
const MAX_INTERMEDIATES = 4;

/**
 * The options to spread into `https.createServer` so clients can present a certificate:
 * `ca` names the CAs the server asks for (the CertificateRequest's list) and trusts.
 */
export function clientCertificateServerOptions(caPems: readonly string[]): {
  requestCert: true;
  rejectUnauthorized: false;
  ca: string[];
} {
  return { requestCert: true, rejectUnauthorized: false, ca: [...caPems] };
}

/** What a verified peer certificate says, kept per connection (the chain is checked once). */
interface Verified {
  readonly user: UserInfo | undefined;
  readonly notBefore: number;
  readonly notAfter: number;
  readonly usable: boolean;
  readonly serial: string;
}

/** The CA certificates client certificates must chain to, parsed once. */
export interface ClientCertificateVerifier {
  /** The user of the peer's certificate; `undefined` without one (or without a CN). */
  userOf(socket: unknown, now: number): CredentialResult;
}

/**
 * Makes the verifier (async: it loads @peculiar/x509 to read names and extensions the way Go
 * does, which Node's flattened `subject` text cannot for values with commas or several O's).
 */
export async function clientCertificateVerifier(
  caPems: readonly string[],
): Promise<ClientCertificateVerifier> {
  const x509 = await loadX509();
  const roots = caPems.map((pem) => new X509Certificate(pem));
  const cache = new WeakMap<TLSSocket, Verified | Error>();
  return {
    userOf(socket, now) {
      if (!(socket instanceof TLSSocket)) return undefined;
      let verified = cache.get(socket);
      if (verified === undefined) {
        const peer = peerChain(socket);
        if (peer === undefined) return undefined;
        verified = verify(x509, peer.leaf, peer.intermediates, roots);
        cache.set(socket, verified);
      }
      return judge(verified, now);
    },
  };
}

/**
 * The request authenticator for `RequestAuthenticators.clientCertificate`, on `clock`'s time.
 */
export async function clientCertificateAuthenticator(
  caPems: readonly string[],
  clock: Pick<Clock, 'now'>,
): Promise<(req: AuthenticationRequest) => CredentialResult> {
  const verifier = await clientCertificateVerifier(caPems);
  return (req) => verifier.userOf(req.socket, clock.now());
}

/** The user of `socket`'s client certificate at `now`, through `verifier`. */
export function userFromClientCertificate(
  verifier: ClientCertificateVerifier,
  socket: TLSSocket,
  now: number,
): CredentialResult {
  return verifier.userOf(socket, now);
}

function judge(v: Verified | Error, now: number): CredentialResult {
  if (v instanceof Error) return v;
  if (now < v.notBefore || now > v.notAfter) {
    const when = new Date(now).toISOString();
    const bound = now < v.notBefore ? `before ${iso(v.notBefore)}` : `after ${iso(v.notAfter)}`;
    return new Error(
      `verifying certificate SN=${v.serial} failed: x509: certificate has expired or is not yet valid: current time ${when} is ${bound}`,
    );
  }
  if (!v.usable) {
    return new Error(
      `verifying certificate SN=${v.serial} failed: x509: certificate specifies an incompatible key usage`,
    );
  }
  // A trusted certificate without a CN names no one: upstream answers "not mine", no error.
  return v.user === undefined ? undefined : { user: v.user };
}

function peerChain(
  socket: TLSSocket,
): { leaf: X509Certificate; intermediates: X509Certificate[] } | undefined {
  const leaf = socket.getPeerX509Certificate();
  if (leaf === undefined) return undefined;
  const intermediates: X509Certificate[] = [];
  const seen = new Set<string>([leaf.fingerprint256]);
  let next = socket.getPeerCertificate(true).issuerCertificate;
  while (next?.raw !== undefined && intermediates.length < MAX_INTERMEDIATES) {
    const cert = new X509Certificate(next.raw);
    if (seen.has(cert.fingerprint256)) break; // a self-issued root points to itself
    seen.add(cert.fingerprint256);
    intermediates.push(cert);
    next = next.issuerCertificate;
  }
  return { leaf, intermediates };
}

/** Go's `Certificate.Verify` with the cluster CAs as roots and client auth as the usage. */
function verify(
  x509: typeof X509,
  leaf: X509Certificate,
  intermediates: readonly X509Certificate[],
  roots: readonly X509Certificate[],
): Verified | Error {
  const serial = leaf.serialNumber.toLowerCase();
  const chain = chainTo(leaf, intermediates, roots, 0);
  if (chain === undefined) {
    return new Error(
      `verifying certificate SN=${serial} failed: x509: certificate signed by unknown authority`,
    );
  }
  let notBefore = Number.NEGATIVE_INFINITY;
  let notAfter = Number.POSITIVE_INFINITY;
  let usable = true;
  for (const cert of chain) {
    const parsed = new x509.X509Certificate(cert.raw);
    notBefore = Math.max(notBefore, parsed.notBefore.getTime());
    notAfter = Math.min(notAfter, parsed.notAfter.getTime());
    // Go checks the usage along the whole chain; a certificate without the extension allows any.
    const eku = parsed.getExtension(x509.ExtendedKeyUsageExtension);
    const usages = eku?.usages.map(String);
    if (usages !== undefined && !usages.includes(EKU_CLIENT_AUTH) && !usages.includes(EKU_ANY)) {
      usable = false;
    }
  }
  const subject = new x509.X509Certificate(leaf.raw).subjectName;
  // Go's pkix.Name keeps the last CN and every O in order.
  const cn = subject.getField('CN').at(-1) ?? '';
  const user: UserInfo | undefined =
    cn === ''
      ? undefined
      : {
          username: cn,
          groups: subject.getField('O'),
          extra: { [CREDENTIAL_ID_KEY]: [`X509SHA256=${sha256Hex(leaf.raw)}`] },
        };
  return { user, notBefore, notAfter, usable, serial };
}

/** A path leaf → intermediates → a root, each signed by the next; undefined when none. */
function chainTo(
  cert: X509Certificate,
  intermediates: readonly X509Certificate[],
  roots: readonly X509Certificate[],
  depth: number,
): X509Certificate[] | undefined {
  // A root presented as the leaf is trusted as itself (Go: a chain of one).
  if (depth === 0 && roots.some((r) => r.raw.equals(cert.raw))) return [cert];
  for (const root of roots) {
    if (signedBy(cert, root)) return [cert, root];
  }
  if (depth >= MAX_INTERMEDIATES) return undefined;
  for (const inter of intermediates) {
    if (!inter.ca || !signedBy(cert, inter)) continue;
    const rest = chainTo(
      inter,
      intermediates.filter((i) => i !== inter),
      roots,
      depth + 1,
    );
    if (rest !== undefined) return [cert, ...rest];
  }
  return undefined;
}

function signedBy(cert: X509Certificate, issuer: X509Certificate): boolean {
  try {
    return cert.checkIssued(issuer) && cert.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

function sha256Hex(der: Buffer): string {
  return createHash('sha256').update(der).digest('hex');
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
