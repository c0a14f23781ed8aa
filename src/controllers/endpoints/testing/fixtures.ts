/**
 * Services and pods for the endpoints planner's tests.
 *
 * @module
 */
import { asKind, type Pod, type Service } from '../../../api/model/index.js';

export const NS = 'default';

/** A Service selecting `app=web`; `spec` fields override the headless default. */
export function service(spec: Record<string, unknown> = {}, name = 'web'): Service {
  return asKind(
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name,
        namespace: NS,
        uid: `svc-${name}`,
        labels: { team: 'a' },
        creationTimestamp: '2026-01-01T00:00:00Z',
      },
      spec: {
        clusterIP: 'None',
        selector: { app: 'web' },
        ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }],
        ...spec,
      },
    },
    'Service',
  );
}

export interface PodOptions {
  readonly ip?: string | null;
  readonly ready?: boolean;
  readonly phase?: string;
  readonly terminating?: boolean;
  readonly hostname?: string;
  readonly subdomain?: string;
  readonly labels?: Record<string, string>;
  readonly ports?: Record<string, unknown>[];
  readonly namespace?: string;
  readonly readySince?: string;
}

/** A Running pod `web-<n>` on node `node-<n>` with IP `10.0.0.<n+1>` unless overridden. */
export function pod(n: number, o: PodOptions = {}): Pod {
  const ip = o.ip === undefined ? `10.0.0.${n + 1}` : o.ip;
  return asKind(
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: `web-${n}`,
        namespace: o.namespace ?? NS,
        uid: `uid-${n}`,
        resourceVersion: '1',
        labels: o.labels ?? { app: 'web' },
        ...(o.terminating === true ? { deletionTimestamp: '2026-01-01T00:01:00Z' } : {}),
      },
      spec: {
        nodeName: `node-${n}`,
        ...(o.hostname === undefined ? {} : { hostname: o.hostname }),
        ...(o.subdomain === undefined ? {} : { subdomain: o.subdomain }),
        containers: [
          { name: 'c', image: 'nginx', ports: o.ports ?? [{ name: 'web', containerPort: 8080 }] },
        ],
      },
      status: {
        phase: o.phase ?? 'Running',
        ...(ip === null ? {} : { podIP: ip, podIPs: [{ ip }] }),
        conditions: [
          {
            type: 'Ready',
            status: o.ready === false ? 'False' : 'True',
            lastTransitionTime: o.readySince ?? '2026-01-01T00:00:10Z',
          },
        ],
      },
    },
    'Pod',
  );
}
