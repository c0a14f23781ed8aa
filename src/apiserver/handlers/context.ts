/**
 * What a handler works with: the server-wide services and one request's parts.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResourceDefinition } from '../../api/resource.js';
import type { Backend } from '../../storage/backend.js';
import type { Clock } from '../../util/clock.js';
import type { TokenIssuer } from '../access-control.js';
import type { ServedClock } from '../clock-resource.js';
import type { ApiExtensions } from '../extensions.js';
import type { MediaType } from '../http/media.js';
import type { ApiMetrics } from '../metrics.js';
import type { OpenApiService } from '../openapi/index.js';
import type { ResourceRegistry } from '../registry.js';
import type { ResourceRequest } from '../request-info.js';
import type { ExternalAdmission, ObjectStore } from '../store/object-store.js';
import type { ReviewServices } from './reviews.js';

export interface ApiServices {
  readonly registry: ResourceRegistry;
  readonly store: ObjectStore;
  readonly backend: Backend;
  readonly clock: Clock;
  readonly metrics: ApiMetrics;
  /** `/openapi/v3` and `/openapi/v2` documents, built from the registry on demand. */
  readonly openapi: OpenApiService;
  /** Closes every open watch stream when the server shuts down. */
  readonly shutdownSignal: AbortSignal;
  /** Default watch lifetime is random in [this, 2×this) seconds. */
  readonly minRequestTimeoutSeconds: number;
  /**
   * The cluster clock, served as `clocks.sim.fleetyard.dev/cluster` (`../clock-resource.ts`);
   * absent: that resource is not served at all.
   */
  readonly servedClock?: ServedClock;
  /** What serves kinds beyond the built-in ones (CRDs); absent: built-in kinds only. */
  readonly extensions?: ApiExtensions;
  /**
   * Admission that needs the request (its user, dry run) or is asynchronous: RBAC's
   * escalation check, NodeRestriction, admission policies and webhooks. Absent: none.
   */
  readonly admit?: (call: ResourceCall, operation: AdmissionOperation) => ExternalAdmission;
  /** The authenticators and authorizers the access reviews consult; absent: AlwaysAllow. */
  readonly reviews?: ReviewServices;
  /** Issues ServiceAccount tokens (`serviceaccounts/{name}/token`); absent: 404 there. */
  readonly tokens?: TokenIssuer;
}

/** An admission request's operation (upstream `admission.Operation`). */
export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface ResourceCall {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly info: ResourceRequest;
  readonly def: ResourceDefinition;
  readonly query: URLSearchParams;
  readonly accept: readonly MediaType[];
}

/** `dryRun=All` from the query (kubectl sends it on POST/PUT/PATCH). */
export function isDryRun(query: URLSearchParams): boolean {
  return query.getAll('dryRun').includes('All');
}
