/**
 * Shared pieces of the identity and authorization end-to-end suites (issue 18): kubectl 1.33
 * against the file's cluster, raw HTTPS requests with the cluster CA and any (or no) bearer
 * token or impersonation headers (to compare whole 403/401 bodies with upstream's bytes),
 * SubjectAccessReviews posted by the admin (one request per matrix cell, much faster than one
 * `kubectl auth can-i` process each), kubeconfigs for a token or a client certificate, and
 * upstream's Status body written the way kube-apiserver encodes it.
 *
 * RBAC changes reach the authorizer through a watch, so a test that just wrote a binding
 * waits for the SubjectAccessReview to agree ({@link waitForAccess}) before asserting on a
 * real request.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Cluster } from './cluster.js';
import { type Kubectl, kubectl } from './kubectl.js';
import { pollUntil } from './kubectl-fixtures.js';

const clients = new Map<string, Kubectl>();

/**
 * kubectl 1.33 on `kubeconfig` (the admin's by default), one per kubeconfig so that its
 * discovery cache stays warm across calls; fails the test when it is not installed.
 */
export function kubectl133(cluster: Cluster, kubeconfig = cluster.kubeconfig): Kubectl {
  const known = clients.get(kubeconfig);
  if (known !== undefined) return known;
  const k = kubectl('1.33', kubeconfig);
  assert.ok(k, 'kubectl.1.33 is not installed beside the kubectl on the PATH');
  clients.set(kubeconfig, k);
  return k;
}

/**
 * kubectl's last words when the server answers 401: with a warm discovery cache it names the
 * Status message; with a cold one the discovery client's own text.
 */
export function isUnauthorizedExit(stderr: string): boolean {
  const last = stderr.trimEnd().split('\n').at(-1) ?? '';
  return (
    last === 'error: You must be logged in to the server (Unauthorized)' ||
    last ===
      'error: You must be logged in to the server (the server has asked for the client to provide credentials)'
  );
}

export interface RawRequest {
  readonly method?: string;
  readonly path: string;
  /** A bearer token; absent: an anonymous request. */
  readonly token?: string;
  readonly body?: unknown;
  readonly headers?: Record<string, string | string[]>;
}

export interface RawResponse {
  readonly status: number;
  readonly body: string;
  readonly contentType: string | undefined;
}

/** One HTTPS request to the cluster, trusting its CA (no User-Agent: no pretty printing). */
export function rawRequest(cluster: Cluster, r: RawRequest): Promise<RawResponse> {
  const url = new URL(r.path, cluster.url);
  const payload = r.body === undefined ? undefined : JSON.stringify(r.body);
  const headers: Record<string, string | string[]> = {
    Accept: 'application/json',
    ...(payload !== undefined ? { 'Content-Type': 'application/json' } : {}),
    ...r.headers,
  };
  if (r.token !== undefined) headers.Authorization = `Bearer ${r.token}`;
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      { method: r.method ?? 'GET', ca: cluster.ca, headers, timeout: 30_000 },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body, contentType: res.headers['content-type'] }),
        );
      },
    );
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error(`timeout: ${r.method ?? 'GET'} ${r.path}`)));
    req.end(payload);
  });
}

/** The admin's request. */
export function adminRequest(cluster: Cluster, r: Omit<RawRequest, 'token'>): Promise<RawResponse> {
  return rawRequest(cluster, { ...r, token: cluster.token });
}

/** `Impersonate-User` (and groups) headers, as `kubectl --as --as-group` sends them. */
export function impersonating(user: string, groups: readonly string[] = []): RawRequest['headers'] {
  return groups.length === 0
    ? { 'Impersonate-User': user }
    : { 'Impersonate-User': user, 'Impersonate-Group': [...groups] };
}

/**
 * kube-apiserver's failure Status as it writes it (Go's json encoding of `metav1.Status`:
 * fields in struct order, empty ones left out, a trailing newline from `json.Encoder`).
 */
export function statusBody(
  code: number,
  reason: string,
  message: string,
  details?: { name?: string; group?: string; kind?: string },
): string {
  const d = details ?? {};
  const ordered = {
    ...(d.name !== undefined ? { name: d.name } : {}),
    ...(d.group !== undefined ? { group: d.group } : {}),
    ...(d.kind !== undefined ? { kind: d.kind } : {}),
  };
  const status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(Object.keys(ordered).length > 0 ? { details: ordered } : {}),
    code,
  };
  return `${JSON.stringify(status)}\n`;
}

/** `spec.resourceAttributes` of a SubjectAccessReview. */
export interface ResourceAttributes {
  readonly verb: string;
  readonly group?: string;
  readonly resource: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
}

export interface Subject {
  readonly user: string;
  readonly groups?: readonly string[];
}

/** The full answer of one SubjectAccessReview posted by the admin. */
export async function subjectAccessReview(
  cluster: Cluster,
  subject: Subject,
  attributes: ResourceAttributes,
): Promise<{ allowed: boolean; denied?: boolean; reason?: string }> {
  const res = await adminRequest(cluster, {
    method: 'POST',
    path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: {
        user: subject.user,
        groups: [...(subject.groups ?? []), 'system:authenticated'],
        resourceAttributes: attributes,
      },
    },
  });
  assert.equal(res.status, 201, `SubjectAccessReview answered ${res.status}: ${res.body}`);
  const review = JSON.parse(res.body) as {
    status?: { allowed?: boolean; denied?: boolean; reason?: string };
  };
  return { allowed: review.status?.allowed === true, ...review.status };
}

/** Waits until the authorizer answers `allowed` for the subject (RBAC follows a watch). */
export async function waitForAccess(
  cluster: Cluster,
  subject: Subject,
  attributes: ResourceAttributes,
  allowed = true,
): Promise<void> {
  await pollUntil(
    `${subject.user} ${allowed ? 'may' : 'may not'} ${attributes.verb} ${attributes.resource}`,
    async () =>
      (await subjectAccessReview(cluster, subject, attributes)).allowed === allowed
        ? true
        : undefined,
  );
}

/** A new temp dir for a test's files (keys, certificates, kubeconfigs). */
export function workDir(prefix = 'fleetyard-auth-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A kubeconfig for `cluster` whose user holds either a token or a client certificate. */
export function writeKubeconfig(
  cluster: Cluster,
  dir: string,
  user: { readonly token: string } | { readonly certPem: string; readonly keyPem: string },
): string {
  const b64 = (s: string): string => Buffer.from(s).toString('base64');
  const credentials =
    'token' in user
      ? `      token: ${user.token}\n`
      : `      client-certificate-data: ${b64(user.certPem)}\n      client-key-data: ${b64(user.keyPem)}\n`;
  const text =
    'apiVersion: v1\nkind: Config\nclusters:\n  - name: c\n    cluster:\n' +
    `      server: ${cluster.url}\n      certificate-authority-data: ${b64(cluster.ca)}\n` +
    `users:\n  - name: u\n    user:\n${credentials}` +
    'contexts:\n  - name: c\n    context:\n      cluster: c\n      user: u\n      namespace: default\n' +
    'current-context: c\n';
  const path = join(dir, `kubeconfig-${Math.random().toString(36).slice(2)}`);
  writeFileSync(path, text, { mode: 0o600 });
  return path;
}

/** `Error from server (Forbidden): <message>` lines kubectl prints for a 403. */
export function forbiddenLine(message: string): string {
  return `Error from server (Forbidden): ${message}`;
}
