/**
 * Names upstream derives from a resource: the OpenAPI v3 document key of a group-version
 * (`api/v1`, `apis/apps/v1`), REST paths, operation ids and tags (apiserver
 * `endpoints/openapi.GetOperationIDAndTags`: `patchAppsV1NamespacedDeployment`, tag
 * `apps_v1`), and the component names of custom resources (apiextensions-apiserver's
 * builder: group reversed, `com.example.v1.Widget`).
 *
 * @module
 */
import type { ResourceDefinition } from '../../api/resource.js';

/** `api/v1` for the core group, else `apis/<group>/<version>`: keys of the v3 root document. */
export function groupVersionKey(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}

/** REST prefix of a group-version: `/api/v1`, `/apis/apps/v1`. */
export function apiPrefix(def: Pick<ResourceDefinition, 'group' | 'version'>): string {
  return `/${groupVersionKey(def.group, def.version)}`;
}

/**
 * Upstream's `ToValidOperationID`: keeps letters, underscores and (not first) digits; any
 * other character is dropped and capitalises the next kept one (`example.com` → `exampleCom`).
 */
export function toOperationIdPart(text: string, capitalizeFirst: boolean): string {
  let out = '';
  let capitalize = capitalizeFirst;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const letter = c.toLowerCase() !== c.toUpperCase() || c === '_';
    const digit = c >= '0' && c <= '9' && i !== 0;
    if (!letter && !digit) {
      capitalize = true;
      continue;
    }
    out += capitalize ? c.toUpperCase() : c;
    capitalize = false;
  }
  return out;
}

/** The group as operation ids spell it: `core`, `apps`, `events` (`.k8s.io` dropped), `exampleCom`. */
function groupWord(group: string, capitalize: boolean): string {
  const g = group === '' ? 'core' : group.replace(/\.k8s\.io$/, '');
  return toOperationIdPart(g, capitalize);
}

/** The tag of every operation of a group-version: `core_v1`, `apps_v1`, `exampleCom_v1`. */
export function operationTag(def: Pick<ResourceDefinition, 'group' | 'version'>): string {
  return `${groupWord(def.group, false)}_${toOperationIdPart(def.version, false)}`;
}

/**
 * An operation id: the verb, then group and version, then the rest of the installer's
 * operation name (`patch` + `AppsV1` + `NamespacedDeployment`). `deleteCollection…` keeps
 * `Collection` after the group, as upstream's verb-prefix match does
 * (`deleteAppsV1CollectionNamespacedDeployment`).
 */
export function operationId(
  def: Pick<ResourceDefinition, 'group' | 'version'>,
  verb: string,
  rest: string,
): string {
  return `${verb}${groupWord(def.group, true)}${toOperationIdPart(def.version, true)}${rest}`;
}

/** `com.example.v1.Widget` for group `example.com`: upstream's REST-friendly definition name. */
export function customResourceComponentName(group: string, version: string, kind: string): string {
  const reversed = group.split('.').reverse().join('.');
  return `${reversed}.${version}.${kind}`;
}
