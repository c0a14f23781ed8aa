/**
 * `fleetyard operator`'s flags as one table (src/cluster/flag-table.ts): operator-flags.ts
 * parses with it, `fleetyard operator --help` prints it and `scripts/gen-flag-docs.ts` writes
 * it into docs/operator.md. The defaults the operator shares with the embedded one (the member
 * replacement delay) are the operator's own constants.
 *
 * @module
 */
import { type FlagTable, flagUsage, goDurationText } from '../cluster/flag-table.js';
import { LOCAL_KUBECONFIG, UP_FLAGS } from '../cluster/up-flag-table.js';
import { DEFAULT_OPERATOR_NAMESPACE, OPERATOR_LEASE_NAME } from '../operator/controller/options.js';
import {
  DEFAULT_MEMBER_REPLACEMENT_DELAY_MS,
  MIN_MEMBER_REPLACEMENT_DELAY_MS,
} from '../operator/healing/types.js';

/** Node timers overflow above 2^31−1 ms (≈ 24.8 days) and fire at once; 24 days stays under. */
export const MAX_MEMBER_REPLACEMENT_DELAY_MS = 24 * 24 * 3_600_000;
const DAY_MS = 24 * 3_600_000;

export const OPERATOR_FLAGS = {
  kubeconfig: {
    type: 'string',
    value: 'PATH',
    defaultText: `in-cluster in a Pod, else \`${LOCAL_KUBECONFIG}\``,
    help: 'kubeconfig to connect with',
  },
  context: {
    type: 'string',
    value: 'NAME',
    defaultText: 'the current one',
    help: 'kubeconfig context',
  },
  namespace: {
    type: 'string',
    value: 'NS',
    defaultText: 'all',
    help: 'Reconcile fleets of this namespace only',
    doc: 'Watches are scoped to it',
  },
  'operator-namespace': {
    type: 'string',
    value: 'NS',
    defaultText: `the Pod's namespace in a cluster, else \`${DEFAULT_OPERATOR_NAMESPACE}\``,
    help: "Where the operator runs and holds its Lease; fleets' NetworkPolicies admit it from there",
    doc: 'Operator Pods are those labelled `app.kubernetes.io/name=celld-operator`; they are admitted to the peer port',
  },
  'member-replacement-delay': {
    type: 'string',
    default: goDurationText(DEFAULT_MEMBER_REPLACEMENT_DELAY_MS),
    value: 'D',
    help: `How long one member may be down before it is replaced on a fresh disk, as a Go duration; at least \`${goDurationText(MIN_MEMBER_REPLACEMENT_DELAY_MS)}\``,
    doc: `More than ${MAX_MEMBER_REPLACEMENT_DELAY_MS / DAY_MS} days (\`${goDurationText(MAX_MEMBER_REPLACEMENT_DELAY_MS)}\`) is refused too`,
  },
  'network-policy-enforced': {
    type: 'string',
    default: 'false',
    goBool: true,
    help: "Attest that the cluster's CNI enforces NetworkPolicy. Without it every fleet reports `IsolationUnverified` and nothing is provisioned. Set it only when that is true (Calico, Cilium, …; not flannel alone)",
  },
  'local-test': {
    type: 'string',
    default: 'false',
    goBool: true,
    help: 'Allow the node-local `hostpath.csi.k8s.io` provisioner (test clusters)',
  },
  'leader-elect': {
    type: 'string',
    default: 'true',
    goBool: true,
    value: 'BOOL',
    help: 'Run only while holding the Lease',
    doc: `The Lease is \`${OPERATOR_LEASE_NAME}\` in the operator namespace`,
  },
  'metrics-bind-address': {
    type: 'string',
    default: ':8080',
    value: 'A',
    help: 'Prometheus `/metrics`, plain HTTP; `:port` is all interfaces, `0` disables. Outside a cluster pass `127.0.0.1:8080`',
  },
  'health-probe-bind-address': {
    type: 'string',
    default: ':8081',
    value: 'A',
    help: '`/healthz`, `/readyz` and `/livez`, plain HTTP; `0` disables. Outside a cluster pass `127.0.0.1:8081`',
  },
  'log-level': UP_FLAGS['log-level'],
  help: { type: 'string', default: 'false', goBool: true, hidden: true, help: 'This text' },
} as const satisfies FlagTable;

export const OPERATOR_USAGE = `Usage: fleetyard operator [options]

Runs the celld fleet operator (celld.fleetyard.dev/v1alpha1 CelldFleet) until SIGINT/SIGTERM.

Connection: --kubeconfig if given; else in-cluster (the Pod's ServiceAccount) when
KUBERNETES_SERVICE_HOST is set; else ${LOCAL_KUBECONFIG} (a local fleetyard up).

Options:
${flagUsage(OPERATOR_FLAGS, { column: 28, width: 96 })}
Boolean flags take --flag, --flag=true|false or --flag true|false.
Exits 1 when it loses the Lease or the operator fails, so its Deployment restarts it.
`;
