/**
 * `fleetyard up`'s flags as one table (src/cluster/flag-table.ts): `parseUpArgs` passes it to
 * `parseArgs`, `fleetyard --help` prints it, and `scripts/gen-flag-docs.ts` writes it into
 * README.md. A default `up` applies is written here once; a default applied further down (the
 * API server's, the storage's, the controllers') is shown from that module's own constant,
 * where it exports one.
 *
 * @module
 */

import { DEFAULT_TOLERATION_SECONDS } from '../apiserver/admission/default-tolerations.js';
import { DEFAULT_EVENT_TTL_MS } from '../apiserver/event-ttl.js';
import { DEFAULT_FEATURE_GATES, FEATURE_GATE_NAMES } from '../apiserver/feature-gates.js';
import { DEFAULT_INFLIGHT_LIMITS } from '../apiserver/http/inflight-limit.js';
import { DEFAULT_NODE_MONITOR_GRACE_PERIOD_MS } from '../controllers/node-lifecycle/node-health.js';
import {
  DEFAULT_MEMBER_REPLACEMENT_DELAY_MS,
  MIN_MEMBER_REPLACEMENT_DELAY_MS,
} from '../operator/healing/types.js';
import {
  DEFAULT_NODE_COUNT,
  DEFAULT_ZONES,
  MAX_SIMULATED_NODES,
} from '../sim/kubelet/node-config.js';
import { DEFAULT_HISTORY_LIMIT } from '../storage/index.js';
import { type FlagTable, goDurationText, orList } from './flag-table.js';
import {
  CLOCK_MODES,
  DASHBOARD_SWITCH,
  LOG_FORMATS,
  LOG_LEVELS,
  STORAGE_CLASSES,
} from './up-flag-values.js';

/** The virtual clock's speed unless `--speed` says otherwise: the wall clock's. */
export const DEFAULT_SPEED = 1;
/**
 * Not exported by their modules yet: the API server's `minRequestTimeoutSeconds ?? 1800`
 * (src/apiserver/server.ts) and the kubelets' `leaseDurationSeconds ?? 40`
 * (src/sim/kubelet/node-config.ts).
 */
const MIN_REQUEST_TIMEOUT_SECONDS = 1800;
const NODE_LEASE_DURATION_SECONDS = 40;

/** `` `a`, `b` or `c` ``: choices for a help text. */
function codeList(choices: readonly string[]): string {
  return orList(choices.map((c) => `\`${c}\``));
}

const gatesOn = FEATURE_GATE_NAMES.filter((name) => DEFAULT_FEATURE_GATES[name]);

export const UP_FLAGS = {
  'data-dir': {
    type: 'string',
    default: './.fleetyard',
    value: 'DIR',
    help: 'Where state (`state.db`), certificates (`pki/`), `token` and `kubeconfig` live; mode 0700, secrets 0600',
  },
  ephemeral: {
    type: 'boolean',
    default: false,
    help: 'Keep objects in memory only (nothing survives the process)',
  },
  'audit-log-path': {
    type: 'string',
    value: 'FILE',
    help: 'Write audit.k8s.io/v1 Events as JSON lines to FILE (mode 0600, its directory 0700), or `-` for stdout; unset: no audit log, as kube-apiserver',
  },
  'audit-policy-file': {
    type: 'string',
    value: 'FILE',
    defaultText: 'a GKE-like policy (docs/security.md)',
    help: 'The audit.k8s.io/v1 Policy (YAML or JSON) deciding what is logged at which level',
  },
  'audit-log-maxsize': {
    type: 'string',
    value: 'MB',
    defaultText: '`100`',
    help: 'Megabytes before the audit log is rotated to `<name>-<UTC time><ext>`',
  },
  'audit-log-maxbackup': {
    type: 'string',
    value: 'N',
    defaultText: '`0` (all kept)',
    help: 'Rotated audit logs kept',
  },
  'audit-log-maxage': {
    type: 'string',
    value: 'DAYS',
    defaultText: '`0` (no limit)',
    help: 'Days a rotated audit log is kept, by the time in its name',
  },
  'encryption-provider-config': {
    type: 'string',
    value: 'FILE',
    defaultText:
      '`<data-dir>/encryption-config.yaml`, generated at first start (Secrets under aescbc)',
    help: "kube-apiserver's EncryptionConfiguration: which resources are encrypted at rest, with which keys (aescbc, aesgcm, secretbox, identity; not kms)",
  },
  port: { type: 'string', default: '6443', value: 'N', help: 'HTTPS port; `0` picks a free one' },
  host: {
    type: 'string',
    default: '127.0.0.1',
    value: 'ADDR',
    help: "Address to bind. With `0.0.0.0` (or `::`) the serving certificate names every address of the machine's interfaces and its host name, besides `localhost`, `127.0.0.1` and `::1`",
  },
  'tls-san': {
    type: 'string',
    multiple: true,
    value: 'NAMES',
    help: 'More host names or IP addresses for the serving certificate, comma-separated or repeated (as k3s); a certificate that lacks one is reissued',
  },
  'advertise-address': {
    type: 'string',
    value: 'IP',
    defaultText: 'the `--host` address; `127.0.0.1` for `0.0.0.0`, `::1` for `::`',
    help: 'The address the kubeconfig names; it is added to the certificate',
  },
  'log-level': {
    type: 'string',
    default: 'info',
    value: 'LEVEL',
    choices: LOG_LEVELS,
    // Shared by `controllers` and `operator`: FLEETYARD_LOG_FORMAT works there, --log-format not.
    help: `${codeList(LOG_LEVELS)}; on stderr: JSON lines, or human lines with \`FLEETYARD_LOG_FORMAT=text\``,
  },
  'log-format': {
    type: 'string',
    value: LOG_FORMATS.join('|'),
    choices: LOG_FORMATS,
    // Decided by the command (src/cli/up-command.ts), not here: the table only parses.
    defaultText:
      '`$FLEETYARD_LOG_FORMAT` if set, else `text` when stderr is a terminal, `json` if not',
    help: '`json`: a JSON object a line; `text`: for people, `HH:MM:SS.mmm LEVEL component message key=value`, colored unless `NO_COLOR` is set or stderr is not a terminal (`FORCE_COLOR` forces it)',
  },
  'history-limit': {
    type: 'string',
    value: 'N',
    defaultText: `\`${DEFAULT_HISTORY_LIMIT}\``,
    help: 'Events kept for watch resume; an older start gets 410 Expired',
  },
  'min-request-timeout': {
    type: 'string',
    value: 'S',
    defaultText: `\`${MIN_REQUEST_TIMEOUT_SECONDS}\``,
    help: 'Watches without `timeoutSeconds` end after S to 2×S seconds',
  },
  'event-ttl': {
    type: 'string',
    value: 'D',
    defaultText: `\`${goDurationText(DEFAULT_EVENT_TTL_MS)}\``,
    help: "How long an Event is kept after its last write (kube-apiserver's `--event-ttl`)",
  },
  nodes: {
    type: 'string',
    default: String(DEFAULT_NODE_COUNT),
    value: 'N',
    help: `Simulated nodes, 0 to ${MAX_SIMULATED_NODES}; \`0\`: none, and the kubelet controller off`,
  },
  zones: {
    type: 'string',
    default: DEFAULT_ZONES.join(','),
    value: 'LIST',
    help: 'Zones the nodes are spread over, round-robin, labelled `local-a`, …',
  },
  controllers: {
    type: 'string',
    default: '*',
    value: 'LIST',
    help: "Controllers to run, in kube-controller-manager's syntax: `*` for all, `-name` to leave one out, as in `*,-garbage-collector`",
  },
  'node-monitor-grace-period': {
    type: 'string',
    value: 'D',
    defaultText: `\`${goDurationText(DEFAULT_NODE_MONITOR_GRACE_PERIOD_MS)}\``,
    help: 'A node silent this long goes Unknown and is tainted',
  },
  'node-lease-duration-seconds': {
    type: 'string',
    value: 'S',
    defaultText: `\`${NODE_LEASE_DURATION_SECONDS}\``,
    help: "The simulated kubelets' Lease duration; they renew it every S/4 seconds, so keep the grace period above that",
  },
  'default-not-ready-toleration-seconds': {
    type: 'string',
    value: 'S',
    defaultText: `\`${DEFAULT_TOLERATION_SECONDS}\``,
    help: '`tolerationSeconds` of the `not-ready:NoExecute` toleration added to pods',
  },
  'default-unreachable-toleration-seconds': {
    type: 'string',
    value: 'S',
    defaultText: `\`${DEFAULT_TOLERATION_SECONDS}\``,
    help: '`tolerationSeconds` of the `unreachable:NoExecute` toleration added to pods',
  },
  'default-storage-class': {
    type: 'string',
    default: 'standard',
    value: 'NAME',
    choices: STORAGE_CLASSES,
    help: 'Which simulated class is the default: `standard` (node-local, `hostpath.csi.k8s.io`), `ebs` (zonal, `ebs.csi.aws.com`) or `none`',
  },
  'feature-gates': {
    type: 'string',
    default: '',
    value: 'A=true,B=false',
    defaultText: gatesOn.length === 0 ? 'all off, as upstream' : `\`${gatesOn.join(',')}\``,
    help: `${FEATURE_GATE_NAMES.map((name) => `\`${name}\``).join(', ')}, as kube-apiserver and kube-controller-manager take them`,
  },
  'member-replacement-delay': {
    type: 'string',
    value: 'D',
    defaultText: `\`${goDurationText(DEFAULT_MEMBER_REPLACEMENT_DELAY_MS)}\``,
    help: `The celld operator: how long exactly one fleet member may be down before it is replaced on a fresh disk; at least \`${goDurationText(MIN_MEMBER_REPLACEMENT_DELAY_MS)}\``,
  },
  'max-requests-inflight': {
    type: 'string',
    value: 'N',
    defaultText: `\`${DEFAULT_INFLIGHT_LIMITS.maxRequestsInFlight}\``,
    help: "Read-only requests served at once, as kube-apiserver's; more get 429 with `Retry-After: 1` (`0`: no limit). Watches are not counted, nor the built-in controllers' requests",
  },
  'max-mutating-requests-inflight': {
    type: 'string',
    value: 'N',
    defaultText: `\`${DEFAULT_INFLIGHT_LIMITS.maxMutatingRequestsInFlight}\``,
    help: 'The same for creates, updates, patches and deletes',
  },
  clock: {
    type: 'string',
    default: 'real',
    value: CLOCK_MODES.join('|'),
    choices: CLOCK_MODES,
    help: "`virtual`: the cluster's time can pause, step and run at any speed (`fleetyard clock`, docs/simulation.md); `real`: the wall clock",
  },
  'clock-start': {
    type: 'string',
    value: 'TIME',
    defaultText: 'the wall time at start',
    help: "The virtual clock's start, RFC 3339",
  },
  speed: {
    type: 'string',
    value: 'N|max',
    defaultText: `\`${DEFAULT_SPEED}\``,
    help: "The virtual clock's speed: N times the wall clock, `0` paused, or `max`: jump to the next timer once the cluster is quiescent",
  },
  dashboard: {
    type: 'string',
    default: 'true',
    value: DASHBOARD_SWITCH.join('|'),
    choices: DASHBOARD_SWITCH,
    help: 'Serve the dashboard under `/ui/` on the API port and record the run for its timeline; `up` prints a one-time login link (`fleetyard dashboard` prints another)',
  },
  seed: {
    type: 'string',
    value: 'N',
    help: 'Fix every source of randomness; with `--clock virtual` the cluster also runs one turn at a time, so two runs produce the same watch events',
  },
} as const satisfies FlagTable;

/**
 * The kubeconfig `fleetyard up` writes with the default `--data-dir` (up.ts names it
 * `kubeconfig`): where `fleetyard controllers` and `fleetyard operator` connect by default.
 */
export const LOCAL_KUBECONFIG = `${UP_FLAGS['data-dir'].default}/kubeconfig`;
