/**
 * Kubernetes' CEL authorizer library (upstream `k8s.io/apiserver/pkg/cel/library/authz.go`),
 * which admission policies reach through the `authorizer` variable:
 * `authorizer.group('apps').resource('deployments').namespace('ns').name('x').check('delete')`,
 * `authorizer.path('/healthz').check('get')`, `authorizer.serviceAccount('ns', 'sa')`,
 * `authorizer.requestResource` (the request's own resource), and on the decision
 * `allowed()`, `reason()`, `errored()`, `error()`.
 *
 * The API layer cannot import the API server's authorizer, so the backend is described here by
 * its shape; `src/apiserver/authorization` `Authorizer` fits it.
 *
 * @module
 */
import type { Environment } from '@marcbachmann/cel-js';

/** The user a check is made for (the API server's `UserInfo` fits). */
export interface CelAuthzUser {
  readonly username: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** Upstream `authorizer.Attributes` as the checks fill them. */
export interface CelAuthzAttributes {
  readonly user: CelAuthzUser;
  readonly verb: string;
  readonly resourceRequest: boolean;
  readonly path?: string;
  readonly namespace?: string;
  readonly apiGroup?: string;
  readonly apiVersion?: string;
  readonly resource?: string;
  readonly subresource?: string;
  readonly name?: string;
}

/** What answers a check (the API server's `Authorizer` fits). */
export interface CelAuthzBackend {
  authorize(a: CelAuthzAttributes): {
    readonly decision: string;
    readonly reason: string;
    readonly evaluationError?: string;
  };
}

/** The resource of the request under admission, for `authorizer.requestResource`. */
export interface RequestResourceTarget {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
}

const T_AUTHZ = 'kubernetes.authorization.Authorizer';
const T_PATH = 'kubernetes.authorization.PathCheck';
const T_GROUP = 'kubernetes.authorization.GroupCheck';
const T_RESOURCE = 'kubernetes.authorization.ResourceCheck';
const T_DECISION = 'kubernetes.authorization.Decision';

interface ResourceTarget {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
}

export class CelResourceCheck {
  readonly backend: CelAuthzBackend;
  readonly user: CelAuthzUser;
  readonly target: ResourceTarget;
  constructor(backend: CelAuthzBackend, user: CelAuthzUser, target: ResourceTarget) {
    this.backend = backend;
    this.user = user;
    this.target = target;
  }
  with(change: Partial<ResourceTarget>): CelResourceCheck {
    return new CelResourceCheck(this.backend, this.user, { ...this.target, ...change });
  }
}

/** The `authorizer` variable's value: a backend and the requesting user. */
export class CelAuthorizer {
  readonly requestResource: CelResourceCheck;
  readonly backend: CelAuthzBackend;
  readonly user: CelAuthzUser;
  constructor(backend: CelAuthzBackend, user: CelAuthzUser, request: RequestResourceTarget) {
    this.backend = backend;
    this.user = user;
    this.requestResource = new CelResourceCheck(backend, user, request);
  }
}

export class CelPathCheck {
  readonly backend: CelAuthzBackend;
  readonly user: CelAuthzUser;
  readonly path: string;
  constructor(backend: CelAuthzBackend, user: CelAuthzUser, path: string) {
    this.backend = backend;
    this.user = user;
    this.path = path;
  }
}

export class CelGroupCheck {
  readonly backend: CelAuthzBackend;
  readonly user: CelAuthzUser;
  readonly group: string;
  constructor(backend: CelAuthzBackend, user: CelAuthzUser, group: string) {
    this.backend = backend;
    this.user = user;
    this.group = group;
  }
}

export class CelDecision {
  readonly decision: string;
  readonly reasonText: string;
  readonly errorText: string;
  constructor(decision: string, reasonText: string, errorText: string) {
    this.decision = decision;
    this.reasonText = reasonText;
    this.errorText = errorText;
  }
}

function decide(backend: CelAuthzBackend, a: CelAuthzAttributes): CelDecision {
  try {
    const r = backend.authorize(a);
    return new CelDecision(r.decision, r.reason, r.evaluationError ?? '');
  } catch (err) {
    return new CelDecision('NoOpinion', '', err instanceof Error ? err.message : String(err));
  }
}

function checkResource(c: CelResourceCheck, verb: string): CelDecision {
  const t = c.target;
  // Upstream's resource checks ask for every version (`APIVersion: "*"`) except
  // `requestResource`, which carries the request's version.
  return decide(c.backend, {
    user: c.user,
    verb,
    resourceRequest: true,
    apiGroup: t.group,
    apiVersion: t.version,
    resource: t.resource,
    subresource: t.subresource,
    namespace: t.namespace,
    name: t.name,
  });
}

/** `system:serviceaccount:<ns>:<name>` with its two groups, as upstream `serviceaccount.UserInfo`. */
function serviceAccountUser(namespace: string, name: string): CelAuthzUser {
  return {
    username: `system:serviceaccount:${namespace}:${name}`,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`],
  };
}

/** Declares the library's types and functions in `env`. */
export function registerAuthorizer(env: Environment): void {
  env
    .registerType(T_RESOURCE, CelResourceCheck)
    .registerType(T_AUTHZ, { ctor: CelAuthorizer, fields: { requestResource: T_RESOURCE } })
    .registerType(T_PATH, CelPathCheck)
    .registerType(T_GROUP, CelGroupCheck)
    .registerType(T_DECISION, CelDecision)
    .registerFunction(
      `${T_AUTHZ}.path(string): ${T_PATH}`,
      (a: CelAuthorizer, p: string) => new CelPathCheck(a.backend, a.user, p),
    )
    .registerFunction(
      `${T_AUTHZ}.group(string): ${T_GROUP}`,
      (a: CelAuthorizer, g: string) => new CelGroupCheck(a.backend, a.user, g),
    )
    .registerFunction(
      `${T_AUTHZ}.serviceAccount(string, string): ${T_AUTHZ}`,
      (a: CelAuthorizer, ns: string, name: string) =>
        new CelAuthorizer(a.backend, serviceAccountUser(ns, name), a.requestResource.target),
    )
    .registerFunction(
      `${T_GROUP}.resource(string): ${T_RESOURCE}`,
      (g: CelGroupCheck, r: string) =>
        new CelResourceCheck(g.backend, g.user, {
          group: g.group,
          version: '*',
          resource: r,
          subresource: '',
          namespace: '',
          name: '',
        }),
    )
    .registerFunction(
      `${T_RESOURCE}.subresource(string): ${T_RESOURCE}`,
      (c: CelResourceCheck, s: string) => c.with({ subresource: s }),
    )
    .registerFunction(
      `${T_RESOURCE}.namespace(string): ${T_RESOURCE}`,
      (c: CelResourceCheck, s: string) => c.with({ namespace: s }),
    )
    .registerFunction(
      `${T_RESOURCE}.name(string): ${T_RESOURCE}`,
      (c: CelResourceCheck, s: string) => c.with({ name: s }),
    )
    .registerFunction(`${T_RESOURCE}.check(string): ${T_DECISION}`, checkResource)
    .registerFunction(`${T_PATH}.check(string): ${T_DECISION}`, (p: CelPathCheck, verb: string) =>
      decide(p.backend, { user: p.user, verb, resourceRequest: false, path: p.path }),
    )
    .registerFunction(`${T_DECISION}.allowed(): bool`, (d: CelDecision) => d.decision === 'Allow')
    .registerFunction(`${T_DECISION}.reason(): string`, (d: CelDecision) => d.reasonText)
    .registerFunction(`${T_DECISION}.errored(): bool`, (d: CelDecision) => d.errorText !== '')
    .registerFunction(`${T_DECISION}.error(): string`, (d: CelDecision) => d.errorText);
}
