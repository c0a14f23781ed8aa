/**
 * kube-controller-manager's `certificatesigningrequest-signing-controller` (upstream
 * `pkg/controller/certificates/signer`): signs approved CertificateSigningRequests of the
 * `kubernetes.io/kube-apiserver-client`, `…-client-kubelet` and `kubernetes.io/kubelet-serving`
 * signers with the cluster CA, or marks them `Failed` (reason `SignerValidationFailure`) when
 * the request breaks the signer's rules. `kubectl certificate approve` then `kubectl get csr`
 * shows `Approved,Issued`.
 *
 * The CA key stays with whoever builds the controller: it gets a {@link CsrSigningBackend}
 * (in `fleetyard up`, `src/security/csr-issuer.ts` on the cluster CA).
 *
 * @module
 */
import type { CertificateSigningRequest } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import type { ResourceType } from '../../client/resource-path.js';
import type { ControllerContext, ControllerDefinition } from '../../controller/context.js';
import { type ReconcileResult, runController } from '../../controller/controller.js';
import { kindInformer } from '../../controller/kind-informer.js';
import { WorkQueue } from '../../controller/workqueue.js';
import {
  awaitsSigning,
  DEFAULT_SIGNING_DURATION_SECONDS,
  isHandledSigner,
  planSigning,
  type RequestSubject,
} from './signing-plan.js';

export const CSR_SIGNING_CONTROLLER_NAME = 'certificatesigningrequest-signing-controller';

export const CSR_RESOURCE: ResourceType = {
  group: 'certificates.k8s.io',
  version: 'v1',
  plural: 'certificatesigningrequests',
};

/** Parses and signs PKCS#10 requests with the signing CA. */
export interface CsrSigningBackend {
  parse(requestPem: string): Promise<RequestSubject>;
  issue(
    requestPem: string,
    options: { readonly usages: readonly string[]; notBefore: Date; notAfter: Date },
  ): Promise<string>;
}

export interface CsrSigningOptions {
  /** `--cluster-signing-duration`, the longest a certificate lives. @default one year */
  readonly maxDurationSeconds?: number;
}

export function csrSigningController(
  backend: CsrSigningBackend,
  options: CsrSigningOptions = {},
): ControllerDefinition {
  return {
    name: CSR_SIGNING_CONTROLLER_NAME,
    start: (ctx) =>
      run(ctx, backend, options.maxDurationSeconds ?? DEFAULT_SIGNING_DURATION_SECONDS),
  };
}

function withStatus(
  csr: CertificateSigningRequest,
  status: NonNullable<CertificateSigningRequest['status']>,
): KubeObject {
  return { ...csr, status: { ...csr.status, ...status } };
}

async function run(
  ctx: ControllerContext,
  backend: CsrSigningBackend,
  maxDurationSeconds: number,
): Promise<void> {
  const csrs = kindInformer(ctx.informers.informer(CSR_RESOURCE), 'CertificateSigningRequest');
  const queue = new WorkQueue<string>({
    clock: ctx.clock,
    name: 'csrsigning',
    metrics: ctx.metrics.queue,
  });
  const enqueue = (o: KubeObject) => queue.add(o.metadata?.name ?? '');
  csrs.informer.addEventHandler({ onAdd: enqueue, onUpdate: (_, cur) => enqueue(cur) });
  if (!(await ctx.informers.waitForSync([csrs.informer], ctx.signal))) return;

  const reconcile = async (name: string): Promise<ReconcileResult> => {
    const csr = csrs.lister.get('', name);
    if (!csr || !awaitsSigning(csr) || !isHandledSigner(csr.spec.signerName)) return {};
    const pem = Buffer.from(csr.spec.request, 'base64').toString('utf8');
    // Upstream returns the parse error and retries with backoff; validation leaves it unparsable
    // only if the request was never checked, so this is rare.
    const subject = await backend.parse(pem);
    const now = ctx.clock.now();
    const decision = planSigning(csr, subject, now, maxDurationSeconds);
    const ref = { ...CSR_RESOURCE, name };
    if (decision.action === 'fail') {
      const stamp = new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z');
      const failed = {
        type: 'Failed',
        status: 'True',
        reason: 'SignerValidationFailure',
        message: decision.message,
        lastUpdateTime: stamp,
        lastTransitionTime: stamp,
      };
      const conditions = [...(csr.status?.conditions ?? []), failed];
      await ctx.client.updateStatus(ref, withStatus(csr, { conditions }));
    } else if (decision.action === 'sign') {
      const certificate = await backend.issue(pem, decision);
      const encoded = Buffer.from(certificate, 'utf8').toString('base64');
      await ctx.client.updateStatus(ref, withStatus(csr, { certificate: encoded }));
    }
    return {};
  };
  await runController({
    name: CSR_SIGNING_CONTROLLER_NAME,
    queue,
    reconcile,
    clock: ctx.clock,
    log: ctx.log,
    metrics: ctx.metrics.controller,
    signal: ctx.signal,
  });
}
