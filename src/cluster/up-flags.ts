/**
 * `fleetyard up`'s flags as {@link UpOptions}: parsed and checked (a bad value is an
 * {@link UpFlagError}, exit 2, with kube's wording where kube has one). The command
 * (`src/cli/up-command.ts`) and the test harness (`fleetyard/testing`) start clusters from the
 * same flags. The flags, their defaults and their help are the table in up-flag-table.ts.
 *
 * @module
 */

import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { AuditFlags } from '../apiserver/audit/setup.js';
import {
  type FeatureGates,
  parseFeatureGates,
  statefulSetFeatures,
} from '../apiserver/feature-gates.js';
import { MIN_MEMBER_REPLACEMENT_DELAY_MS } from '../operator/healing/types.js';
import { parseAdvertiseAddress, parseTlsSans } from '../security/serving-names.js';
import { parseGoDuration } from '../sim/kubelet/annotations.js';
import { MAX_SIMULATED_NODES } from '../sim/kubelet/node-config.js';
import type { DefaultStorageClass } from '../sim/storage/index.js';
import { createLogger, type LogFormat, type LogLevel } from '../util/log.js';
import { parseClockFlags } from './clock-flags.js';
import type { ClusterShape } from './cluster-controllers.js';
import { goDurationText, isOneOf, orList } from './flag-table.js';
import type { UpOptions } from './up.js';
import { UP_FLAGS } from './up-flag-table.js';
import { DASHBOARD_SWITCH, LOG_FORMATS, LOG_LEVELS, STORAGE_CLASSES } from './up-flag-values.js';

/** A flag value `fleetyard up` refuses: printed as `fleetyard: <message>`, exit 2. */
export class UpFlagError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UpFlagError';
  }
}

/** `--nodes` at most (`fleetyard controllers` takes as many). */
/** A zone name: an RFC 1123 label (it becomes part of the `local-<zone>` label value). */
const ZONE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** The simulated cluster's shape when no flag says otherwise: the table's defaults, parsed. */
export const UP_CLUSTER_DEFAULTS: Pick<ClusterShape, 'nodes' | 'zones' | 'defaultStorageClass'> = {
  nodes: nodesOf(UP_FLAGS.nodes.default),
  zones: zonesOf(UP_FLAGS.zones.default),
  defaultStorageClass: storageClassOf(UP_FLAGS['default-storage-class'].default),
};

/**
 * What the arguments cannot say and the command decides (src/cli/up-command.ts looks at its
 * terminal): the table only parses.
 */
export interface UpArgsContext {
  /** `--log-format` when it is not given: `text` for a terminal. @default 'json' */
  readonly defaultLogFormat?: LogFormat;
}

/** {@link UpOptions} and what only the command uses. */
export type ParsedUpOptions = UpOptions & {
  /** The format of `logger` (the command passes it on to the controller thread). */
  readonly logFormat: LogFormat;
};

/**
 * `fleetyard up`'s flags as {@link UpOptions}; throws {@link UpFlagError} for a bad value (the
 * test harness starts clusters from the same flags). The checks run in the flags' order of
 * old, so a command line with two bad values keeps naming the same one.
 */
export function parseUpArgs(rest: readonly string[], context: UpArgsContext = {}): ParsedUpOptions {
  const { values } = parseArgs({ args: [...rest], options: UP_FLAGS, strict: true });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UpFlagError(`invalid --port ${values.port}`);
  }
  const listener = listenerFlags(values['tls-san'] ?? [], values['advertise-address']);
  const clockFlags = parseClockFlags(values);
  if (typeof clockFlags === 'string') throw new UpFlagError(clockFlags);
  const historyLimit = optionalPositiveInt(values['history-limit'], '--history-limit');
  const minRequestTimeout = optionalPositiveInt(
    values['min-request-timeout'],
    '--min-request-timeout',
  );
  const eventTtl = optionalDuration(values['event-ttl'], '--event-ttl');
  const nodes = nodesOf(values.nodes);
  const zones = zonesOf(values.zones);
  const nodeTiming = nodeTimingFlags(values);
  const notReady = optionalNonNegativeInt(
    values['default-not-ready-toleration-seconds'],
    '--default-not-ready-toleration-seconds',
  );
  const unreachable = optionalNonNegativeInt(
    values['default-unreachable-toleration-seconds'],
    '--default-unreachable-toleration-seconds',
  );
  const replacementDelay = memberReplacementDelay(values['member-replacement-delay']);
  const audit = auditFlags(values);
  const inFlight = inFlightFlags(
    values['max-requests-inflight'],
    values['max-mutating-requests-inflight'],
  );
  const defaultStorageClass = storageClassOf(values['default-storage-class']);
  const featureGates = featureGatesOf(values['feature-gates']);
  const logLevel = logLevelOf(values['log-level']);
  const logFormat = logFormatOf(values['log-format'] ?? context.defaultLogFormat ?? 'json');
  const logger = createLogger(logLevel, undefined, undefined, { format: logFormat });
  const dashboard = dashboardOf(values.dashboard);
  return {
    dataDir: resolve(values['data-dir']),
    ephemeral: values.ephemeral,
    ...(audit !== undefined ? { audit } : {}),
    ...(values['encryption-provider-config'] !== undefined
      ? { encryptionProviderConfig: resolve(values['encryption-provider-config']) }
      : {}),
    host: values.host,
    port,
    ...listener,
    logger,
    logLevel,
    logFormat,
    ...(historyLimit !== undefined ? { historyLimit } : {}),
    ...(minRequestTimeout !== undefined ? { minRequestTimeoutSeconds: minRequestTimeout } : {}),
    ...(eventTtl !== undefined ? { eventTtlMs: eventTtl } : {}),
    // --nodes 0 is a cluster without simulated nodes (the kubelet controller off).
    controllers: nodes === 0 ? `${values.controllers},-kubelet` : values.controllers,
    cluster: {
      nodes: Math.max(nodes, 1),
      zones,
      ...nodeTiming,
      ...(replacementDelay !== undefined ? { memberReplacementDelayMs: replacementDelay } : {}),
      defaultStorageClass,
      gates: statefulSetFeatures(featureGates),
    },
    featureGates,
    ...(notReady !== undefined ? { defaultNotReadyTolerationSeconds: notReady } : {}),
    ...(unreachable !== undefined ? { defaultUnreachableTolerationSeconds: unreachable } : {}),
    ...inFlight,
    ...clockFlags,
    ...(dashboard ? {} : { dashboard: false }),
  };
}

function nodesOf(text: string): number {
  const nodes = Number(text);
  if (!Number.isInteger(nodes) || nodes < 0 || nodes > MAX_SIMULATED_NODES) {
    throw new UpFlagError(`invalid --nodes ${text}: want 0 to ${MAX_SIMULATED_NODES}`);
  }
  return nodes;
}

function zonesOf(text: string): string[] {
  const zones = text.split(',').map((z) => z.trim());
  if (zones.some((z) => !ZONE.test(z))) throw new UpFlagError(`invalid --zones ${text}`);
  return zones;
}

function storageClassOf(text: string): DefaultStorageClass {
  if (isOneOf(STORAGE_CLASSES, text)) return text;
  throw new UpFlagError(`invalid --default-storage-class ${text}: want ${orList(STORAGE_CLASSES)}`);
}

function featureGatesOf(text: string): FeatureGates {
  try {
    return parseFeatureGates(text);
  } catch (err) {
    // kube-apiserver's (pflag's) wording.
    const why = err instanceof Error ? err.message : String(err);
    throw new UpFlagError(`invalid argument "${text}" for "--feature-gates" flag: ${why}`);
  }
}

/**
 * `--log-level`'s value; an unknown one is refused in pino's words (a plain Error, exit 1),
 * as when the value went to pino unchecked.
 */
export function logLevelOf(text: string): LogLevel {
  if (isOneOf(LOG_LEVELS, text)) return text;
  throw new Error(`default level:${text} must be included in custom levels`);
}

function dashboardOf(text: string): boolean {
  if (isOneOf(DASHBOARD_SWITCH, text)) return text === 'true';
  throw new UpFlagError(`invalid --dashboard ${text}: want ${orList(DASHBOARD_SWITCH)}`);
}

function logFormatOf(text: string): LogFormat {
  if (isOneOf(LOG_FORMATS, text)) return text;
  throw new UpFlagError(`invalid --log-format ${text}: want ${orList(LOG_FORMATS)}`);
}

/** `--node-lease-duration-seconds`, then `--node-monitor-grace-period`, as the shape has them. */
function nodeTimingFlags(values: {
  readonly 'node-lease-duration-seconds'?: string | undefined;
  readonly 'node-monitor-grace-period'?: string | undefined;
}): Pick<ClusterShape, 'nodeLeaseDurationSeconds' | 'nodeMonitorGracePeriodMs'> {
  const leaseSeconds = optionalPositiveInt(
    values['node-lease-duration-seconds'],
    '--node-lease-duration-seconds',
  );
  const grace = optionalDuration(
    values['node-monitor-grace-period'],
    '--node-monitor-grace-period',
  );
  return {
    ...(grace !== undefined ? { nodeMonitorGracePeriodMs: grace } : {}),
    ...(leaseSeconds !== undefined ? { nodeLeaseDurationSeconds: leaseSeconds } : {}),
  };
}

/** `--member-replacement-delay` in ms: a Go duration of at least the operator's minimum. */
function memberReplacementDelay(text: string | undefined): number | undefined {
  const ms = optionalDuration(text, '--member-replacement-delay');
  if (ms !== undefined && ms < MIN_MEMBER_REPLACEMENT_DELAY_MS) {
    throw new UpFlagError(
      `invalid --member-replacement-delay ${text}: must be at least ${goDurationText(MIN_MEMBER_REPLACEMENT_DELAY_MS)}`,
    );
  }
  return ms;
}

/**
 * `--tls-san` (repeated and/or comma-separated, as k3s) and `--advertise-address`, checked;
 * throws {@link UpFlagError} when one is invalid.
 */
function listenerFlags(
  tlsSan: readonly string[],
  advertise: string | undefined,
): Pick<UpOptions, 'tlsSans' | 'advertiseAddress'> {
  try {
    return {
      tlsSans: parseTlsSans(tlsSan),
      ...(advertise !== undefined ? { advertiseAddress: parseAdvertiseAddress(advertise) } : {}),
    };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new UpFlagError(why.replace(/^invalid host/, 'invalid --tls-san'));
  }
}

function optionalPositiveInt(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`invalid ${flag} ${text}: want a positive integer`);
  return n;
}

/** A Go duration (`50s`, `1m30s`, `500ms`) in ms. */
function optionalDuration(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const ms = parseGoDuration(text);
  if (ms === undefined || ms <= 0)
    throw new Error(`invalid ${flag} ${text}: want a duration like 40s`);
  return ms;
}

/** `--max-requests-inflight` and `--max-mutating-requests-inflight`: kube-apiserver's flags (0: off). */
function inFlightFlags(
  readOnly: string | undefined,
  mutating: string | undefined,
): Pick<UpOptions, 'maxRequestsInFlight' | 'maxMutatingRequestsInFlight'> {
  const r = optionalNonNegativeInt(readOnly, '--max-requests-inflight');
  const m = optionalNonNegativeInt(mutating, '--max-mutating-requests-inflight');
  return {
    ...(r !== undefined ? { maxRequestsInFlight: r } : {}),
    ...(m !== undefined ? { maxMutatingRequestsInFlight: m } : {}),
  };
}

/** `--audit-*`, with kube-apiserver's names; undefined without `--audit-log-path`. */
function auditFlags(values: {
  readonly 'audit-log-path'?: string | undefined;
  readonly 'audit-policy-file'?: string | undefined;
  readonly 'audit-log-maxsize'?: string | undefined;
  readonly 'audit-log-maxbackup'?: string | undefined;
  readonly 'audit-log-maxage'?: string | undefined;
}): AuditFlags | undefined {
  const path = values['audit-log-path'];
  if (path === undefined || path === '') return undefined;
  const size = optionalNonNegativeInt(values['audit-log-maxsize'], '--audit-log-maxsize');
  const backups = optionalNonNegativeInt(values['audit-log-maxbackup'], '--audit-log-maxbackup');
  const age = optionalNonNegativeInt(values['audit-log-maxage'], '--audit-log-maxage');
  const policy = values['audit-policy-file'];
  return {
    logPath: path === '-' ? '-' : resolve(path),
    ...(policy !== undefined ? { policyFile: resolve(policy) } : {}),
    ...(size !== undefined ? { maxSizeMB: size } : {}),
    ...(backups !== undefined ? { maxBackups: backups } : {}),
    ...(age !== undefined ? { maxAgeDays: age } : {}),
  };
}

function optionalNonNegativeInt(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`invalid ${flag} ${text}: want a non-negative integer`);
  return n;
}
