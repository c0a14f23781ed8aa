/**
 * The value sets of `fleetyard up`'s flags that have one, apart from the flag table
 * (up-flag-table.ts) because the controller thread checks its start data against them and
 * should not load what the table imports to show other modules' defaults.
 *
 * @module
 */
import type { DefaultStorageClass } from '../sim/storage/index.js';
import type { LogFormat, LogLevel } from '../util/log.js';

/** `--log-level`'s values (pino's levels, and `silent`). */
export const LOG_LEVELS = [
  'debug',
  'info',
  'warn',
  'error',
  'silent',
] as const satisfies readonly LogLevel[];

/** `--log-format`'s values: JSON lines for programs, human lines (util/log-format.ts). */
export const LOG_FORMATS = ['json', 'text'] as const satisfies readonly LogFormat[];

/** `--default-storage-class`'s values. */
export const STORAGE_CLASSES = [
  'standard',
  'ebs',
  'none',
] as const satisfies readonly DefaultStorageClass[];

/** `--dashboard`'s values. */
export const DASHBOARD_SWITCH = ['true', 'false'] as const;

/** `--clock`'s values. */
export const CLOCK_MODES = ['real', 'virtual'] as const;
