/**
 * From kube-apiserver's audit flags to a running {@link Auditor}: `--audit-log-path` (no path:
 * no audit, as upstream), `--audit-policy-file` (none: {@link DEFAULT_AUDIT_POLICY_YAML},
 * a fleetyard addition: upstream audits nothing without a policy), and the rotation flags.
 * Errors carry upstream's texts (`pkg/audit/policy/reader.go`).
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import type { Clock } from '../../util/clock.js';
import { Auditor } from './auditor.js';
import { DEFAULT_AUDIT_POLICY_YAML } from './default-policy.js';
import { LogBackend } from './log-backend.js';
import { PolicyError, parsePolicy } from './policy.js';
import type { Policy } from './types.js';

export interface AuditFlags {
  /** `--audit-log-path`: a file, or `-` for stdout. */
  readonly logPath?: string;
  /** `--audit-policy-file`. */
  readonly policyFile?: string;
  /** `--audit-log-maxsize` (MB; 0: 100). */
  readonly maxSizeMB?: number;
  /** `--audit-log-maxbackup` (0: all kept). */
  readonly maxBackups?: number;
  /** `--audit-log-maxage` (days; 0: no limit). */
  readonly maxAgeDays?: number;
}

export interface AuditorSetup {
  /** Event timestamps (the cluster's clock, as objects' timestamps). */
  readonly clock?: Clock;
  /** Backup names and ages (wall time by default: files outlive a virtual clock). */
  readonly fileClock?: Clock;
  readonly newId?: () => string;
  readonly onError?: (message: string, err?: unknown) => void;
}

/** Upstream `LoadPolicyFromFile`: read, decode, check; errors name the file. */
export async function loadPolicyFile(path: string): Promise<Policy> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new PolicyError(`failed to read file path "${path}": ${why}`);
  }
  try {
    return parsePolicy(text);
  } catch (err) {
    if (err instanceof PolicyError) throw new PolicyError(`${err.message}: from file ${path}`);
    throw err;
  }
}

/** The auditor the flags ask for, its log open; undefined without `--audit-log-path`. */
export async function openAuditor(
  flags: AuditFlags,
  setup: AuditorSetup = {},
): Promise<Auditor | undefined> {
  if (flags.logPath === undefined || flags.logPath === '') return undefined;
  const policy =
    flags.policyFile !== undefined && flags.policyFile !== ''
      ? await loadPolicyFile(flags.policyFile)
      : parsePolicy(DEFAULT_AUDIT_POLICY_YAML);
  const sink = await LogBackend.open({
    path: flags.logPath,
    ...(flags.maxSizeMB !== undefined ? { maxSizeMB: flags.maxSizeMB } : {}),
    ...(flags.maxBackups !== undefined ? { maxBackups: flags.maxBackups } : {}),
    ...(flags.maxAgeDays !== undefined ? { maxAgeDays: flags.maxAgeDays } : {}),
    ...(setup.fileClock !== undefined ? { clock: setup.fileClock } : {}),
    ...(setup.onError !== undefined ? { onError: setup.onError } : {}),
  });
  return new Auditor({
    policy,
    sink,
    ...(setup.clock !== undefined ? { clock: setup.clock } : {}),
    ...(setup.newId !== undefined ? { newId: setup.newId } : {}),
  });
}
