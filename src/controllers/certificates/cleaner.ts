/**
 * kube-controller-manager's `certificatesigningrequest-cleaner-controller` (upstream
 * `pkg/controller/certificates/cleaner`): once an hour, deletes requests that are done with —
 * issued or denied or failed for an hour, or pending for a day — so the list does not grow
 * without end. On the cluster clock, so `fleetyard clock advance 1h` shows it.
 *
 * @module
 */
import type { CertificateSigningRequest } from '../../api/model/index.js';
import { isNotFound } from '../../client/api-client.js';
import type { ControllerContext, ControllerDefinition } from '../../controller/context.js';
import { type ReconcileResult, runController } from '../../controller/controller.js';
import { kindInformer } from '../../controller/kind-informer.js';
import { WorkQueue } from '../../controller/workqueue.js';
import { CSR_RESOURCE } from './signing-controller.js';

export const CSR_CLEANER_CONTROLLER_NAME = 'certificatesigningrequest-cleaner-controller';

const HOUR_MS = 3_600_000;
/** Upstream's `pollingInterval`, `approvedExpiration`, `deniedExpiration`, `pendingExpiration`. */
export const CLEANER_POLL_MS = HOUR_MS;
const APPROVED_EXPIRATION_MS = HOUR_MS;
const DENIED_EXPIRATION_MS = HOUR_MS;
const PENDING_EXPIRATION_MS = 24 * HOUR_MS;

function conditionTime(csr: CertificateSigningRequest, type: string): number | undefined {
  const c = (csr.status?.conditions ?? []).find((x) => x.type === type && x.status === 'True');
  if (!c) return undefined;
  const t = Date.parse(c.lastUpdateTime ?? c.lastTransitionTime ?? '');
  return Number.isNaN(t) ? undefined : t;
}

/** Whether the cleaner deletes `csr` at `now` (upstream's `isIssuedPastDeadline` and friends). */
export function isCleanable(csr: CertificateSigningRequest, now: number): boolean {
  const approved = conditionTime(csr, 'Approved');
  const denied = conditionTime(csr, 'Denied');
  const failed = conditionTime(csr, 'Failed');
  const issued = (csr.status?.certificate ?? '') !== '';
  if (issued && approved !== undefined && now - approved > APPROVED_EXPIRATION_MS) return true;
  if (denied !== undefined && now - denied > DENIED_EXPIRATION_MS) return true;
  if (failed !== undefined && now - failed > DENIED_EXPIRATION_MS) return true;
  const pending = approved === undefined && denied === undefined;
  const created = Date.parse(csr.metadata?.creationTimestamp ?? '');
  return pending && !Number.isNaN(created) && now - created > PENDING_EXPIRATION_MS;
}

export function csrCleanerController(): ControllerDefinition {
  return { name: CSR_CLEANER_CONTROLLER_NAME, start: run };
}

async function run(ctx: ControllerContext): Promise<void> {
  const csrs = kindInformer(ctx.informers.informer(CSR_RESOURCE), 'CertificateSigningRequest');
  const queue = new WorkQueue<string>({
    clock: ctx.clock,
    name: 'csrcleaner',
    metrics: ctx.metrics.queue,
  });
  if (!(await ctx.informers.waitForSync([csrs.informer], ctx.signal))) return;
  const pass = async (): Promise<ReconcileResult> => {
    const now = ctx.clock.now();
    for (const csr of csrs.lister.list()) {
      if (!isCleanable(csr, now)) continue;
      try {
        await ctx.client.delete({ ...CSR_RESOURCE, name: csr.metadata?.name ?? '' });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    return { requeueAfter: CLEANER_POLL_MS };
  };
  queue.add('all');
  await runController({
    name: CSR_CLEANER_CONTROLLER_NAME,
    queue,
    reconcile: pass,
    clock: ctx.clock,
    log: ctx.log,
    metrics: ctx.metrics.controller,
    signal: ctx.signal,
  });
}
