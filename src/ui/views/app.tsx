/**
 * The app shell: header (brand, clock bar, user), nav, the as-of bar while scrubbed, action
 * alerts, and the routed view in `main`. Before a session exists it shows only the
 * login-required page.
 *
 * @module
 */
import { useLayoutEffect } from 'preact/hooks';
import { formatClusterTime } from '../data/clock.js';
import { VIEWS, type ViewName } from '../data/route.js';
import {
  alerts,
  api,
  asOf,
  connection,
  dismissAlert,
  notice,
  route,
  runCall,
  session,
  sessionError,
  synced,
  user,
} from '../state.js';
import { ClockBar } from './clock-bar.js';
import { FleetsView } from './fleets-view.js';
import { MapView } from './map-view.js';
import { ObjectView } from './object-view.js';
import { StorageView } from './storage-view.js';
import { TimelineView } from './timeline-view.js';
import { WorkloadsView } from './workloads-view.js';

const TITLES: Readonly<Record<ViewName, string>> = {
  map: 'Cluster map',
  workloads: 'Workloads',
  storage: 'Storage',
  fleets: 'Fleets',
  timeline: 'Timeline',
};

async function logout(): Promise<void> {
  await runCall('signed out', () => api.post('/ui/api/logout', {}));
  session.value = 'unauthorized';
}

function LoginRequired() {
  return (
    <main class="login" data-testid="login-required">
      <h1>fleetyard</h1>
      <p>You are not signed in to this dashboard, or your session has ended.</p>
      <p>
        Open the login link <code>fleetyard up</code> printed, or run{' '}
        <code>fleetyard dashboard</code> for a new one.
      </p>
    </main>
  );
}

function Alerts() {
  const list = alerts.value;
  return (
    <div class="alerts">
      {list.map((a) => (
        <div key={a.id} class="alert">
          <span aria-hidden="true">✕</span>
          <p class="alert-text" role="alert">
            {a.message}
          </p>
          <button
            type="button"
            class="dismiss"
            aria-label="Dismiss this message"
            onClick={() => dismissAlert(a.id)}
          >
            Dismiss
          </button>
        </div>
      ))}
    </div>
  );
}

function AsOf() {
  const t = asOf.value;
  if (t === undefined) return null;
  return (
    <div class="asof">
      <span data-testid="as-of">Showing the cluster as of {formatClusterTime(t)}</span>
      <button type="button" data-testid="live" onClick={() => (asOf.value = undefined)}>
        Live
      </button>
    </div>
  );
}

function Routed() {
  const r = route.value;
  switch (r.view) {
    case 'object':
      return <ObjectView r={r} />;
    case 'workloads':
      return <WorkloadsView />;
    case 'storage':
      return <StorageView />;
    case 'fleets':
      return <FleetsView />;
    case 'timeline':
      return <TimelineView />;
    default:
      return <MapView />;
  }
}

export function App() {
  const s = session.value;
  const isSynced = synced.value;
  useLayoutEffect(() => {
    if (isSynced) document.body.dataset.synced = 'true';
  }, [isSynced]);
  if (s === 'unauthorized') return <LoginRequired />;
  if (s === 'loading') return <p class="empty">Loading…</p>;
  if (s === 'error') {
    return (
      <main class="login">
        <h1>fleetyard</h1>
        <p class="error-text">The dashboard could not start: {sessionError.value}</p>
      </main>
    );
  }
  const current = route.value.view;
  const conn = connection.value;
  return (
    <>
      <header class="top">
        <a class="brand" href="#/map">
          fleetyard
        </a>
        <ClockBar />
        <span class="user">
          <span class="sr-only">Signed in as </span>
          <span data-testid="user">{user.value?.username ?? ''}</span>{' '}
          <button type="button" class="act" onClick={() => void logout()}>
            Sign out
          </button>
        </span>
      </header>
      <nav class="nav" aria-label="Views">
        {VIEWS.map((v) => (
          <a
            key={v}
            href={`#/${v}`}
            data-view={v}
            aria-current={current === v ? 'page' : undefined}
          >
            {TITLES[v]}
          </a>
        ))}
      </nav>
      <AsOf />
      <Alerts />
      <div class="status-line" role="status">
        {!conn.connected && synced.value ? `Reconnecting: ${conn.reason}` : notice.value}
      </div>
      <main id="main">
        <Routed />
      </main>
    </>
  );
}
