/**
 * The CEL environments rules compile in: one base environment with the Kubernetes libraries,
 * cloned per declared type of `self` (and `oldSelf`, plain or optional). Building an
 * environment costs far more than cloning one, so both are cached.
 *
 * @module
 */
import { Environment } from '@marcbachmann/cel-js';
import { registerLists } from './library/lists.js';
import { registerQuantity } from './library/quantity.js';
import { registerRegex } from './library/regex.js';
import { registerSets } from './library/sets.js';
import { registerStrings } from './library/strings.js';
import { registerUrls } from './library/urls.js';

/** Upstream's variable names. */
export const SELF = 'self';
export const OLD_SELF = 'oldSelf';

let base: Environment | undefined;

/** The environment every rule environment derives from (built once). */
export function baseEnvironment(): Environment {
  if (base) return base;
  // Optionals on (Kubernetes enables cel.OptionalTypes); list and map literals must be
  // homogeneous, as upstream's cel.HomogeneousAggregateLiterals.
  const env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: true });
  registerStrings(env);
  registerLists(env);
  registerRegex(env);
  registerUrls(env);
  registerQuantity(env);
  registerSets(env);
  base = env;
  return env;
}

const byType = new Map<string, Environment>();
const CACHE_LIMIT = 512;

/** An environment with `self: selfType` and `oldSelf: selfType` (or `optional<selfType>`). */
export function ruleEnvironment(selfType: string, optionalOldSelf: boolean): Environment {
  const key = `${optionalOldSelf ? '?' : ''}${selfType}`;
  const hit = byType.get(key);
  if (hit) return hit;
  const oldType = optionalOldSelf ? `optional<${selfType}>` : selfType;
  const env = baseEnvironment()
    .clone()
    .registerVariable(SELF, selfType)
    .registerVariable(OLD_SELF, oldType);
  if (byType.size >= CACHE_LIMIT) byType.clear();
  byType.set(key, env);
  return env;
}
