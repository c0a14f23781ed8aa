/**
 * The value sets of `fleetyard up`'s flags that have one, apart from the flag table
 * (up-flag-table.ts) because the controller thread checks its start data against them and
 * should not load what the table imports to show other modules' defaults.
 *
 * @module
 */
import type { DefaultStorageClass } from '../sim/storage/index.js';
import type { LogLevel } from '../util/log.js';

/** `--log-level`'s values (pino's levels, and `silent`). */
export const LOG_LEVELS = [
  'debug',
  'info',
  'warn',
  'error',
  'silent',
] as const satisfies readonly LogLevel[];

/** `--default-storage-class`'s values. */
export const STORAGE_CLASSES = [
  'standard',
  'ebs',
  'none',
] as const satisfies readonly DefaultStorageClass[];

/** `--clock`'s values. */
export const CLOCK_MODES = ['real', 'virtual'] as const;
