/**
 * What kube-controller-manager's `csrsigning` controller does with one CertificateSigningRequest
 * (upstream `pkg/controller/certificates/signer/signer.go`), as a pure decision: leave it, mark it
 * Failed, or sign it for how long. Only the three signers kube-controller-manager serves are
 * handled; any other `signerName` belongs to some other signer and is left alone.
 *
 * @module
 */
import type { CertificateSigningRequest } from '../../api/model/index.js';

export const KUBE_APISERVER_CLIENT = 'kubernetes.io/kube-apiserver-client';
export const KUBE_APISERVER_CLIENT_KUBELET = 'kubernetes.io/kube-apiserver-client-kubelet';
export const KUBELET_SERVING = 'kubernetes.io/kubelet-serving';

/** `--cluster-signing-duration`'s default: 8760 h, one year. */
export const DEFAULT_SIGNING_DURATION_SECONDS = 365 * 24 * 3600;
/** Upstream backdates NotBefore 5 minutes, for clocks that lag the signer's. */
export const BACKDATE_MS = 5 * 60_000;

/** The fields of the PKCS#10 request that the signers' rules read. */
export interface RequestSubject {
  readonly commonName: string;
  readonly organizations: readonly string[];
  readonly dnsNames: readonly string[];
  readonly ipAddresses: readonly string[];
  readonly emailAddresses: readonly string[];
  readonly uris: readonly string[];
}

export type SigningDecision =
  | { readonly action: 'none' }
  | { readonly action: 'fail'; readonly message: string }
  | {
      readonly action: 'sign';
      readonly usages: readonly string[];
      readonly notBefore: Date;
      readonly notAfter: Date;
    };

function hasTrueCondition(csr: CertificateSigningRequest, type: string): boolean {
  return (csr.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

/** Upstream `IsCertificateRequestApproved`: Approved and not Denied. */
export function isApproved(csr: CertificateSigningRequest): boolean {
  return hasTrueCondition(csr, 'Approved') && !hasTrueCondition(csr, 'Denied');
}

/** Whether the signer has anything left to do: approved, not failed, no certificate yet. */
export function awaitsSigning(csr: CertificateSigningRequest): boolean {
  return (
    (csr.status?.certificate ?? '') === '' && isApproved(csr) && !hasTrueCondition(csr, 'Failed')
  );
}

export function isHandledSigner(signerName: string): boolean {
  return [KUBE_APISERVER_CLIENT, KUBE_APISERVER_CLIENT_KUBELET, KUBELET_SERVING].includes(
    signerName,
  );
}

const sameSet = (a: readonly string[], b: readonly string[]): boolean =>
  new Set(a).size === new Set(b).size && a.every((x) => b.includes(x));

/** Upstream `validAPIServerClientUsages`. */
function apiServerClientUsages(usages: readonly string[]): string | undefined {
  for (const u of usages) {
    if (!['digital signature', 'key encipherment', 'client auth'].includes(u)) {
      return `invalid usage for client certificate: ${u}`;
    }
  }
  return usages.includes('client auth')
    ? undefined
    : 'missing required usage for client certificate: client auth';
}

function nodeOrganization(req: RequestSubject): string | undefined {
  const [only, ...more] = req.organizations;
  return only === 'system:nodes' && more.length === 0
    ? undefined
    : 'subject organization is not system:nodes';
}

const NOT_NODE = 'subject common name does not begin with system:node:';

/** Upstream `ValidateKubeletClientCSR`, its checks in its order. */
function kubeletClient(req: RequestSubject, usages: readonly string[]): string | undefined {
  const withRsa = ['client auth', 'digital signature', 'key encipherment'];
  return (
    nodeOrganization(req) ??
    (req.dnsNames.length > 0 ? 'DNS subjectAltNames are not allowed' : undefined) ??
    (req.emailAddresses.length > 0 ? 'Email subjectAltNames are not allowed' : undefined) ??
    (req.ipAddresses.length > 0 ? 'IP subjectAltNames are not allowed' : undefined) ??
    (req.uris.length > 0 ? 'URI subjectAltNames are not allowed' : undefined) ??
    (req.commonName.startsWith('system:node:') ? undefined : NOT_NODE) ??
    (sameSet(usages, withRsa) || sameSet(usages, ['client auth', 'digital signature'])
      ? undefined
      : `usages did not match [${withRsa.join(' ')}]`)
  );
}

/** Upstream `ValidateKubeletServingCSR`, its checks in its order. */
function kubeletServing(req: RequestSubject, usages: readonly string[]): string | undefined {
  const withRsa = ['digital signature', 'key encipherment', 'server auth'];
  return (
    nodeOrganization(req) ??
    (req.dnsNames.length === 0 && req.ipAddresses.length === 0
      ? 'DNS or IP subjectAltName is required'
      : undefined) ??
    (req.emailAddresses.length > 0 ? 'Email subjectAltNames are not allowed' : undefined) ??
    (req.uris.length > 0 ? 'URI subjectAltNames are not allowed' : undefined) ??
    (sameSet(usages, withRsa) || sameSet(usages, ['digital signature', 'server auth'])
      ? undefined
      : `usages did not match [${withRsa.join(' ')}]`) ??
    (req.commonName.startsWith('system:node:') ? undefined : NOT_NODE)
  );
}

/**
 * The decision for an approved request whose PKCS#10 body parsed as `req`, at `now`. The
 * certificate lives `spec.expirationSeconds` (at most `maxDurationSeconds`), from `now`; its
 * NotBefore is backdated 5 minutes.
 */
export function planSigning(
  csr: CertificateSigningRequest,
  req: RequestSubject,
  now: number,
  maxDurationSeconds = DEFAULT_SIGNING_DURATION_SECONDS,
): SigningDecision {
  const { signerName } = csr.spec;
  if (!awaitsSigning(csr) || !isHandledSigner(signerName)) return { action: 'none' };
  const usages = csr.spec.usages ?? [];
  const problem =
    signerName === KUBE_APISERVER_CLIENT
      ? apiServerClientUsages(usages)
      : signerName === KUBE_APISERVER_CLIENT_KUBELET
        ? kubeletClient(req, usages)
        : kubeletServing(req, usages);
  if (problem !== undefined) return { action: 'fail', message: problem };
  const requested = csr.spec.expirationSeconds;
  const seconds =
    requested === undefined ? maxDurationSeconds : Math.min(requested, maxDurationSeconds);
  return {
    action: 'sign',
    usages,
    notBefore: new Date(now - BACKDATE_MS),
    notAfter: new Date(now + seconds * 1000),
  };
}
