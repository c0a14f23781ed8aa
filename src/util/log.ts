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

export function createLogger(level: LogLevel = 'info'): Logger {
  return pino(
    { level, base: { component: 'fleetyard' }, redact: [...LOG_REDACT_PATHS] },
    pino.destination({ fd: 2, sync: false }),
  );
}
