/**
 * Which container a pod subresource addresses, and whether it has a log to show, as upstream
 * decides: the API server's container defaulting (`pkg/registry/core/pod/strategy.go`,
 * `LogLocation` / `streamLocation`: the only container, or 400 naming the choices) and the
 * kubelet's `validateContainerLogStatus` (a container still waiting has no log: 400 with its
 * waiting reason). Both messages reach kubectl as `Error from server (BadRequest): …`.
 *
 * @module
 */
import { badRequest } from '../../api/errors.js';
import type { ContainerStatus, Pod } from '../../api/model/index.js';

function names(list: readonly { name: string }[] | undefined): string[] {
  return (list ?? []).map((c) => c.name);
}

/** Go's `%s` of a `[]string`: `[a b]`. */
function goList(items: readonly string[]): string {
  return `[${items.join(' ')}]`;
}

/** The container a request names, or the pod's only one; 400 otherwise. */
export function selectContainer(pod: Pod, requested: string): string {
  const name = pod.metadata?.name ?? '';
  const spec = pod.spec;
  if (requested === '') {
    const regular = names(spec?.containers);
    if (regular.length === 1) return regular[0]!;
    if (regular.length === 0) {
      throw badRequest(`a container name must be specified for pod ${name}`);
    }
    let message = `a container name must be specified for pod ${name}, choose one of: ${goList(regular)}`;
    const init = names(spec?.initContainers);
    if (init.length > 0) message += ` or one of the init containers: ${goList(init)}`;
    const ephemeral = names(spec?.ephemeralContainers);
    if (ephemeral.length > 0)
      message += ` or one of the ephemeral containers: ${goList(ephemeral)}`;
    throw badRequest(message);
  }
  const all = [
    ...names(spec?.containers),
    ...names(spec?.initContainers),
    ...names(spec?.ephemeralContainers),
  ];
  if (!all.includes(requested)) {
    throw badRequest(`container ${requested} is not valid for pod ${name}`);
  }
  return requested;
}

/** The container's status, from any of the pod's three lists. */
export function containerStatus(pod: Pod, container: string): ContainerStatus | undefined {
  const s = pod.status;
  return [
    ...(s?.containerStatuses ?? []),
    ...(s?.initContainerStatuses ?? []),
    ...(s?.ephemeralContainerStatuses ?? []),
  ].find((c) => c.name === container);
}

/** The kubelet's refusal to show a log, or undefined when there is one (`previous`: the last run's). */
export function logRefusal(pod: Pod, container: string, previous: boolean): string | undefined {
  const where = `container ${JSON.stringify(container)} in pod ${JSON.stringify(pod.metadata?.name ?? '')}`;
  const status = containerStatus(pod, container);
  if (status === undefined) return `${where} is not available`;
  const last = status.lastState?.terminated;
  if (previous) {
    return last?.containerID ? undefined : `previous terminated ${where} not found`;
  }
  const state = status.state ?? {};
  if (state.running) return undefined;
  // A run that ended (or, waiting to restart, the last one) has a log if it has an ID.
  if (state.terminated || last) {
    return state.terminated?.containerID || last?.containerID
      ? undefined
      : `${where} is terminated`;
  }
  const reason = state.waiting?.reason;
  if (reason === undefined) return `${where} is waiting to start - no logs yet`;
  return `${where} is waiting to start: ${WAITING_WHY.get(reason) ?? reason}`;
}

/** The kubelet's words for the common pending failures. */
const WAITING_WHY: ReadonlyMap<string, string> = new Map([
  ['ErrImagePull', "image can't be pulled"],
  ['ImagePullBackOff', 'trying and failing to pull image'],
]);
