/**
 * Fetches `/ui/api/history` once, when the Timeline first needs it (it can hold tens of
 * thousands of entries), and keeps it growing with the live changes after it.
 *
 * @module
 */
import { errorMessage } from './data/api.js';
import { HistoryReplay } from './data/history.js';
import { type Change, isChange, isJsonObject } from './data/json.js';
import { history, historyStatus, historyVersion } from './state.js';

let loading: Promise<void> | undefined;
/** Live changes that arrived while the history was loading; appended after it. */
let buffered: Change[] = [];

export function loadHistory(): Promise<void> {
  if (history.value !== undefined) return Promise.resolve();
  loading ??= fetchHistory().finally(() => {
    loading = undefined;
  });
  return loading;
}

async function fetchHistory(): Promise<void> {
  historyStatus.value = { state: 'loading', message: '' };
  buffered = [];
  try {
    const res = await fetch('/ui/api/history', {
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
    });
    if (!res.ok) throw new Error(await errorMessage(res));
    const body: unknown = await res.json();
    if (!isJsonObject(body) || typeof body.start !== 'string' || !Array.isArray(body.entries)) {
      throw new Error('the history is not in the expected shape');
    }
    const entries: Change[] = [];
    const raw: readonly unknown[] = body.entries;
    for (const e of raw) if (isChange(e)) entries.push(e);
    const replay = new HistoryReplay({
      start: body.start,
      seq: typeof body.seq === 'number' ? body.seq : 0,
      entries,
    });
    replay.append(buffered);
    buffered = [];
    history.value = replay;
    historyStatus.value = { state: 'ready', message: '' };
  } catch (err) {
    historyStatus.value = {
      state: 'error',
      message: err instanceof Error ? err.message : String(err),
    };
  }
}

/** Live changes: appended to the history when it is loaded (or buffered while it loads). */
export function recordLive(changes: readonly Change[]): void {
  const h = history.value;
  if (h !== undefined) {
    if (changes.length === 0) return;
    h.append(changes);
    historyVersion.value++;
  } else if (loading !== undefined) {
    buffered.push(...changes);
  }
}
