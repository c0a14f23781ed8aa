/**
 * The Timeline's rows: every recorded change and every Event on one time axis. A change of a
 * core Event object becomes one `Event` row about its `involvedObject` (so filtering by an
 * object shows what happened to it and what was said about it); Event deletions (TTL
 * expiry) are not shown.
 *
 * Rows are derived once per history entry and cached (20,000 entries ≈ 20,000 small
 * objects); filtering is one linear pass per keystroke, and the view renders only a page.
 *
 * @module
 */
import { nodeState, podReady } from './cluster-map.js';
import { at, type Change, type KubeObject, str } from './json.js';

export type EntryType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'Event';

export interface TimelineEntry {
  readonly seq: number;
  readonly timeMs: number;
  readonly type: EntryType;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  /** `ns/name` or `name`. */
  readonly target: string;
  readonly summary: string;
  readonly warning: boolean;
  readonly group: string;
  readonly resource: string;
}

export interface TimelineFilter {
  readonly namespace: string;
  readonly kind: string;
  readonly object: string;
}

function describe(change: Change): string {
  const o = change.object;
  if (change.type === 'DELETED') return 'deleted';
  switch (o.kind) {
    case 'Pod': {
      const phase = str(o, 'status', 'phase') ?? 'Pending';
      const node = str(o, 'spec', 'nodeName');
      const term = o.metadata.deletionTimestamp !== undefined ? ', terminating' : '';
      return `${phase}, ${podReady(o) ? 'ready' : 'not ready'}${node === undefined ? '' : ` on ${node}`}${term}`;
    }
    case 'Node':
      return nodeState(o);
    case 'PersistentVolumeClaim':
    case 'PersistentVolume':
      return str(o, 'status', 'phase') ?? 'Pending';
    case 'CelldFleet':
      return str(o, 'status', 'state') ?? '';
    default: {
      const ready = at(o, 'status', 'readyReplicas');
      const replicas = at(o, 'spec', 'replicas');
      return typeof replicas === 'number'
        ? `${typeof ready === 'number' ? ready : 0}/${replicas} ready`
        : '';
    }
  }
}

function target(namespace: string, name: string): string {
  return namespace === '' ? name : `${namespace}/${name}`;
}

export function timelineEntry(change: Change, timeMs: number): TimelineEntry | undefined {
  const o: KubeObject = change.object;
  if (change.group === '' && change.resource === 'events') {
    if (change.type === 'DELETED') return undefined;
    const inv = at(o, 'involvedObject') ?? at(o, 'regarding');
    const namespace = str(inv, 'namespace') ?? '';
    const name = str(inv, 'name') ?? '';
    const type = str(o, 'type') ?? 'Normal';
    return {
      seq: change.seq,
      timeMs,
      type: 'Event',
      kind: str(inv, 'kind') ?? '',
      namespace,
      name,
      target: target(namespace, name),
      summary: `${type} ${str(o, 'reason') ?? ''}: ${str(o, 'message') ?? str(o, 'note') ?? ''}`,
      warning: type === 'Warning',
      group: change.group,
      resource: change.resource,
    };
  }
  const namespace = o.metadata.namespace ?? '';
  return {
    seq: change.seq,
    timeMs,
    type: change.type,
    kind: o.kind ?? change.resource,
    namespace,
    name: o.metadata.name,
    target: target(namespace, o.metadata.name),
    summary: describe(change),
    warning: change.type === 'DELETED',
    group: change.group,
    resource: change.resource,
  };
}

/** Rows for entries appended since the last call; keeps the derived rows across calls. */
export class TimelineRows {
  private readonly rows: TimelineEntry[] = [];
  private consumed = 0;
  readonly namespaces = new Set<string>();
  readonly kinds = new Set<string>();

  update(entries: readonly Change[], timeOf: (index: number) => number): readonly TimelineEntry[] {
    for (; this.consumed < entries.length; this.consumed++) {
      const change = entries[this.consumed];
      if (change === undefined) continue;
      const row = timelineEntry(change, timeOf(this.consumed));
      if (row === undefined) continue;
      this.rows.push(row);
      if (row.namespace !== '') this.namespaces.add(row.namespace);
      if (row.kind !== '') this.kinds.add(row.kind);
    }
    return this.rows;
  }
}

/** Matching rows, newest first, at most `limit`; `total` counts every match. */
export function filterTimeline(
  rows: readonly TimelineEntry[],
  filter: TimelineFilter,
  limit: number,
): { readonly shown: TimelineEntry[]; readonly total: number } {
  const needle = filter.object.trim().toLowerCase();
  const shown: TimelineEntry[] = [];
  let total = 0;
  for (let i = rows.length - 1; i >= 0; i--) {
    const r = rows[i];
    if (r === undefined) continue;
    if (filter.namespace !== '' && r.namespace !== filter.namespace) continue;
    if (filter.kind !== '' && r.kind !== filter.kind) continue;
    if (needle !== '' && !r.target.toLowerCase().includes(needle)) continue;
    total++;
    if (shown.length < limit) shown.push(r);
  }
  return { shown, total };
}
