/**
 * `componentstatuses` (upstream's deprecated, computed resource): GET and LIST answer the
 * objects `api/kinds/core-componentstatus.ts` computes, as JSON or as a Table (`kubectl get
 * cs`), with upstream's deprecation warning; every other verb is 405 MethodNotSupported, as
 * upstream's REST storage implements only Getter and Lister. Nothing is read from the store.
 *
 * @module
 */

import { methodNotSupported, notFound } from '../../api/errors.js';
import {
  COMPONENT_STATUS_VERBS,
  COMPONENT_STATUS_WARNING,
  componentStatuses,
  componentStatusList,
  componentStatusNamed,
} from '../../api/kinds/core-componentstatus.js';
import { groupResource } from '../../api/resource.js';
import { sendJson } from '../http/respond.js';
import type { ApiServices, ResourceCall } from './context.js';
import { sendWarnings } from './strict-decoding.js';
import { sendTable, tableRequest } from './table.js';

/** Whether `call` is for `componentstatuses` (the router hands those here). */
export function isComponentStatusCall(call: ResourceCall): boolean {
  return call.def.group === '' && call.def.plural === 'componentstatuses';
}

export async function handleComponentStatus(api: ApiServices, call: ResourceCall): Promise<void> {
  const { info, def } = call;
  const verb = info.subresource === '' ? info.verb : '';
  if (!COMPONENT_STATUS_VERBS.includes(verb))
    throw methodNotSupported(groupResource(def), info.verb);
  const one = verb === 'get' ? componentStatusNamed(info.name) : undefined;
  if (verb === 'get' && one === undefined) throw notFound(groupResource(def), info.name);
  const objects = one === undefined ? componentStatuses() : [one];
  sendWarnings(call.res, [COMPONENT_STATUS_WARNING]);
  const table = await tableRequest(call);
  if (table !== undefined) {
    sendTable(api, call, table, objects, {});
    return;
  }
  sendJson(call.res, 200, one ?? componentStatusList());
}
