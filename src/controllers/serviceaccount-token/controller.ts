/**
 * The tokens controller of kube-controller-manager (upstream
 * `pkg/controller/serviceaccount/tokens_controller.go`, `serviceaccount-token-controller`):
 * fills `kubernetes.io/service-account-token` Secrets with a legacy token, the cluster CA and
 * the namespace, deletes those whose ServiceAccount is gone (or was recreated with another
 * uid), and drops a deleted token Secret from its ServiceAccount's `secrets`.
 *
 * Like upstream since 1.24 it never creates token Secrets itself: a user creates one with the
 * name annotation, and this fills it.
 *
 * Signing: this layer may not import the API server's code, so the controller takes a
 * {@link TokenGenerator}; `fleetyard up` passes one that reads the API server's signing key
 * file (kube-controller-manager's `--service-account-private-key-file`). A generator that
 * fails (the key not there yet) fails the reconcile, which is retried with backoff.
 *
 * One queue with three kinds of key: `secret/<ns>/<name>` (sync a token Secret),
 * `sa/<ns>/<name>` (a deleted ServiceAccount: queue its token Secrets), and
 * `ref/<ns>/<account>/<secret>` (a deleted token Secret: drop the reference).
 *
 * @module
 */
import { asKind, type Secret, type ServiceAccount } from '../../api/model/index.js';
import { isConflict, isNotFound } from '../../client/api-client.js';
import { deletedObject } from '../../client/shared-informer.js';
import {
  type ControllerContext,
  type ControllerDefinition,
  RESOURCES,
} from '../../controller/context.js';
import { type ReconcileResult, runController } from '../../controller/controller.js';
import { type KindInformer, kindInformer } from '../../controller/kind-informer.js';
import { WorkQueue } from '../../controller/workqueue.js';
import { SERVICE_ACCOUNTS_RESOURCE } from '../serviceaccount/controller.js';
import {
  filledTokenSecret,
  isServiceAccountTokenSecret,
  isTokenOf,
  planTokenSecret,
  referencedServiceAccount,
  tokenSecretNeeds,
  withoutSecretReference,
} from './plan.js';

/** Upstream's name (`--controllers`; its alias there is `serviceaccount-token`). */
export const SERVICE_ACCOUNT_TOKEN_CONTROLLER_NAME = 'serviceaccount-token-controller';

/** Signs the legacy token of Secret `secretName` for a ServiceAccount (name and uid). */
export type TokenGenerator = (
  namespace: string,
  serviceAccount: { readonly name: string; readonly uid: string },
  secretName: string,
) => Promise<string>;

export interface ServiceAccountTokensOptions {
  readonly generateToken: TokenGenerator;
  /** The CA bundle for `ca.crt` (`--root-ca-file`); else the manager connection's CA. */
  readonly rootCA?: string;
}

/** The tokens controller, for the controller manager. */
export function serviceAccountTokensController(
  options: ServiceAccountTokensOptions,
): ControllerDefinition {
  return { name: SERVICE_ACCOUNT_TOKEN_CONTROLLER_NAME, start: (ctx) => run(ctx, options) };
}

interface Caches {
  readonly secrets: KindInformer<'Secret'>;
  readonly accounts: KindInformer<'ServiceAccount'>;
}

async function run(ctx: ControllerContext, options: ServiceAccountTokensOptions): Promise<void> {
  const caches: Caches = {
    secrets: kindInformer(ctx.informers.informer(RESOURCES.secrets), 'Secret'),
    accounts: kindInformer(ctx.informers.informer(SERVICE_ACCOUNTS_RESOURCE), 'ServiceAccount'),
  };
  const queue = new WorkQueue<string>({
    clock: ctx.clock,
    name: 'serviceaccount_tokens_secret',
    metrics: ctx.metrics.queue,
  });
  const onSecret = (s: Secret) => {
    if (isServiceAccountTokenSecret(s)) queue.add(`secret/${nsOf(s)}/${s.metadata?.name ?? ''}`);
  };
  caches.secrets.addEventHandler({
    onAdd: onSecret,
    onUpdate: (_, cur) => onSecret(cur),
    onDelete: (d) => {
      const s = deletedObject(d);
      if (!isServiceAccountTokenSecret(s)) return;
      const account = referencedServiceAccount(s).name;
      queue.add(`ref/${nsOf(s)}/${account}/${s.metadata?.name ?? ''}`);
    },
  });
  caches.accounts.addEventHandler({
    onDelete: (d) => {
      const sa = deletedObject(d);
      queue.add(`sa/${nsOf(sa)}/${sa.metadata?.name ?? ''}`);
    },
  });
  const informers = [caches.secrets.informer, caches.accounts.informer];
  if (!(await ctx.informers.waitForSync(informers, ctx.signal))) return;
  const rootCA = options.rootCA ?? ctx.rootCA ?? '';
  const reconcile = async (key: string): Promise<ReconcileResult> => {
    const [kind, ns = '', name = '', extra = ''] = key.split('/');
    if (kind === 'secret') return syncSecret(ctx, caches, options, rootCA, ns, name);
    if (kind === 'ref') return removeReference(ctx, caches, ns, name, extra);
    // A deleted ServiceAccount: each of its token Secrets finds it gone and is deleted.
    for (const s of caches.secrets.lister.listInNamespace(ns)) {
      const account = referencedServiceAccount(s);
      if (isServiceAccountTokenSecret(s) && account.name === name) onSecret(s);
    }
    return {};
  };
  await runController({
    name: SERVICE_ACCOUNT_TOKEN_CONTROLLER_NAME,
    queue,
    reconcile,
    clock: ctx.clock,
    log: ctx.log,
    metrics: ctx.metrics.controller,
    signal: ctx.signal,
  });
}

/** Upstream `syncSecret`. */
async function syncSecret(
  ctx: ControllerContext,
  caches: Caches,
  options: ServiceAccountTokensOptions,
  rootCA: string,
  ns: string,
  name: string,
): Promise<ReconcileResult> {
  const cached = caches.secrets.lister.get(ns, name);
  if (!isServiceAccountTokenSecret(cached)) return {};
  const sa = await serviceAccountOf(ctx, caches, cached);
  const plan = planTokenSecret(cached, sa, rootCA);
  const ref = { ...RESOURCES.secrets, namespace: ns, name };
  if (plan.action === 'delete') {
    try {
      await ctx.client.delete(ref, { preconditions: { uid: plan.uid } });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    return {};
  }
  if (plan.action === 'none' || sa === undefined) return {};
  // Fill a fresh copy, never the cache's; a newer one than the cache is retried later.
  const live = asKind(await ctx.client.get(ref), 'Secret');
  if (live.metadata?.resourceVersion !== cached.metadata?.resourceVersion) return { requeue: true };
  const needs = tokenSecretNeeds(live, rootCA);
  if (!needs.ca && !needs.namespace && !needs.token) return {};
  const token = needs.token
    ? await options.generateToken(
        ns,
        { name: sa.metadata?.name ?? '', uid: sa.metadata?.uid ?? '' },
        name,
      )
    : undefined;
  try {
    await ctx.client.update(ref, filledTokenSecret(live, sa, needs, rootCA, token));
  } catch (err) {
    if (isConflict(err) || isNotFound(err)) return { requeue: true };
    throw err;
  }
  return {};
}

/**
 * The ServiceAccount a token Secret names when it has the annotated uid, read live on a cache
 * miss (upstream `getServiceAccount(..., fetchOnCacheMiss)`: a just-created account must not
 * get its tokens deleted); undefined when there is none.
 */
async function serviceAccountOf(
  ctx: ControllerContext,
  caches: Caches,
  secret: Secret,
): Promise<ServiceAccount | undefined> {
  const { name } = referencedServiceAccount(secret);
  const ns = nsOf(secret);
  const cached = caches.accounts.lister.get(ns, name);
  if (cached !== undefined && isTokenOf(secret, cached)) return cached;
  try {
    const live = asKind(
      await ctx.client.get({ ...SERVICE_ACCOUNTS_RESOURCE, namespace: ns, name }),
      'ServiceAccount',
    );
    return isTokenOf(secret, live) ? live : undefined;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** Upstream `removeSecretReference`, for a ServiceAccount that still exists. */
async function removeReference(
  ctx: ControllerContext,
  caches: Caches,
  ns: string,
  account: string,
  secretName: string,
): Promise<ReconcileResult> {
  if (caches.accounts.lister.get(ns, account) === undefined) return {};
  const ref = { ...SERVICE_ACCOUNTS_RESOURCE, namespace: ns, name: account };
  try {
    const live = asKind(await ctx.client.get(ref), 'ServiceAccount');
    const next = withoutSecretReference(live, secretName);
    if (next !== undefined) await ctx.client.update(ref, next);
  } catch (err) {
    if (isNotFound(err)) return {};
    if (isConflict(err)) return { requeue: true };
    throw err;
  }
  return {};
}

function nsOf(obj: { readonly metadata?: { readonly namespace?: string } }): string {
  return obj.metadata?.namespace ?? '';
}
