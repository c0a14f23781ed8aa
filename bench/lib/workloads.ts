/**
 * The requests the load generators send, rendered as raw HTTP/1.1 heads and bodies
 * (see `raw-http.ts`). Each request of a run is a pure function of (worker, index), so keys
 * and names are distinct without coordination between generator processes.
 *
 * @module
 */

export type WorkloadKind =
  /** etcd 3.4 gRPC-gateway put of a distinct key with a fixed value. */
  | 'etcd-put'
  /** Create of a distinct ConfigMap with `valueBytes` of data. */
  | 'configmap-create'
  /** Create of a distinct Pod with a realistic small spec (~1.6 KiB stored). */
  | 'pod-create'
  /**
   * Unconditional PUT updates of `objects` existing ConfigMaps `fan-0`…, round-robin; each
   * carries its index and its send time (epoch ms, sub-ms precision) in its data.
   */
  | 'configmap-stamped'
  /** `POST /` to the trivial JSON server (the generator's own ceiling). */
  | 'trivial';

export interface Workload {
  readonly kind: WorkloadKind;
  /** `host:port`, for the Host header. */
  readonly authority: string;
  readonly token?: string;
  /** Distinguishes generator processes in names and keys. */
  readonly workerId: number;
  /** etcd-put: the gateway path, `/v3/kv/put` or `/v3beta/kv/put`. */
  readonly path?: string;
  readonly valueBytes?: number;
  readonly namespace?: string;
  /** configmap-stamped: how many objects the writes cycle through. */
  readonly objects?: number;
}

export interface RenderedRequest {
  readonly head: string;
  readonly body: string;
}

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes. */
export function wallNow(): number {
  return performance.timeOrigin + performance.now();
}

export type RequestMaker = (index: number) => RenderedRequest;

/** Builds the request maker once per worker (pre-renders the constant parts). */
export function requestMaker(w: Workload): RequestMaker {
  const auth = w.token ? `Authorization: Bearer ${w.token}\r\n` : '';
  const common = `Host: ${w.authority}\r\n${auth}Content-Type: application/json\r\n`;
  const ns = w.namespace ?? 'default';
  switch (w.kind) {
    case 'etcd-put': {
      const value = Buffer.alloc(w.valueBytes ?? 1024, 'v').toString('base64');
      const head = `POST ${w.path ?? '/v3/kv/put'} HTTP/1.1\r\n${common}`;
      return (i) => {
        const key = Buffer.from(`/bench/w${w.workerId}/${i}`).toString('base64');
        return { head, body: `{"key":"${key}","value":"${value}"}` };
      };
    }
    case 'configmap-create': {
      const filler = 'x'.repeat(w.valueBytes ?? 1024);
      const head = `POST /api/v1/namespaces/${ns}/configmaps HTTP/1.1\r\n${common}`;
      return (i) => ({
        head,
        body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"bench-w${w.workerId}-${i}"},"data":{"value":"${filler}"}}`,
      });
    }
    case 'pod-create': {
      const head = `POST /api/v1/namespaces/${ns}/pods HTTP/1.1\r\n${common}`;
      return (i) => ({ head, body: podBody(`web-w${w.workerId}-${i}`, i) });
    }
    case 'configmap-stamped':
      return stampedMaker(w, common, ns);
    case 'trivial': {
      const head = `POST / HTTP/1.1\r\n${common}`;
      return (i) => ({ head, body: `{"i":${i}}` });
    }
  }
}

function stampedMaker(w: Workload, common: string, ns: string): RequestMaker {
  const objects = w.objects ?? 100;
  const base = `/api/v1/namespaces/${ns}/configmaps`;
  return (i) => {
    const name = `fan-${i % objects}`;
    // The stamp is taken when the request is rendered, right before it is written.
    const sent = wallNow().toFixed(3);
    return {
      head: `PUT ${base}/${name} HTTP/1.1\r\n${common}`,
      body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"},"data":{"seq":"${i}","sent":"${sent}"}}`,
    };
  };
}

/**
 * A pod like a Deployment's: two containers with ports, env, resources, probes and a
 * mount, labels and annotations. About 1.1 KiB sent, ~1.6 KiB stored with the defaults.
 */
export function podBody(name: string, i: number): string {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      labels: {
        app: 'web',
        tier: 'frontend',
        'pod-template-hash': '7d4b9c8f6',
        shard: String(i % 16),
      },
      annotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9090' },
    },
    spec: {
      containers: [
        {
          name: 'web',
          image: 'registry.example.com/team/web:1.27.3',
          ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
          env: [
            { name: 'LOG_LEVEL', value: 'info' },
            { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
          ],
          resources: {
            requests: { cpu: '100m', memory: '128Mi' },
            limits: { cpu: '500m', memory: '256Mi' },
          },
          readinessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 5 },
          volumeMounts: [{ name: 'config', mountPath: '/etc/web' }],
        },
        {
          name: 'metrics',
          image: 'registry.example.com/team/exporter:0.9.1',
          ports: [{ name: 'metrics', containerPort: 9090, protocol: 'TCP' }],
          resources: { requests: { cpu: '10m', memory: '16Mi' } },
        },
      ],
      volumes: [{ name: 'config', configMap: { name: 'web-config' } }],
    },
  };
  return JSON.stringify(pod);
}

/** The status a successful request of this kind answers with. */
export function okStatus(kind: WorkloadKind): (status: number) => boolean {
  if (kind === 'etcd-put' || kind === 'trivial') return (s) => s === 200;
  if (kind === 'configmap-stamped') return (s) => s === 200;
  return (s) => s === 201;
}
