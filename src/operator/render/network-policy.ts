/**
 * The fleet's NetworkPolicy `<f>` (docs/design/operator.md §3): members accept peer traffic only from their fleet
 * and the operator, application traffic only from Pods labelled `client-of=<fleet>`, and
 * reach only their peers, DNS, HTTPS (S3/STS), the EKS Pod Identity agent and, when set, the
 * custom storage endpoint. The policy is fixed and complete so isolation does not depend on
 * what else is in the namespace.
 *
 * @module
 */

import type {
  NetworkPolicy,
  NetworkPolicyEgressRule,
  NetworkPolicyIngressRule,
  NetworkPolicyPeer,
  NetworkPolicyPort,
} from '../../api/model/index.js';
import { APPLICATION_PORT, PEER_PORT } from './env.js';
import type {
  EgressTargetView,
  FleetSpecView,
  RenderOptions,
  ResolvedFleet,
} from './fleet-view.js';
import { DEFAULT_RENDER_OPTIONS, resolveFleet } from './fleet-view.js';
import {
  childMetadata,
  LABEL_CLIENT_OF,
  LABEL_NAME,
  OPERATOR_APP_NAME,
  selectorLabels,
} from './metadata.js';

const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';
/** EKS Pod Identity agent: where the AWS SDK fetches credentials without IRSA. */
const POD_IDENTITY_AGENT = '169.254.170.23/32';

function tcp(port: number): NetworkPolicyPort {
  return { protocol: 'TCP', port };
}

function ingress(fleet: ResolvedFleet, options: RenderOptions): NetworkPolicyIngressRule[] {
  return [
    {
      from: [
        { podSelector: { matchLabels: selectorLabels(fleet) } },
        {
          namespaceSelector: { matchLabels: { [NAMESPACE_NAME_LABEL]: options.operatorNamespace } },
          podSelector: { matchLabels: { [LABEL_NAME]: OPERATOR_APP_NAME } },
        },
      ],
      ports: [tcp(PEER_PORT)],
    },
    {
      from: [{ podSelector: { matchLabels: { [LABEL_CLIENT_OF]: fleet.name } } }],
      ports: [tcp(APPLICATION_PORT)],
    },
  ];
}

/** The port of a URL, with the scheme's default. */
function urlPort(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'http:' ? 80 : 443;
}

/** A peer of an egress rule from the endpoint's declared target. */
function egressPeer(target: EgressTargetView): NetworkPolicyPeer | undefined {
  if (target.cidr !== undefined) return { ipBlock: { cidr: target.cidr } };
  if (target.podLabels === undefined) return undefined;
  const peer: NetworkPolicyPeer = { podSelector: { matchLabels: { ...target.podLabels } } };
  if (target.namespace !== undefined) {
    peer.namespaceSelector = { matchLabels: { [NAMESPACE_NAME_LABEL]: target.namespace } };
  }
  return peer;
}

/** The custom endpoint's rule; undefined when there is none or its URL does not parse. */
function endpointEgress(fleet: ResolvedFleet): NetworkPolicyEgressRule | undefined {
  const endpoint = fleet.spec.storage.endpoint;
  if (!endpoint || !URL.canParse(endpoint.url)) return undefined;
  const port = urlPort(new URL(endpoint.url));
  const peer = endpoint.egress ? egressPeer(endpoint.egress) : undefined;
  // Without a declared destination the port is opened to any address: an https endpoint is
  // already covered by the 443 rule, and refusing would leave the fleet unable to start.
  return peer ? { to: [peer], ports: [tcp(port)] } : { ports: [tcp(port)] };
}

function egress(fleet: ResolvedFleet): NetworkPolicyEgressRule[] {
  const rules: NetworkPolicyEgressRule[] = [
    { to: [{ podSelector: { matchLabels: selectorLabels(fleet) } }], ports: [tcp(PEER_PORT)] },
    {
      to: [
        {
          namespaceSelector: { matchLabels: { [NAMESPACE_NAME_LABEL]: 'kube-system' } },
          podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } },
        },
      ],
      ports: [tcp(53), { protocol: 'UDP', port: 53 }],
    },
    // S3 and STS; bucket access itself is restricted by IAM, not by this policy.
    { ports: [tcp(443)] },
    { to: [{ ipBlock: { cidr: POD_IDENTITY_AGENT } }], ports: [tcp(80)] },
  ];
  const custom = endpointEgress(fleet);
  if (custom) rules.push(custom);
  return rules;
}

/** The NetworkPolicy `<f>`. */
export function renderNetworkPolicy(
  fleet: FleetSpecView,
  options: RenderOptions = DEFAULT_RENDER_OPTIONS,
): NetworkPolicy {
  const resolved = resolveFleet(fleet);
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: childMetadata(resolved, resolved.name),
    spec: {
      podSelector: { matchLabels: selectorLabels(resolved) },
      policyTypes: ['Ingress', 'Egress'],
      ingress: ingress(resolved, options),
      egress: egress(resolved),
    },
  };
}
