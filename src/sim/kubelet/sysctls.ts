/**
 * The kubelet's sysctl admission (upstream `pkg/kubelet/sysctl`: `SafeSysctlAllowlist`,
 * `patternAllowlist.Admit`): a pod may set only the safe, namespaced sysctls in
 * `spec.securityContext.sysctls` (the simulated kubelet has no `--allowed-unsafe-sysctls`).
 * Every safe sysctl is allowed: some need a minimum kernel (`tcp_keepalive_*` 4.5, `tcp_rmem`
 * 4.15 …) and the simulated nodes report 6.8. A net sysctl is refused to a pod on the host
 * network, an IPC one to a pod sharing the host's IPC namespace.
 *
 * Rejection: reason `SysctlForbidden`, message `forbidden sysctl: "kernel.msgmax" not
 * allowlisted` or `forbidden sysctl: "net.ipv4.tcp_syncookies" not allowed with host net
 * enabled`.
 *
 * @module
 */
import type { PodSpec } from '../../api/model/index.js';

export const SYSCTL_FORBIDDEN = 'SysctlForbidden';

type Namespace = 'ipc' | 'net';

/** The safe sysctls and the kernel namespace each lives in. */
const SAFE: ReadonlyMap<string, Namespace> = new Map([
  ['kernel.shm_rmid_forced', 'ipc'],
  ['net.ipv4.ip_local_port_range', 'net'],
  ['net.ipv4.tcp_syncookies', 'net'],
  ['net.ipv4.ping_group_range', 'net'],
  ['net.ipv4.ip_unprivileged_port_start', 'net'],
  ['net.ipv4.ip_local_reserved_ports', 'net'],
  ['net.ipv4.tcp_keepalive_time', 'net'],
  ['net.ipv4.tcp_fin_timeout', 'net'],
  ['net.ipv4.tcp_keepalive_intvl', 'net'],
  ['net.ipv4.tcp_keepalive_probes', 'net'],
  ['net.ipv4.tcp_rmem', 'net'],
  ['net.ipv4.tcp_wmem', 'net'],
]);

/**
 * sysctl.d(5) naming: when the first separator is a slash, slashes and dots swap
 * (`net/ipv4/conf/eno2.100/rp_filter` → `net.ipv4.conf.eno2/100.rp_filter`).
 */
export function normalizeSysctlName(name: string): string {
  const first = name.search(/[./]/);
  if (first < 0 || name[first] !== '/') return name;
  return name.replace(/[./]/g, (c) => (c === '/' ? '.' : '/'));
}

type SysctlSpec = Pick<PodSpec, 'hostNetwork' | 'hostIPC' | 'securityContext'>;

/** The rejection message for the pod's first forbidden sysctl, or undefined when all are allowed. */
export function forbiddenSysctl(spec: SysctlSpec): string | undefined {
  for (const s of spec.securityContext?.sysctls ?? []) {
    const name = normalizeSysctlName(s.name ?? '');
    const ns = SAFE.get(name);
    if (ns === undefined) return `forbidden sysctl: "${name}" not allowlisted`;
    if ((ns === 'net' && spec.hostNetwork) || (ns === 'ipc' && spec.hostIPC)) {
      return `forbidden sysctl: "${name}" not allowed with host ${ns} enabled`;
    }
  }
  return undefined;
}
