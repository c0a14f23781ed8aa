/**
 * The `rbac/bootstrap-roles` post-start hook (upstream `pkg/registry/rbac/rest/
 * storage_rbac.go`, `PolicyData.EnsureRBACPolicy`): every bootstrap ClusterRole,
 * ClusterRoleBinding, Role and RoleBinding is created when missing and topped up when it
 * lacks something, never trimmed (see `reconcile-plan.ts`).
 *
 * {@link reconcileBootstrapPolicy} runs against a small {@link PolicyStore}, so it is tested
 * without a server; {@link ensureBootstrapPolicy} wires it to the {@link ObjectStore} as the
 * other post-start hooks write (`../../bootstrap/post-start.ts`): through the store, so
 * validation applies, and reads of the newest stored revision.
 *
 * Writes run concurrently (about 100 objects on a fresh cluster): the SQLite backend batches
 * concurrent writes into one durable commit, so a first start pays one or two fsyncs rather
 * than a hundred. Upstream retries the whole hook for up to 30 s; here a failed object is
 * reported in the result (and through `onError`) and the others still proceed, so the
 * caller decides whether to retry.
 *
 * Differences from upstream: the migrations upstream runs first for clusters from 1.8/1.9
 * (`primeAggregatedClusterRoles`, `primeSplitClusterRoleBindings`) are not needed here (no
 * fleetyard database predates aggregation) and are not done.
 *
 * @module
 */
import { isStatusError } from '../../../api/errors.js';
import type { KubeObject } from '../../../api/object.js';
import type { ResourceRegistry } from '../../registry.js';
import { objectKey } from '../../store/keys.js';
import { parseStoredObject } from '../../store/object-json.js';
import type { ObjectStore } from '../../store/object-store.js';
import { bootstrapPolicy, type PolicyObject } from './policy.js';
import { planReconcile } from './reconcile-plan.js';

export type PolicyKind = 'ClusterRole' | 'ClusterRoleBinding' | 'Role' | 'RoleBinding';

/** The reads and writes the reconciliation needs (namespace is '' for cluster-scoped kinds). */
export interface PolicyStore {
  get(kind: PolicyKind, namespace: string, name: string): Promise<KubeObject | undefined>;
  /** Creates `obj`; throws a 409 StatusError when it exists. */
  create(kind: PolicyKind, namespace: string, obj: KubeObject): Promise<void>;
  /**
   * Read-modify-write: `change` gets the newest object and returns the one to write, or
   * undefined to write nothing; may be called again on a conflict.
   */
  update(
    kind: PolicyKind,
    namespace: string,
    name: string,
    change: (current: KubeObject) => KubeObject | undefined,
  ): Promise<void>;
  delete(kind: PolicyKind, namespace: string, name: string): Promise<void>;
}

export type ReconcileOutcome = 'created' | 'updated' | 'recreated' | 'unchanged' | 'protected';

export interface ReconcileResult {
  /** `Kind namespace/name` (or `Kind name`) → what was done. */
  readonly outcomes: ReadonlyMap<string, ReconcileOutcome>;
  /** `Kind namespace/name` → the error that stopped that object. */
  readonly failures: ReadonlyMap<string, unknown>;
}

export interface ReconcileOptions {
  /** The policy to ensure. @default bootstrapPolicy() */
  readonly objects?: readonly PolicyObject[];
  readonly onError?: (message: string, error: unknown) => void;
}

/** Every object of the bootstrap policy, in upstream's write order. */
export function bootstrapPolicyObjects(): PolicyObject[] {
  const p = bootstrapPolicy();
  return [...p.clusterRoles, ...p.clusterRoleBindings, ...p.roles, ...p.roleBindings];
}

const isConflictOrExists = (e: unknown) => isStatusError(e) && e.code === 409;

async function reconcileOne(store: PolicyStore, expected: PolicyObject): Promise<ReconcileOutcome> {
  const kind = expected.kind as PolicyKind;
  const namespace = expected.metadata?.namespace ?? '';
  const name = expected.metadata?.name ?? '';
  const plan = planReconcile(expected, await store.get(kind, namespace, name));
  switch (plan.action) {
    case 'none':
      return 'unchanged';
    case 'protected':
      return 'protected';
    case 'create':
      try {
        await store.create(kind, namespace, plan.object);
        return 'created';
      } catch (e) {
        // Created meanwhile (another server of the same store): reconcile what is there.
        if (!isConflictOrExists(e)) throw e;
        return reconcileOne(store, expected);
      }
    case 'recreate':
      await store.delete(kind, namespace, name);
      await store.create(kind, namespace, plan.object);
      return 'recreated';
    case 'update': {
      let outcome: ReconcileOutcome = 'unchanged';
      await store.update(kind, namespace, name, (current) => {
        const again = planReconcile(expected, current);
        outcome = again.action === 'update' ? 'updated' : 'unchanged';
        return again.action === 'update' ? again.object : undefined;
      });
      return outcome;
    }
  }
}

/** Ensures every policy object, concurrently; resolves once all are settled. */
export async function reconcileBootstrapPolicy(
  store: PolicyStore,
  options: ReconcileOptions = {},
): Promise<ReconcileResult> {
  const objects = options.objects ?? bootstrapPolicyObjects();
  const outcomes = new Map<string, ReconcileOutcome>();
  const failures = new Map<string, unknown>();
  await Promise.all(
    objects.map(async (o) => {
      const ns = o.metadata?.namespace;
      const id = `${o.kind} ${ns ? `${ns}/` : ''}${o.metadata?.name ?? ''}`;
      try {
        outcomes.set(id, await reconcileOne(store, o));
      } catch (e) {
        failures.set(id, e);
        options.onError?.(`unable to reconcile ${id}`, e);
      }
    }),
  );
  return { outcomes, failures };
}

const PLURALS: Readonly<Record<PolicyKind, string>> = {
  ClusterRole: 'clusterroles',
  ClusterRoleBinding: 'clusterrolebindings',
  Role: 'roles',
  RoleBinding: 'rolebindings',
};

/** A {@link PolicyStore} over the object store (RBAC v1 as the registry serves it). */
export function objectStorePolicyStore(
  store: ObjectStore,
  registry: ResourceRegistry,
): PolicyStore {
  const def = (kind: PolicyKind) => {
    const d = registry.get('rbac.authorization.k8s.io', 'v1', PLURALS[kind]);
    if (d === undefined) throw new Error(`rbac.authorization.k8s.io/v1 ${kind} is not served`);
    return d;
  };
  return {
    get: async (kind, namespace, name) => {
      const kv = store.backend.getLatest(objectKey(def(kind), namespace, name));
      return kv === undefined ? undefined : parseStoredObject(kv.value);
    },
    create: async (kind, namespace, obj) => {
      await store.create(def(kind), namespace, obj);
    },
    update: async (kind, namespace, name, change) => {
      // Returning the current object makes the store's update a no-op (no write).
      await store.update(def(kind), namespace, name, (current) => change(current) ?? current);
    },
    delete: async (kind, namespace, name) => {
      await store.delete(def(kind), namespace, name, {});
    },
  };
}

/**
 * The post-start hook: ensures the bootstrap policy in `store`. Nothing when the registry
 * does not serve RBAC. Failures are reported through `onError` and in the result.
 */
export async function ensureBootstrapPolicy(
  store: ObjectStore,
  registry: ResourceRegistry,
  options: ReconcileOptions = {},
): Promise<ReconcileResult | undefined> {
  if (registry.get('rbac.authorization.k8s.io', 'v1', 'clusterroles') === undefined) {
    return undefined;
  }
  return reconcileBootstrapPolicy(objectStorePolicyStore(store, registry), options);
}
