/**
 * Structured logs: a constant message plus key/values (controller-runtime's rule), JSON
 * lines on stderr so stdout stays for the `fleetyard ready` line.
 *
 * No credential is ever written: request headers are not logged (they carry the bearer
 * token), the `headers`/`req` fields lose their credential headers, and every finished line
 * goes through `redactSecrets` (util/redact.ts) before it reaches stderr, which removes
 * the secrets registered with {@link addLogSecret} (the token of `up`, of a kubeconfig) and
 * anything shaped like a credential. Scanning each line costs ~2 µs (a few `includes` and
 * regular expressions over ~200 bytes); at debug level that is one line per request.
 *
 * @module
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import { LOG_REDACT_PATHS, REDACTED, redactHeaders, redactSecrets } from './redact.js';
import { redactRequestUrl } from './redact-url.js';

export type { Logger };

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/**
 * Secrets this thread knows, removed from every line of every logger of the thread. A worker
 * thread has its own set (module state is per thread): it registers what it was given.
 */
const secrets = new Set<string>();

/** Never log `secret` (a token), in any logger of this thread, from now on. */
export function addLogSecret(secret: string | undefined): void {
  // Shorter values would match ordinary text; tokens are 43 characters.
  if (secret !== undefined && secret.length >= 8) secrets.add(secret);
}

/** `text` without the registered secrets or anything shaped like a credential. */
export function redactLogText(text: string): string {
  return redactSecrets(text, secrets);
}

interface Flushable extends DestinationStream {
  flush?(cb?: (err?: Error) => void): void;
  flushSync?(): void;
}

/** Wraps `stream` so each line is redacted before it is written; flushing passes through. */
export function redactingStream(stream: Flushable): Flushable {
  return {
    write: (line: string) => stream.write(redactLogText(line)),
    flush: (cb?: (err?: Error) => void) => (stream.flush ? stream.flush(cb) : cb?.()),
    flushSync: () => stream.flushSync?.(),
  };
}

/** A `req` logged as such: method, redacted URL and headers; never the socket or body. */
function requestSerializer(req: unknown): unknown {
  if (req === null || typeof req !== 'object') return req;
  const url = 'url' in req ? req.url : undefined;
  return {
    method: 'method' in req ? req.method : undefined,
    url: typeof url === 'string' ? redactRequestUrl(url) : url,
    headers: redactHeaders('headers' in req ? req.headers : undefined),
  };
}

/** A logger whose lines carry `component` (`fleetyard`, or a thread's, e.g. `controller-manager`). */
export function createLogger(
  level: LogLevel = 'info',
  component = 'fleetyard',
  destination: Flushable = pino.destination({ fd: 2, sync: false }),
): Logger {
  return pino(
    {
      level,
      base: { component },
      redact: { paths: [...LOG_REDACT_PATHS], censor: REDACTED },
      serializers: { headers: redactHeaders, req: requestSerializer },
    },
    redactingStream(destination),
  );
}
