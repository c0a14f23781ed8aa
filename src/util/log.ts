/**
 * Structured logs: a constant message plus key/values (controller-runtime's rule), on stderr
 * so stdout stays for the `fleetyard ready` line: JSON lines, or human lines (log-format.ts)
 * with the `text` format (`fleetyard up --log-format`, a terminal's default there).
 *
 * No credential is ever written: request headers are not logged (they carry the bearer
 * token), the `headers`/`req` fields lose their credential headers, and every finished line
 * goes through `redactSecrets` (util/redact.ts) before it reaches stderr, which removes
 * the secrets registered with {@link addLogSecret} (the token of `up`, of a kubeconfig) and
 * anything shaped like a credential. Scanning each line costs ~2 µs (a few `includes` and
 * regular expressions over ~200 bytes); at debug level that is one line per request. A human
 * line is redacted too, as JSON and again as text (log-format.ts `humanStream`).
 *
 * @module
 */
import { isatty } from 'node:tty';
import pino, { type DestinationStream, type Logger } from 'pino';
import { colorsEnabled, humanStream, type LogFormat, type LogStyle } from './log-format.js';
import { LOG_REDACT_PATHS, REDACTED, redactHeaders, redactSecrets } from './redact.js';
import { redactRequestUrl } from './redact-url.js';

export type { LogFormat, Logger };

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/**
 * Secrets this thread knows, removed from every line of every logger of the thread. A worker
 * thread has its own set (module state is per thread): it registers what it was given.
 */
const secrets = new Set<string>();

/** Never log `secret` (a token), in any logger of this thread, from now on. */
export function addLogSecret(secret: string | undefined): void {
  // Shorter values would match ordinary text; tokens are 43 characters.
  if (secret === undefined || secret.length < 8) return;
  secrets.add(secret);
  // As a JSON line (and a quoted human value) writes it, should it hold a quote, a
  // backslash or a control character: `a"b` is `a\"b` there.
  const escaped = JSON.stringify(secret).slice(1, -1);
  if (escaped !== secret) secrets.add(escaped);
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

/**
 * The environment variable naming the default log format (`json` or `text`) of a logger
 * created without one. `fleetyard up` sets it to its `--log-format` (up-command.ts) because
 * the controller thread creates its own logger and a worker's `process.env` is a copy of the
 * main thread's at its start; a person may set it for `fleetyard controllers` and `operator`.
 */
export const LOG_FORMAT_ENV = 'FLEETYARD_LOG_FORMAT';

/** The format `env` names ({@link LOG_FORMAT_ENV}), or undefined when unset or unknown. */
export function logFormatFromEnv(env: NodeJS.ProcessEnv): LogFormat | undefined {
  const value = env[LOG_FORMAT_ENV];
  return value === 'json' || value === 'text' ? value : undefined;
}

/** How a logger writes its lines: the format, and for `text` how the human lines look. */
export interface LogOutput {
  /** @default the {@link LOG_FORMAT_ENV} variable's, else `json` */
  readonly format?: LogFormat;
  /**
   * For `text`. @default colors per NO_COLOR/FORCE_COLOR and whether stderr (fd 2) is a
   * terminal, local time, the line erased first on a terminal
   */
  readonly style?: LogStyle;
}

/** A logger whose lines carry `component` (`fleetyard`, or a thread's, e.g. `controller-manager`). */
export function createLogger(
  level: LogLevel = 'info',
  component = 'fleetyard',
  destination: Flushable = pino.destination({ fd: 2, sync: false }),
  output: LogOutput = {},
): Logger {
  const format = output.format ?? logFormatFromEnv(process.env) ?? 'json';
  return pino(
    {
      level,
      base: { component },
      redact: { paths: [...LOG_REDACT_PATHS], censor: REDACTED },
      serializers: { headers: redactHeaders, req: requestSerializer },
    },
    format === 'text'
      ? humanStream(destination, output.style ?? stderrStyle(), redactLogText)
      : redactingStream(destination),
  );
}

/**
 * Human lines for stderr: colored as Node would color it; on a terminal each line first
 * erases a progress line parked there. `isatty(2)` rather than `process.stderr.isTTY`: it
 * also answers in a worker thread, whose `process.stderr` is a pipe to the main thread
 * while its logger writes to fd 2 itself.
 */
function stderrStyle(): LogStyle {
  const terminal = isatty(2);
  return { colors: colorsEnabled(process.env, terminal), eraseLine: terminal };
}
