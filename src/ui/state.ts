/**
 * The app's state as signals, and the derived models the views read. Derived models are
 * `computed`: built at most once per batch of changes, and only while a view reads them.
 *
 * "The store the views show" is the live store, or, while the Timeline's slider is scrubbed
 * to a past time, the history replayed to that time: every view reads `shown`, so the whole
 * app shows the past at once.
 *
 * @module
 */
import { computed, signal } from '@preact/signals';
import { type ActionRequest, Actions } from './data/actions.js';
import { Api } from './data/api.js';
import { clusterNowMs } from './data/clock.js';
import { buildClusterMap, type ClusterMapModel } from './data/cluster-map.js';
import { fleetCards } from './data/fleets.js';
import type { HistoryReplay } from './data/history.js';
import type { ClockState, SessionUser } from './data/json.js';
import { parseRoute, type Route } from './data/route.js';
import { buildStorage } from './data/storage.js';
import { ObjectStore } from './data/store.js';
import { workloadRows } from './data/workloads.js';

export type SessionState = 'loading' | 'unauthorized' | 'ready' | 'error';

export const session = signal<SessionState>('loading');
export const sessionError = signal('');
export const user = signal<SessionUser | undefined>(undefined);
export const clock = signal<ClockState | undefined>(undefined);
/** Wall time, ticked once a second so the clock and countdowns move between CLOCK frames. */
export const wallNow = signal(Date.now());
export const connection = signal<{ readonly connected: boolean; readonly reason: string }>({
  connected: false,
  reason: 'connecting',
});

export const liveStore = signal(new ObjectStore());
/** Bumped once per applied batch: the live store is mutated in place. */
export const liveVersion = signal(0);
export const synced = signal(false);

export const history = signal<HistoryReplay | undefined>(undefined);
export const historyVersion = signal(0);
export const historyStatus = signal<{
  readonly state: 'idle' | 'loading' | 'ready' | 'error';
  readonly message: string;
}>({
  state: 'idle',
  message: '',
});
/** Cluster ms the app shows while scrubbed; undefined: live. */
export const asOf = signal<number | undefined>(undefined);

export const route = signal<Route>(
  parseRoute(typeof location === 'undefined' ? '' : location.hash),
);

export interface Alert {
  readonly id: number;
  readonly message: string;
}
export const alerts = signal<readonly Alert[]>([]);
export const notice = signal('');

export const api = new Api((input, init) => fetch(input, init));

/** The store the views show, with a fresh identity per change so computeds re-run. */
export const shown = computed(() => {
  const t = asOf.value;
  const h = history.value;
  if (t !== undefined && h !== undefined) {
    historyVersion.value;
    return { store: h.storeAt(t), live: false, version: -1 };
  }
  return { store: liveStore.value, live: true, version: liveVersion.value };
});

/** Cluster time now (live), or the scrubbed time. */
export const clusterNow = computed(() => {
  const t = asOf.value;
  if (t !== undefined) return t;
  const c = clock.value;
  return c === undefined ? wallNow.value : clusterNowMs(c, wallNow.value);
});

let previousMap: ClusterMapModel | undefined;
export const clusterMap = computed(() => {
  previousMap = buildClusterMap(shown.value.store, previousMap);
  return previousMap;
});
export const workloads = computed(() => workloadRows(shown.value.store));
export const storage = computed(() => buildStorage(shown.value.store));
export const fleets = computed(() => fleetCards(shown.value.store));

let alertId = 0;
export function showAlert(message: string): void {
  alertId++;
  alerts.value = [...alerts.value.slice(-2), { id: alertId, message }];
}

export function dismissAlert(id: number): void {
  alerts.value = alerts.value.filter((a) => a.id !== id);
}

const actions = new Actions(api, () => liveStore.value);

/** Runs an action against the live cluster; a failure becomes an alert with the server's message. */
export async function runAction(req: ActionRequest): Promise<void> {
  try {
    notice.value = await actions.run(req);
  } catch (err) {
    showAlert(err instanceof Error ? err.message : String(err));
  }
}

/** Runs any API call the same way (clock controls). */
export async function runCall(what: string, call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
    notice.value = what;
  } catch (err) {
    showAlert(err instanceof Error ? err.message : String(err));
  }
}
