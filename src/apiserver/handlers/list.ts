/**
 * LIST: one prefix scan of the in-memory state, filtered by selectors, optionally paginated
 * with `limit`/`continue` on a consistent snapshot (the continue token carries the revision
 * of the first page; later pages are served as of that revision, or 410 once it is
 * compacted). Items are the stored JSON, never re-encoded, written in ~64 KiB Buffers
 * (list-body.ts).
 *
 * @module
 */
import type { ServerResponse } from 'node:http';
import { badRequest, resourceExpired } from '../../api/errors.js';
import { isJsonObject } from '../../api/object.js';
import { apiVersionOf, type ResourceDefinition } from '../../api/resource.js';
import { CompactedError, FutureRevisionError, type ListResult } from '../../storage/backend.js';
import { sendJson } from '../http/respond.js';
import { parseRequestSelector } from '../selectors.js';
import { attributesOf } from '../store/attributes.js';
import { listPrefix } from '../store/keys.js';
import { decodeObjectJson } from '../store/object-json.js';
import type { ApiServices, ResourceCall } from './context.js';
import { canSendListInChunks, sendListChunks } from './list-body.js';
import { parseResourceVersion, tooLargeFor } from './resource-version.js';
import { servedValue } from './served-version.js';
import { sendTable, tableRequest } from './table.js';

interface ContinueToken {
  readonly rv: number;
  readonly start: string;
}

const EXPIRED_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

export async function handleList(api: ApiServices, call: ResourceCall): Promise<void> {
  const { def, query } = call;
  const selector = parseRequestSelector(def, query);
  const prefix = listPrefix(def, call.info.namespace);
  const limit = parseLimit(query.get('limit'));
  const cont = query.get('continue') ?? '';
  const rv = parseResourceVersion(query.get('resourceVersion'));
  let revision: number | undefined;
  let startAfter: string | undefined;
  if (cont !== '') {
    const token = decodeContinue(cont, prefix);
    revision = token.rv;
    startAfter = token.start;
  } else if (query.get('resourceVersionMatch') === 'Exact' && rv !== undefined) {
    revision = rv;
  } else if (rv !== undefined && rv > api.backend.currentRevision()) {
    throw tooLargeFor(rv, api.backend.currentRevision());
  }
  let result: ListResult;
  try {
    result = api.backend.list(prefix, {
      ...(revision !== undefined ? { revision } : {}),
      ...(startAfter !== undefined ? { startAfter } : {}),
      limit,
      ...(selector.empty ? {} : { filter: (kv) => selector.matches(attributesOf(def, kv)) }),
    });
  } catch (e) {
    if (e instanceof CompactedError) {
      throw resourceExpired(
        cont !== ''
          ? EXPIRED_CONTINUE
          : `too old resource version: ${e.requested} (${e.compacted})`,
      );
    }
    if (e instanceof FutureRevisionError) throw tooLargeFor(e.requested, e.current);
    throw e;
  }
  const table = await tableRequest(call);
  if (table === undefined) {
    sendList(call.res, def, result);
    return;
  }
  sendTable(
    api,
    call,
    table,
    result.items.map((kv) => decodeObjectJson(def, servedValue(def, kv))),
    listMeta(result),
  );
}

/** `{"kind":"PodList",…,"items":[…]}` around the stored JSON of each item. */
export function renderList(def: ResourceDefinition, result: ListResult): string {
  const meta = listMeta(result);
  return listJson(
    def,
    meta,
    result.items.map((kv) => servedValue(def, kv)),
  );
}

/**
 * Answers with the list: the same bytes as `sendJson(res, 200, renderList(def, result))`,
 * written as ~64 KiB Buffers when the request allows it (list-body.ts).
 */
export function sendList(res: ServerResponse, def: ResourceDefinition, result: ListResult): void {
  const meta = listMeta(result);
  const items = result.items.map((kv) => servedValue(def, kv));
  if (canSendListInChunks(res)) sendListChunks(res, listHead(def, meta), items);
  else sendJson(res, 200, listJson(def, meta, items));
}

/** A list's metadata, in upstream's field order. */
type ListMeta = { resourceVersion: string; continue?: string; remainingItemCount?: number };

/** A list's metadata: its revision, and where the next page starts when there is one. */
function listMeta(result: ListResult): ListMeta {
  const resourceVersion = String(result.revision);
  const last = result.items.at(-1);
  if (!result.more || last === undefined) return { resourceVersion };
  return {
    resourceVersion,
    continue: encodeContinue({ rv: result.revision, start: last.key }),
    remainingItemCount: result.remaining,
  };
}

/** A typed list around items that are already JSON text (stored objects are never re-encoded). */
export function listJson(
  def: ResourceDefinition,
  metadata: Record<string, unknown>,
  itemsJson: readonly string[],
): string {
  return `${listHead(def, metadata)}${itemsJson.join(',')}]}`;
}

/** A list's JSON up to and including `"items":[`. */
function listHead(def: ResourceDefinition, metadata: Record<string, unknown>): string {
  return `{"kind":${JSON.stringify(def.listKind)},"apiVersion":${JSON.stringify(apiVersionOf(def))},"metadata":${JSON.stringify(metadata)},"items":[`;
}

function parseLimit(text: string | null): number {
  if (text === null || text === '') return 0;
  const n = Number(text);
  if (!Number.isInteger(n)) throw badRequest(`invalid limit: ${JSON.stringify(text)}`);
  return Math.max(n, 0);
}

function encodeContinue(t: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: t.rv, start: t.start })).toString(
    'base64url',
  );
}

function decodeContinue(text: string, prefix: string): ContinueToken {
  try {
    const t: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (
      isJsonObject(t) &&
      t.v === 'meta.k8s.io/v1' &&
      typeof t.rv === 'number' &&
      typeof t.start === 'string' &&
      t.start.startsWith(prefix)
    ) {
      return { rv: t.rv, start: t.start };
    }
  } catch {
    // falls through to the 400 below
  }
  throw badRequest(
    'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
  );
}
