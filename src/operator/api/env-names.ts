/**
 * Which `CELLD_*` variables a user may set on a fleet. The operator renders the variables that
 * identify a member, name its bucket and bound its shutdown; a user value for one of them would
 * silently change durability or identity, so the API refuses them outright (docs/design/operator-api.md §1.3).
 * The CEL rules in the fleet schema are generated from these lists, and `envNameProblem` is
 * the same check for code that builds specs.
 *
 * @module
 */

/** The only shape a user variable may have. */
export const ENV_NAME_PATTERN = '^CELLD_[A-Z][A-Z0-9_]*$';

/** Variables the operator always sets itself. */
export const RESERVED_ENV_NAMES: readonly string[] = [
  'CELLD_NODE',
  'CELLD_ADVERTISE',
  'CELLD_BUCKET',
  'CELLD_DURABILITY',
  'CELLD_ADDR',
  'CELLD_INTERNAL_ADDR',
  'CELLD_WATCH',
  'CELLD_TTL_MS',
  'CELLD_SHUTDOWN_TOTAL_MS',
  'CELLD_TOKIO_THREADS',
  'CELLD_MAX_RESIDENT_CELLS',
  'CELLD_IDLE_EVICT_S',
];

/** Families owned by the runtime or the operator (re-exec, telemetry, export, unsafe/test knobs). */
export const RESERVED_ENV_PREFIXES: readonly string[] = [
  'CELLD_REEXEC_',
  'CELLD_OTEL',
  'CELLD_EXPORT',
  'CELLD_UNSAFE_',
  'CELLD_TEST_',
  'CELLD_STRICT_',
];

export const ENV_NAME_MESSAGE = `env names must match ${ENV_NAME_PATTERN}`;
export const ENV_RESERVED_MESSAGE = 'env name is reserved: the operator sets it';
export const ENV_RESERVED_PREFIX_MESSAGE = `env names must not start with ${RESERVED_ENV_PREFIXES.join(', ')}`;

/** The message the API server would give for `name`, or undefined when it is allowed. */
export function envNameProblem(name: string): string | undefined {
  if (!new RegExp(ENV_NAME_PATTERN).test(name)) return ENV_NAME_MESSAGE;
  if (RESERVED_ENV_NAMES.includes(name)) return ENV_RESERVED_MESSAGE;
  if (RESERVED_ENV_PREFIXES.some((p) => name.startsWith(p))) return ENV_RESERVED_PREFIX_MESSAGE;
  return undefined;
}

/** A CEL list literal of `values`, for rules generated from the lists above. */
export function celStringList(values: readonly string[]): string {
  return `[${values.map((v) => `'${v}'`).join(', ')}]`;
}
