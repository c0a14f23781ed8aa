/**
 * An in-process API server on the memory backend, plain HTTP on a free loopback port, for
 * tests that exercise the real request path without a child process.
 *
 * @module
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { builtinResources } from '../../api/kinds/index.js';
import type { Backend } from '../../storage/backend.js';
import { createMemoryBackend } from '../../storage/memory/backend.js';
import type { Clock } from '../../util/clock.js';
import type { ApiExtensionsFactory } from '../extensions.js';
import { BUILTIN_NAMESPACES } from '../namespaces.js';
import { ApiServer, type ApiServerOptions } from '../server.js';
import { objectKey } from '../store/keys.js';

export interface TestResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  readonly body: Record<string, unknown>;
}

export interface RequestOptions {
  readonly body?: unknown;
  /** Raw body bytes, sent as-is (for malformed-input tests). */
  readonly raw?: string | Buffer;
  readonly contentType?: string | null;
  readonly accept?: string;
  readonly headers?: Record<string, string>;
}

export interface TestServer {
  readonly server: ApiServer;
  readonly backend: Backend;
  readonly url: string;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  /** Opens a watch and collects its events until `close()`. */
  watch(path: string): Promise<WatchCollector>;
  close(): Promise<void>;
}

export interface WatchEvent {
  type: string;
  object: Record<string, unknown> & { metadata?: Record<string, unknown> };
}

export interface WatchCollector {
  readonly events: WatchEvent[];
  readonly status: number;
  /** Resolves when at least `n` events arrived (rejects after `ms`). */
  waitFor(n: number, ms?: number): Promise<WatchEvent[]>;
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  close(): void;
}

export interface TestServerOptions {
  readonly backend?: Backend;
  readonly token?: string;
  readonly clock?: Clock;
  readonly historyLimit?: number;
  /**
   * Kinds beyond the built-in ones: tests of CRDs pass apiextensions' `apiExtensions()`.
   * Absent: built-in kinds only, as `ApiServerConfig.extensions`.
   */
  readonly extensions?: ApiExtensionsFactory;
  /** More options for the server (limits, timeouts, TLS). */
  readonly server?: Omit<Partial<ApiServerOptions>, 'backend' | 'resources'>;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const backend = options.backend ?? createMemoryBackend({ historyLimit: options.historyLimit });
  const server = new ApiServer({
    backend,
    resources: builtinResources,
    port: 0,
    ...(options.token ? { token: options.token } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.extensions ? { extensions: options.extensions } : {}),
    ...options.server,
  });
  const nsDef = server.registry.get('', 'v1', 'namespaces')!;
  for (const name of BUILTIN_NAMESPACES) {
    // A restarted server (an existing backend) finds them already there.
    if (server.store.backend.get(objectKey(nsDef, '', name)) === undefined) {
      await server.store.create(nsDef, '', { metadata: { name } });
    }
  }
  const url = await server.start();
  const base = new URL(url);
  const request = (method: string, path: string, o: RequestOptions = {}): Promise<TestResponse> =>
    new Promise((resolve, reject) => {
      const payload = o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
      const headers: Record<string, string> = { ...o.headers };
      if (o.accept) headers.accept = o.accept;
      if (payload !== undefined && o.contentType !== null)
        headers['content-type'] = o.contentType ?? 'application/json';
      // node's client does not frame a DELETE body by itself: say how long it is.
      if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
      const req = httpRequest(
        { host: base.hostname, port: base.port, method, path, headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: Record<string, unknown> = {};
            try {
              body = JSON.parse(text) as Record<string, unknown>;
            } catch {
              // not JSON
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
          });
        },
      );
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  const watch = (path: string): Promise<WatchCollector> =>
    new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: base.hostname, port: base.port, method: 'GET', path },
        (res) => {
          const events: WatchEvent[] = [];
          const waiters: Array<() => void> = [];
          let buffered = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            buffered += chunk;
            let nl = buffered.indexOf('\n');
            while (nl >= 0) {
              const line = buffered.slice(0, nl);
              buffered = buffered.slice(nl + 1);
              if (line.trim() !== '') events.push(JSON.parse(line) as WatchEvent);
              nl = buffered.indexOf('\n');
            }
            for (const w of waiters.splice(0)) w();
          });
          const ended = new Promise<void>((r) => res.on('close', () => r()));
          resolve({
            events,
            status: res.statusCode ?? 0,
            ended,
            close: () => req.destroy(),
            waitFor: (n, ms = 2000) =>
              new Promise((ok, fail) => {
                const timer = setTimeout(
                  () =>
                    fail(
                      new Error(
                        `timed out waiting for ${n} events, have ${events.length}: ${JSON.stringify(events.map((e) => e.type))}`,
                      ),
                    ),
                  ms,
                );
                const check = (): void => {
                  if (events.length >= n) {
                    clearTimeout(timer);
                    ok(events);
                  } else waiters.push(check);
                };
                check();
              }),
          });
        },
      );
      req.on('error', reject);
      req.end();
    });
  return {
    server,
    backend,
    url,
    request,
    watch,
    close: async () => {
      await server.stop();
      await backend.close();
    },
  };
}
