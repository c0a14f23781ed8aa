/**
 * The dashboard's entry: renders the shell, asks `/ui/api/session` who is signed in (a 401
 * shows the login-required page), then runs the stream that feeds every view.
 *
 * @module
 */
import { batch } from '@preact/signals';
import { render } from 'preact';
import { errorMessage } from './data/api.js';
import { isJsonObject } from './data/json.js';
import { parseRoute } from './data/route.js';
import { StreamClient } from './data/stream-client.js';
import { recordLive } from './history-loader.js';
import {
  asOf,
  clock,
  connection,
  history,
  liveStore,
  liveVersion,
  route,
  session,
  sessionError,
  synced,
  user,
  wallNow,
} from './state.js';
import { App } from './views/app.js';

/** Once per animation frame, with a 100 ms fallback for hidden tabs (no animation frames there). */
function schedule(cb: () => void): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    cb();
  };
  requestAnimationFrame(run);
  setTimeout(run, 100);
}

async function start(): Promise<void> {
  addEventListener('hashchange', () => {
    route.value = parseRoute(location.hash);
    window.scrollTo(0, 0);
  });
  setInterval(() => {
    wallNow.value = Date.now();
  }, 1000);
  render(<App />, document.getElementById('app') ?? document.body);

  const client = new StreamClient(
    {
      url: '/ui/api/stream',
      fetch: (input, init) => fetch(input, init),
      schedule,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    },
    {
      onStore(store, changes, isSynced) {
        if (isSynced && !synced.value) performance.mark('fy:store-shown');
        batch(() => {
          if (store !== liveStore.value && history.value !== undefined) {
            // A reconnect: what happened while disconnected is not in the old history.
            history.value = undefined;
            asOf.value = undefined;
          }
          liveStore.value = store;
          liveVersion.value++;
          synced.value = isSynced;
          recordLive(changes);
        });
      },
      onHello(u) {
        if (u !== undefined) user.value = u;
      },
      onClock(c) {
        clock.value = c;
      },
      onUnauthorized() {
        session.value = 'unauthorized';
      },
      onConnection(connected, reason) {
        connection.value = { connected, reason: reason ?? '' };
      },
    },
  );
  // The session and the stream are asked for together: the stream answers 401 as well when
  // there is no session, and waiting for one before the other costs a round trip of paint.
  const running = client.run();
  if (!(await checkSession())) client.stop();
  await running;
}

/** Who is signed in; false when nobody is (the login-required page is shown). */
async function checkSession(): Promise<boolean> {
  try {
    const res = await fetch('/ui/api/session', {
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
    });
    if (res.status === 401) {
      session.value = 'unauthorized';
      return false;
    }
    if (!res.ok) throw new Error(await errorMessage(res));
    const body: unknown = await res.json();
    const u = isJsonObject(body) && isJsonObject(body.user) ? body.user : undefined;
    if (u !== undefined && typeof u.username === 'string') user.value = { username: u.username };
    session.value = 'ready';
    return true;
  } catch (err) {
    sessionError.value = err instanceof Error ? err.message : String(err);
    session.value = 'error';
    return false;
  }
}

void start();
