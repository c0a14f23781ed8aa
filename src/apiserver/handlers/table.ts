/**
 * Server-side printing: when the client's Accept asks for `as=Table` (kubectl's human output,
 * `-o wide`, `-w`), GET, LIST and WATCH answer a meta.k8s.io Table built by
 * `src/api/printers/` instead of the objects. Watch events carry one-row Tables; only the
 * first carries the column definitions, as upstream.
 *
 * @module
 */
import { badRequest } from '../../api/errors.js';
import { stringifyJson } from '../../api/int64-json.js';
import type { KubeObject } from '../../api/object.js';
import type { IncludeObject, tableFor } from '../../api/printers/index.js';
import { tableContentType, tableFormat } from '../http/media.js';
import { sendJson } from '../http/respond.js';
import type { ApiServices, ResourceCall } from './context.js';

export interface TableRequest {
  readonly version: 'v1' | 'v1beta1';
  readonly includeObject: IncludeObject;
  readonly contentType: string;
  /** The printers, loaded on the first Table request (they are not on the startup path). */
  readonly tableFor: typeof tableFor;
}

const INCLUDE_OBJECT: readonly IncludeObject[] = ['None', 'Metadata', 'Object'];

/** The Table the request asks for, or undefined for plain objects. */
export async function tableRequest(call: ResourceCall): Promise<TableRequest | undefined> {
  const version = tableFormat(call.accept);
  if (version === undefined) return undefined;
  const raw = call.query.get('includeObject') ?? '';
  const includeObject = raw === '' ? 'Metadata' : INCLUDE_OBJECT.find((v) => v === raw);
  if (includeObject === undefined) {
    throw badRequest(`unrecognized includeObject value: ${JSON.stringify(raw)}`);
  }
  const { tableFor } = await import('../../api/printers/index.js');
  return { version, includeObject, contentType: tableContentType(version), tableFor };
}

export interface TableListMeta {
  readonly resourceVersion?: string;
  readonly continue?: string;
  readonly remainingItemCount?: number;
}

/** A Table's JSON for `objects`, with the apiVersion the client asked for. */
export function tableJson(
  api: ApiServices,
  call: ResourceCall,
  table: TableRequest,
  objects: readonly KubeObject[],
  meta: TableListMeta,
  columnDefinitions = true,
): string {
  const t = table.tableFor(call.def, objects, {
    now: new Date(api.clock.now()),
    includeObject: table.includeObject,
    columnDefinitions,
    ...meta,
  });
  const out = table.version === 'v1' ? t : { ...t, apiVersion: 'meta.k8s.io/v1beta1' };
  return stringifyJson(out);
}

export function sendTable(
  api: ApiServices,
  call: ResourceCall,
  table: TableRequest,
  objects: readonly KubeObject[],
  meta: TableListMeta,
): void {
  sendJson(call.res, 200, tableJson(api, call, table, objects, meta), table.contentType);
}
