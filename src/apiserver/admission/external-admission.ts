/**
 * The admission of one request that needs its user or the network, composed in upstream's
 * plugin order: mutating webhooks (`mutate`); then, on the final object (`validate`), RBAC's
 * escalation check for Roles and bindings (upstream does it in their registry), NodeRestriction,
 * ValidatingAdmissionPolicies, validating webhooks. Warnings the policies and webhooks return go
 * on the response's `Warning` headers as they are known (a refused write carries them too), as
 * upstream's warning recorder does.
 *
 * @module
 */

import type { KubeObject } from '../../api/object.js';
import type { ResourceDefinition } from '../../api/resource.js';
import type { AccessControl } from '../access-control.js';
import type { AccessLookups } from '../access-lookups.js';
import { auditOf } from '../audit/auditor.js';
import { requestIdentity } from '../authentication/request-user.js';
import { ADMIN, type UserInfo } from '../authentication/user.js';
import { checkBindingWrite, checkRoleWrite } from '../authorization/rbac/escalation.js';
import type { AdmissionOperation, ResourceCall } from '../handlers/context.js';
import { isDryRun } from '../handlers/context.js';
import { sendWarnings } from '../handlers/strict-decoding.js';
import type { ExternalAdmission } from '../store/object-store.js';
import { admitNodeRequest } from './node-restriction.js';
import type { ValidatingAdmissionPolicyAdmission } from './policy/admission.js';
import { AdmissionRecord, type WebhookDispatcher } from './webhook/index.js';

export interface ExternalAdmissionDeps {
  readonly access: AccessControl;
  readonly lookups: AccessLookups;
  readonly policies: ValidatingAdmissionPolicyAdmission;
  readonly webhooks: WebhookDispatcher;
}

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** The request's admission, for `ApiServices.admit`. */
export function externalAdmission(
  deps: ExternalAdmissionDeps,
): (call: ResourceCall, operation: AdmissionOperation) => ExternalAdmission {
  return (call, operation) => {
    const user = requestIdentity(call.req)?.user ?? ADMIN;
    const { def, info } = call;
    const scale = info.subresource === 'scale';
    const attrs = {
      operation,
      resource: { group: def.group, version: def.version, resource: def.plural },
      subresource: info.subresource,
      kind: scale
        ? { group: 'autoscaling', version: 'v1', kind: 'Scale' }
        : { group: def.group, version: def.version, kind: def.kind },
      namespace: namespaceOf(def, info.namespace, info.name, operation),
      name: info.name,
      userInfo: user,
      dryRun: isDryRun(call.query),
    };
    const record = new AdmissionRecord();
    const hooks = deps.webhooks.forRequest(attrs, record);
    const policy = deps.policies.forRequest({
      operation,
      kind: attrs.kind,
      resource: attrs.resource,
      subResource: attrs.subresource,
      namespace: attrs.namespace,
      name: attrs.name,
      userInfo: user,
      dryRun: attrs.dryRun,
    });
    const annotate = (): void => {
      const audit = auditOf(call.req);
      for (const [k, v] of Object.entries(policy.auditAnnotations)) audit.annotate(k, v);
      const detailed = audit.level === 'Request' || audit.level === 'RequestResponse';
      for (const a of record.annotations) {
        if (a.level === 'Metadata' || detailed) audit.annotate(a.key, a.value);
      }
    };
    const warn = (): void => {
      const texts = [...policy.warnings, ...record.warnings];
      if (!call.res.headersSent) sendWarnings(call.res, texts);
    };
    return {
      mutate: async (next, current) => {
        try {
          return hooks.mutate === undefined ? next : await hooks.mutate(next, current);
        } finally {
          if (record.warnings.length > 0) warn();
        }
      },
      validate: async (next, current) => {
        try {
          checkRbac(deps, user, def, info.namespace, info.name, next, current);
          const denied = admitNodeRequest(
            {
              user,
              operation,
              group: def.group,
              resource: def.plural,
              subresource: info.subresource,
              namespace: info.namespace,
              name: info.name,
              ...(next !== undefined ? { object: next } : {}),
              ...(current !== undefined ? { oldObject: current } : {}),
            },
            deps.lookups.restriction,
          );
          if (denied !== undefined) throw denied;
          await policy.validate(next, current);
          await hooks.validate?.(next, current);
        } finally {
          warn();
          annotate();
        }
      },
    };
  };
}

/** Upstream's RBAC storage: a Role or binding may grant only what its writer holds. */
function checkRbac(
  deps: ExternalAdmissionDeps,
  user: UserInfo,
  def: ResourceDefinition,
  namespace: string,
  requestName: string,
  next: KubeObject | undefined,
  current: KubeObject | undefined,
): void {
  if (def.group !== RBAC_GROUP || next === undefined) return;
  const { authorizer, rbac } = deps.access;
  const common = { user, authorizer, resolver: rbac, next, current };
  if (def.kind === 'Role' || def.kind === 'ClusterRole') {
    checkRoleWrite({ ...common, kind: def.kind, namespace, requestName });
  } else if (def.kind === 'RoleBinding' || def.kind === 'ClusterRoleBinding') {
    checkBindingWrite({ ...common, roles: rbac, kind: def.kind, namespace });
  }
}

/** A Namespace's own requests are in it (but not its create), as upstream's RequestInfo. */
function namespaceOf(
  def: ResourceDefinition,
  namespace: string,
  name: string,
  operation: AdmissionOperation,
): string {
  const namespaceObject = def.group === '' && def.plural === 'namespaces';
  return namespaceObject && operation !== 'CREATE' ? name : namespace;
}
