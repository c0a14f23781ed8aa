/**
 * The API server's access control, assembled (`access-control.ts` holds the mechanism): the
 * node authorizer over the store's pods and claims, ServiceAccount tokens checked against the
 * stored ServiceAccounts, and upstream's bootstrap RBAC policy (plus the simulated CSI
 * drivers' role) reconciled before anything else is served, as kube-apiserver's
 * `rbac/bootstrap-roles` post-start hook does.
 *
 * @module
 */
import type { Backend } from '../storage/backend.js';
import type { Clock } from '../util/clock.js';
import { AccessControl } from './access-control.js';
import { accessLookups } from './access-lookups.js';
import { externalAdmission } from './admission/external-admission.js';
import { NodeAuthorizer } from './admission/node-authorizer.js';
import { ValidatingAdmissionPolicyAdmission } from './admission/policy/admission.js';
import { WebhookDispatcher } from './admission/webhook/index.js';
import { policyStoreReader, webhookLookup } from './admission-readers.js';
import { fleetyardPolicyObjects } from './authorization/bootstrap-policy/fleetyard-policy.js';
import {
  bootstrapPolicyObjects,
  ensureBootstrapPolicy,
} from './authorization/bootstrap-policy/reconcile.js';
import type { ResourceRegistry } from './registry.js';
import type { AccessOptions } from './server-options.js';
import type { ObjectStore } from './store/object-store.js';

export interface ServerAccessInputs {
  readonly access: AccessOptions | undefined;
  readonly token: string | undefined;
  readonly loopbackToken: string;
  readonly registry: ResourceRegistry;
  readonly backend: Backend;
  readonly clock: Clock;
}

export interface ServerAccess {
  readonly control: AccessControl;
  /** Per-request admission: escalation, NodeRestriction, policies and webhooks. */
  readonly admit: ReturnType<typeof externalAdmission>;
}

/** The server's access control, or undefined when the options do not ask for it. */
export function serverAccess(i: ServerAccessInputs): ServerAccess | undefined {
  if (i.access === undefined) return undefined;
  if (i.token === undefined) throw new Error('access control needs the admin token');
  const lookups = accessLookups(i.registry, i.backend);
  const control = new AccessControl({
    ...i.access,
    backend: i.backend,
    adminToken: i.token,
    loopbackToken: i.loopbackToken,
    lookup: lookups.objects,
    authorizers: [new NodeAuthorizer(lookups.node), ...(i.access.authorizers ?? [])],
    clock: i.clock,
  });
  const admit = externalAdmission({
    access: control,
    lookups,
    policies: new ValidatingAdmissionPolicyAdmission({
      store: policyStoreReader(i.registry, i.backend),
      authorizer: control.authorizer,
    }),
    // Webhook timeouts stay on the wall clock: a virtual clock's jump must not time calls out.
    webhooks: new WebhookDispatcher({
      lookup: webhookLookup(i.registry, i.backend),
      authorizer: control.authorizer,
    }),
  });
  return { control, admit };
}

/** Reconciles the bootstrap policy; reports each object it could not write. */
export async function ensureAccessPolicy(
  store: ObjectStore,
  registry: ResourceRegistry,
  onError: ((message: string, error: unknown) => void) | undefined,
): Promise<void> {
  const result = await ensureBootstrapPolicy(store, registry, {
    objects: [...bootstrapPolicyObjects(), ...fleetyardPolicyObjects()],
    ...(onError ? { onError } : {}),
  });
  for (const [object, error] of result?.failures ?? []) {
    onError?.(`bootstrap policy: ${object} not reconciled`, error);
  }
}
