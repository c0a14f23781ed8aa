/**
 * Identities and authorization for `fleetyard up` (issue 18): the ServiceAccount signing key
 * (`pki/sa.key`, mode 0600, made at first start), client certificates signed by the cluster CA
 * accepted as users (CN user, O groups), the embedded components' own credentials, and the
 * celld operator's RBAC applied from `deploy/operator/` exactly as a user would apply it, so the
 * operator inside `up` runs with the permissions it ships with.
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { isJsonObject, type KubeObject } from '../api/object.js';
import { clientCertificateAuthenticator } from '../apiserver/authentication/client-cert.js';
import { loadOrCreateServiceAccountKey } from '../apiserver/authentication/serviceaccount/index.js';
import type { ApiServer } from '../apiserver/server.js';
import type { AccessOptions } from '../apiserver/server-options.js';
import { ApiClient, isAlreadyExists } from '../client/api-client.js';
import type { Clock } from '../util/clock.js';
import { componentUsers } from './component-identities.js';

/** The access options of the API server `up` starts. */
export async function upAccess(
  pkiDir: string,
  caPem: string,
  clock: Clock,
): Promise<AccessOptions> {
  const [key, clientCertificate] = await Promise.all([
    loadOrCreateServiceAccountKey(pkiDir),
    clientCertificateAuthenticator([caPem], clock),
  ]);
  return { serviceAccounts: { key }, clientCertificate };
}

/** Tokens by username for every component the controller thread runs. */
export function componentCredentials(
  server: ApiServer,
  nodeNames: readonly string[],
): Record<string, string> {
  const access = server.access;
  if (access === undefined) return {};
  const out: Record<string, string> = {};
  for (const user of componentUsers(nodeNames)) {
    out[user.username] = access.componentTokens.tokenFor(user);
  }
  return out;
}

/** `deploy/operator/<file>` of this package, from the sources or the bundle. */
function deployFile(file: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'deploy', 'operator', file);
    if (existsSync(candidate)) return candidate;
    dir = resolve(dir, '..');
  }
  throw new Error(`deploy/operator/${file} not found beside the fleetyard package`);
}

/** The objects of `deploy/operator/00-namespace.yaml` and `rbac.yaml`, in file order. */
export function operatorRbacObjects(): KubeObject[] {
  const objects: KubeObject[] = [];
  for (const file of ['00-namespace.yaml', 'rbac.yaml']) {
    for (const doc of parseAllDocuments(readFileSync(deployFile(file), 'utf8'))) {
      const value: unknown = doc.toJS();
      if (isJsonObject(value)) objects.push(value);
    }
  }
  return objects;
}

const RESOURCE_OF: Readonly<Record<string, { group: string; version: string; plural: string }>> = {
  Namespace: { group: '', version: 'v1', plural: 'namespaces' },
  ServiceAccount: { group: '', version: 'v1', plural: 'serviceaccounts' },
  ClusterRole: { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'clusterroles' },
  ClusterRoleBinding: {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    plural: 'clusterrolebindings',
  },
  Role: { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'roles' },
  RoleBinding: { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'rolebindings' },
};

/**
 * Applies the operator's namespace and RBAC as the admin, creating what is missing and leaving
 * what exists (a user who edited them keeps their edits across restarts).
 */
export async function installOperatorRbac(url: string, ca: string, token: string): Promise<void> {
  const client = new ApiClient({ server: url, ca, token, userAgent: 'fleetyard-up' });
  try {
    // In file order: the namespace before what lives in it.
    for (const obj of operatorRbacObjects()) {
      const type = RESOURCE_OF[obj.kind ?? ''];
      if (type === undefined) throw new Error(`deploy/operator: unexpected kind ${obj.kind}`);
      const namespace = obj.metadata?.namespace ?? '';
      try {
        await client.create({ ...type, ...(namespace !== '' ? { namespace } : {}) }, obj);
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
      }
    }
  } finally {
    client.close();
  }
}
