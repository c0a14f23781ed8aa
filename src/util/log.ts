/**
 * Structured logs: a constant message plus key/values (controller-runtime's rule), JSON
 * lines on stderr so stdout stays for the `fleetyard ready` line. Request headers are never
 * logged (they carry the bearer token), and the redaction paths catch accidents.
 *
 * @module
 */
import pino, { type Logger } from 'pino';
import { LOG_REDACT_PATHS } from '../security/redact.js';

export type { Logger };

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** A logger whose lines carry `component` (`fleetyard`, or a thread's, e.g. `controller-manager`). */
export function createLogger(level: LogLevel = 'info', component = 'fleetyard'): Logger {
  return pino(
    { level, base: { component }, redact: [...LOG_REDACT_PATHS] },
    pino.destination({ fd: 2, sync: false }),
  );
}
