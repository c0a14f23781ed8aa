/**
 * `fleetyard up`'s command line: flags parsed and checked (a bad value exits 2 with kube's
 * wording where kube has one), then the cluster runs until `untilSignal` resolves.
 *
 * @module
 */
import { parseArgs } from 'node:util';
import {
  type FeatureGates,
  parseFeatureGates,
  statefulSetFeatures,
} from '../apiserver/feature-gates.js';
import type { DefaultStorageClass } from '../controllers/persistentvolume/index.js';
import { parseGoDuration } from '../kubelet/annotations.js';
import { createLogger, type LogLevel } from '../util/log.js';
import { up } from './up.js';

/** Runs `fleetyard up <rest>`; resolves to the exit code. */
export async function runUp(rest: string[], untilSignal: () => Promise<void>): Promise<number> {
  const { values } = parseArgs({
    args: rest,
    options: {
      'data-dir': { type: 'string', default: '.fleetyard' },
      ephemeral: { type: 'boolean', default: false },
      port: { type: 'string', default: '6443' },
      host: { type: 'string', default: '127.0.0.1' },
      'log-level': { type: 'string', default: 'info' },
      'history-limit': { type: 'string' },
      'min-request-timeout': { type: 'string' },
      nodes: { type: 'string', default: '3' },
      zones: { type: 'string', default: 'a,b,c' },
      controllers: { type: 'string', default: '*' },
      'node-monitor-grace-period': { type: 'string' },
      'node-lease-duration-seconds': { type: 'string' },
      'default-not-ready-toleration-seconds': { type: 'string' },
      'default-unreachable-toleration-seconds': { type: 'string' },
      'default-storage-class': { type: 'string', default: 'standard' },
      'feature-gates': { type: 'string', default: '' },
      'member-replacement-delay': { type: 'string' },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`fleetyard: invalid --port ${values.port}\n`);
    return 2;
  }
  const historyLimit = optionalPositiveInt(values['history-limit'], '--history-limit');
  const minRequestTimeout = optionalPositiveInt(
    values['min-request-timeout'],
    '--min-request-timeout',
  );
  const nodes = Number(values.nodes);
  if (!Number.isInteger(nodes) || nodes < 0 || nodes > 250) {
    process.stderr.write(`fleetyard: invalid --nodes ${values.nodes}: want 0 to 250\n`);
    return 2;
  }
  const zones = values.zones.split(',').map((z) => z.trim());
  if (zones.some((z) => !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(z))) {
    process.stderr.write(`fleetyard: invalid --zones ${values.zones}\n`);
    return 2;
  }
  const leaseSeconds = optionalPositiveInt(
    values['node-lease-duration-seconds'],
    '--node-lease-duration-seconds',
  );
  const grace = optionalDuration(
    values['node-monitor-grace-period'],
    '--node-monitor-grace-period',
  );
  const notReady = optionalSeconds(
    values['default-not-ready-toleration-seconds'],
    '--default-not-ready-toleration-seconds',
  );
  const unreachable = optionalSeconds(
    values['default-unreachable-toleration-seconds'],
    '--default-unreachable-toleration-seconds',
  );
  const replacementDelay = optionalDuration(
    values['member-replacement-delay'],
    '--member-replacement-delay',
  );
  if (replacementDelay !== undefined && replacementDelay < 60_000) {
    process.stderr.write(
      `fleetyard: invalid --member-replacement-delay ${values['member-replacement-delay']}: must be at least 1m\n`,
    );
    return 2;
  }
  const storageClass = values['default-storage-class'];
  if (!['standard', 'ebs', 'none'].includes(storageClass)) {
    process.stderr.write(
      `fleetyard: invalid --default-storage-class ${storageClass}: want standard, ebs or none\n`,
    );
    return 2;
  }
  let featureGates: FeatureGates;
  try {
    featureGates = parseFeatureGates(values['feature-gates']);
  } catch (err) {
    // kube-apiserver's (pflag's) wording.
    const why = err instanceof Error ? err.message : String(err);
    process.stderr.write(
      `fleetyard: invalid argument "${values['feature-gates']}" for "--feature-gates" flag: ${why}\n`,
    );
    return 2;
  }
  const logger = createLogger(values['log-level'] as LogLevel);
  const cluster = await up({
    dataDir: values['data-dir'],
    ephemeral: values.ephemeral,
    host: values.host,
    port,
    logger,
    logLevel: values['log-level'] as LogLevel,
    ...(historyLimit !== undefined ? { historyLimit } : {}),
    ...(minRequestTimeout !== undefined ? { minRequestTimeoutSeconds: minRequestTimeout } : {}),
    // --nodes 0 is a cluster without simulated nodes (the kubelet controller off).
    controllers: nodes === 0 ? `${values.controllers},-kubelet` : values.controllers,
    cluster: {
      nodes: Math.max(nodes, 1),
      zones,
      ...(grace !== undefined ? { nodeMonitorGracePeriodMs: grace } : {}),
      ...(leaseSeconds !== undefined ? { nodeLeaseDurationSeconds: leaseSeconds } : {}),
      ...(replacementDelay !== undefined ? { memberReplacementDelayMs: replacementDelay } : {}),
      defaultStorageClass: storageClass as DefaultStorageClass,
      gates: statefulSetFeatures(featureGates),
    },
    featureGates,
    ...(notReady !== undefined ? { defaultNotReadyTolerationSeconds: notReady } : {}),
    ...(unreachable !== undefined ? { defaultUnreachableTolerationSeconds: unreachable } : {}),
  });
  process.stdout.write(`fleetyard ready url=${cluster.url} kubeconfig=${cluster.kubeconfigPath}\n`);
  process.stdout.write(`  export KUBECONFIG=${cluster.kubeconfigPath}\n`);
  await untilSignal();
  logger.info({}, 'shutting down');
  await cluster.stop();
  logger.flush();
  return 0;
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

function optionalSeconds(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`invalid ${flag} ${text}: want a non-negative integer`);
  return n;
}
