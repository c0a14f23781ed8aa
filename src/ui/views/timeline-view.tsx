/**
 * Timeline: every recorded change and Event on one time axis, newest first, filterable by
 * namespace, kind and object; a slider scrubs the whole app back in time (every view then
 * renders the history replayed to that time) and Live returns to the present.
 *
 * 20,000 entries stay fast because rows are derived once per entry and only a page
 * (`PAGE` rows, more on request) is rendered.
 *
 * @module
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { clusterNowMs, formatClusterTime } from '../data/clock.js';
import type { HistoryReplay } from '../data/history.js';
import { objectHref } from '../data/relations.js';
import { filterTimeline, type TimelineEntry, TimelineRows } from '../data/timeline.js';
import { loadHistory } from '../history-loader.js';
import {
  asOf,
  clock,
  history,
  historyStatus,
  historyVersion,
  liveStore,
  wallNow,
} from '../state.js';
import { Empty } from './common.js';

const PAGE = 200;
const rowsOf = new WeakMap<HistoryReplay, TimelineRows>();

function rowsFor(h: HistoryReplay): TimelineRows {
  let rows = rowsOf.get(h);
  if (rows === undefined) {
    rows = new TimelineRows();
    rowsOf.set(h, rows);
  }
  return rows;
}

function Entry(props: { readonly e: TimelineEntry; readonly future: boolean }) {
  const e = props.e;
  const ref =
    e.type === 'Event'
      ? liveStore.value.kinds.get(e.kind)
      : { group: e.group, resource: e.resource };
  return (
    <li
      class={`tl${e.warning ? ' ev-warn' : ''}${props.future ? ' future' : ''}`}
      data-testid="timeline-entry"
      data-type={e.type}
      data-kind={e.kind}
      data-name={e.target}
      data-seq={e.seq}
    >
      <time class="muted">{formatClusterTime(e.timeMs)}</time>{' '}
      <span class={`badge t-${e.type}`}>{e.type}</span> <span class="kind">{e.kind}</span>{' '}
      {ref === undefined || e.name === '' ? (
        e.target
      ) : (
        <a href={objectHref(ref, e.namespace, e.name)}>{e.target}</a>
      )}{' '}
      <span class="summary">{e.summary}</span>
    </li>
  );
}

function Scrub(props: { readonly h: HistoryReplay }) {
  const c = clock.value;
  const liveNow = c === undefined ? props.h.lastMs : clusterNowMs(c, wallNow.value);
  const min = props.h.startMs;
  const max = Math.max(min, props.h.lastMs, liveNow);
  const value = asOf.value ?? max;
  const onScrub = (e: Event) => {
    const v = Number((e.currentTarget as HTMLInputElement).value);
    if (Number.isFinite(v)) asOf.value = v;
  };
  return (
    <div class="scrub">
      <label for="scrub">Time</label>
      <input
        id="scrub"
        type="range"
        data-testid="scrub"
        min={min}
        max={max}
        step={1}
        value={value}
        onInput={onScrub}
        onChange={onScrub}
        aria-valuetext={formatClusterTime(value)}
      />
      <span class="muted">
        {formatClusterTime(min)} – {formatClusterTime(max)}
      </span>
    </div>
  );
}

export function TimelineView() {
  const h = history.value;
  historyVersion.value;
  const status = historyStatus.value;
  const ns = useSignal('');
  const kind = useSignal('');
  const obj = useSignal('');
  const limit = useSignal(PAGE);
  useEffect(() => {
    // Loads on first visit, and again after a reconnect dropped the old history.
    if (h === undefined) void loadHistory();
  }, [h]);
  if (h === undefined) {
    return (
      <div>
        <h1 class="view-title">Timeline</h1>
        {status.state === 'error' ? (
          <p class="error-text">Could not load the history: {status.message}</p>
        ) : (
          <Empty>Loading the history…</Empty>
        )}
      </div>
    );
  }
  const rows = rowsFor(h);
  const scrubbedTo = asOf.value;
  const all = rows.update(h.all(), (i) => h.timeOf(i));
  const { shown, total } = filterTimeline(
    all,
    { namespace: ns.value, kind: kind.value, object: obj.value },
    limit.value,
  );
  return (
    <div>
      <h1 class="view-title">Timeline</h1>
      <Scrub h={h} />
      <div class="filters">
        <label>
          Namespace{' '}
          <select
            data-testid="filter-namespace"
            value={ns.value}
            onChange={(e) => (ns.value = e.currentTarget.value)}
          >
            <option value="">all</option>
            {[...rows.namespaces].sort().map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <label>
          Kind{' '}
          <select
            data-testid="filter-kind"
            value={kind.value}
            onChange={(e) => (kind.value = e.currentTarget.value)}
          >
            <option value="">all</option>
            {[...rows.kinds].sort().map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <label>
          Object{' '}
          <input
            type="search"
            data-testid="filter-object"
            placeholder="name contains"
            value={obj.value}
            onInput={(e) => (obj.value = e.currentTarget.value)}
          />
        </label>
        <span class="muted" role="status">
          {total} of {all.length} entries
        </span>
      </div>
      {shown.length === 0 ? (
        <Empty>No entries match.</Empty>
      ) : (
        <ol class="timeline" aria-label="changes and events, newest first">
          {shown.map((e) => (
            <Entry key={e.seq} e={e} future={scrubbedTo !== undefined && e.timeMs > scrubbedTo} />
          ))}
        </ol>
      )}
      {total > shown.length && (
        <button type="button" class="more" onClick={() => (limit.value += PAGE)}>
          Show {Math.min(PAGE, total - shown.length)} more (of {total - shown.length})
        </button>
      )}
    </div>
  );
}
