/**
 * The pieces of the celld operator's least-privilege proof (`test/e2e/operator-rbac.test.ts`)
 * that touch files and processes: an audit policy that records only the operator's requests,
 * reading that log back, the RBAC of `deploy/operator/` as written, what the operator holds
 * from elsewhere (the bootstrap policy), the virtual clock, and the evidence table.
 *
 * @module
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { isJsonObject, type KubeObject } from '../../../src/api/object.js';
import { fleetyardPolicyObjects } from '../../../src/apiserver/authorization/bootstrap-policy/fleetyard-policy.js';
import { bootstrapPolicyObjects } from '../../../src/apiserver/authorization/bootstrap-policy/index.js';
import type { Attributes } from '../../../src/apiserver/authorization/types.js';
import { OPERATOR_USER } from '../../../src/cluster/component-identities.js';
import { FLEETYARD_BIN, REPO_ROOT } from './cluster.js';
import {
  type AuditRecord,
  attributesOf,
  describeRequest,
  lastStages,
  type RuleEvidence,
  refused,
  type ScopedRule,
  unusedGrants,
} from './rbac-necessity.js';

export { OPERATOR_USER };

export const OPERATOR_DEPLOY = join(REPO_ROOT, 'deploy', 'operator');
/** What `fleetyard up` applies for the operator (`src/cluster/up-access.ts`), in this order. */
const RBAC_FILES = ['00-namespace.yaml', 'rbac.yaml'] as const;

/** Every object of `deploy/operator/00-namespace.yaml` and `rbac.yaml`, in file order. */
export function deployObjects(): KubeObject[] {
  const out: KubeObject[] = [];
  for (const file of RBAC_FILES) {
    const text = readFileSync(join(OPERATOR_DEPLOY, file), 'utf8');
    for (const doc of parseAllDocuments(text)) {
      const value: unknown = doc.toJS();
      if (isJsonObject(value)) out.push(value);
    }
  }
  return out;
}

/** The RBAC every cluster has before deploy/ is applied (upstream's and fleetyard's own). */
export function bootstrapObjects(): KubeObject[] {
  return [...bootstrapPolicyObjects(), ...fleetyardPolicyObjects()];
}

/** Upstream's audit Policy: the operator's requests at Metadata, nobody else's. */
export const OPERATOR_AUDIT_POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
# The decision annotation is set after RequestReceived; the later stages carry it.
omitStages: [RequestReceived]
rules:
  - level: Metadata
    users: ["${OPERATOR_USER.username}"]
  - level: None
`;

export interface AuditFiles {
  readonly logPath: string;
  /** `fleetyard up` flags (upstream's names). */
  readonly args: readonly string[];
  cleanup(): void;
}

/** A temp dir with the policy file; the log goes beside it. */
export function auditFiles(): AuditFiles {
  const dir = mkdtempSync(join(tmpdir(), 'fleetyard-operator-rbac-'));
  const policyPath = join(dir, 'policy.yaml');
  const logPath = join(dir, 'audit.log');
  writeFileSync(policyPath, OPERATOR_AUDIT_POLICY);
  return {
    logPath,
    args: ['--audit-log-path', logPath, '--audit-policy-file', policyPath],
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The log's events, whole lines only (the writer may be mid-line). */
export function readAudit(logPath: string): AuditRecord[] {
  if (!existsSync(logPath)) return [];
  const text = readFileSync(logPath, 'utf8');
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  return complete
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as AuditRecord);
}

export interface OperatorRequests {
  /** Every request of the operator, its last recorded stage. */
  readonly all: readonly AuditRecord[];
  readonly refused: readonly AuditRecord[];
  /** The allowed ones, as the authorizer was asked. */
  readonly allowed: readonly Attributes[];
}

export function operatorRequests(events: readonly AuditRecord[]): OperatorRequests {
  const all = lastStages(events.filter((e) => e.user.username === OPERATOR_USER.username));
  return {
    all,
    refused: all.filter(refused),
    allowed: all.filter((e) => !refused(e)).map((e) => attributesOf(e, OPERATOR_USER)),
  };
}

/** `verb group/resource in ns: code (decision)` of a recorded event, for messages. */
export function describeEvent(e: AuditRecord): string {
  const decision = e.annotations?.['authorization.k8s.io/decision'] ?? 'no decision';
  return `${describeRequest(attributesOf(e, OPERATOR_USER))}: ${e.responseStatus?.code} (${decision}) ${e.requestURI}`;
}

/** `fleetyard <args…> --kubeconfig <kc>`; its stdout. */
export async function fleetyard(kubeconfig: string, ...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [FLEETYARD_BIN, ...args, '--kubeconfig', kubeconfig],
    { timeout: 180_000 },
  );
  return stdout;
}

const rulesText = (r: ScopedRule) =>
  `${(r.rule.apiGroups ?? []).map((g) => g || 'core').join(',')} ${(r.rule.resources ?? []).join(',')} [${r.rule.verbs.join(' ')}]`;

/** The per-rule evidence as a Markdown table (printed by the test, quoted in reports). */
export function evidenceTable(
  evidence: readonly RuleEvidence[],
  refusedWithout: ReadonlyMap<string, readonly string[]>,
  requests: readonly Attributes[],
): string {
  const rows = evidence.map((e) => {
    const scope = e.rule.namespace === '' ? 'cluster' : e.rule.namespace;
    const only = e.exclusive.join('; ') || 'NONE';
    const gone = refusedWithout.get(e.rule.id)?.length ?? 0;
    const unused = unusedGrants(e.rule, requests).join(', ') || '-';
    return `| ${e.rule.id} | ${scope} | ${rulesText(e.rule)} | ${e.matched.length} | ${only} | ${gone} | ${unused} |`;
  });
  return [
    '| rule | scope | grants | requests it allows | only it allows | refused without it | never used |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** The ClusterRole of deploy/ with the rules naming `resource` removed (for a live removal). */
export function clusterRoleWithout(resource: string): KubeObject {
  const role = deployObjects().find((o) => o.kind === 'ClusterRole');
  if (role === undefined) throw new Error('deploy/operator/rbac.yaml has no ClusterRole');
  const rules = Array.isArray(role.rules) ? role.rules : [];
  const kept = rules.filter(
    (r: unknown) =>
      !(isJsonObject(r) && Array.isArray(r.resources) && r.resources.includes(resource)),
  );
  if (kept.length === rules.length) throw new Error(`no ClusterRole rule names ${resource}`);
  return { ...role, rules: kept };
}
