/**
 * The dashboard in Debian's Chromium against the real `fleetyard up` (virtual clock, paused
 * at a fixed start, six nodes, seed 1) and the official kubectl 1.33, as a user meets it:
 * signing in through the one-time link `up` printed (and what the server refuses), the
 * README's walk-through and celld fleet on the cluster map, an action button whose write
 * kubectl sees, a lost volume in the Storage view, a node taken down with `fleetyard chaos`,
 * a fleet member's replacement countdown and its replacement on the timeline, and scrubbing
 * the timeline back to before the node went down. Screenshots, the layout check and axe for
 * every view are in `dashboard-views.test.ts`.
 *
 * The steps build on one cluster in order (each `it` leaves the state the next starts from);
 * every wait is on the page's DOM or on kubectl's answer, never a fixed sleep.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Browser,
  type BrowserContext,
  DESKTOP,
  launchChromium,
  newContext,
  type Page,
} from './testing/browser.js';
import {
  attrs,
  fleetyard,
  newLoginLink,
  origin,
  showView,
  signIn,
  waitFor,
  waitGone,
} from './testing/dashboard-fixtures.js';
import {
  advanceUntilDue,
  applyWalkthrough,
  type FleetPlan,
  getObj,
  isReady,
  list,
  planFleet,
  pvZone,
  SCENARIO_UP_ARGS,
  scrubBefore,
  ZONE_LABEL,
} from './testing/dashboard-scenario.js';
import { type Kubectl, kubectl } from './testing/kubectl.js';
import { clusterForFile, pollUntil } from './testing/kubectl-fixtures.js';

const cluster = clusterForFile({ args: SCENARIO_UP_ARGS, timeoutMs: 30_000 });

let browser: Browser;
let context: BrowserContext;
let page: Page;
let k: Kubectl;
let plan: FleetPlan;
/** The down member's claim's UID before its replacement. */
let oldClaimUid = '';

const INVALID_LINK = 'This login link is invalid or has already been used';

describe('the dashboard', () => {
  before(async () => {
    const kc = kubectl('1.33', cluster().kubeconfig);
    assert.ok(kc, 'kubectl.1.33 is not installed beside the kubectl on the PATH');
    k = kc;
    browser = await launchChromium();
    context = await newContext(browser, DESKTOP);
  });
  after(async () => {
    await browser?.close();
  });

  it('signs in through the one-time link, once, and refuses what has no session', async () => {
    const link = cluster().dashboard?.login;
    assert.ok(link, 'fleetyard up printed no `fleetyard dashboard url=… login=…` line');
    page = await signIn(context, link);
    assert.equal(new URL(page.url()).pathname, '/ui/');
    assert.match((await page.textContent('[data-testid="user"]')) ?? '', /kubernetes-admin/);

    const again = await context.newPage();
    const reused = await again.goto(link);
    assert.equal(reused?.status(), 401, 'a used login link must be refused');
    assert.match((await reused?.text()) ?? '', new RegExp(INVALID_LINK));
    await again.close();
    // `fleetyard dashboard` mints a new link for a running up; it signs a new browser in.
    const second = await newContext(browser, DESKTOP);
    try {
      await signIn(second, await newLoginLink(cluster()));
    } finally {
      await second.close();
    }

    const o = origin(cluster());
    const anonymous = await newContext(browser, DESKTOP);
    try {
      for (const path of ['/ui/api/stream', '/ui/api/history', '/ui/api/session']) {
        const r = await anonymous.request.get(`${o}${path}`);
        assert.equal(r.status(), 401, `${path} without the session cookie`);
      }
      // The API proper, as kube-apiserver: no credential is system:anonymous (403) when
      // anonymous requests are allowed, 401 when they are not; never the admin's pods.
      const pods = await anonymous.request.get(`${o}/api/v1/pods`);
      const body = await pods.text();
      assert.ok(
        pods.status() === 401 || (pods.status() === 403 && body.includes('system:anonymous')),
        `/api/v1/pods without the session cookie: ${pods.status()} ${body}`,
      );
      const stranger = await anonymous.newPage();
      await stranger.goto(`${o}/ui/`);
      await waitFor(stranger, '[data-testid="login-required"]', 'the login-required page');
    } finally {
      await anonymous.close();
    }

    // The session cookie with a foreign Origin (a cross-site form or fetch) must not write;
    // the same request from the dashboard's own origin does.
    const create = (name: string, headers: Record<string, string>) =>
      context.request.post(`${o}/api/v1/namespaces/default/configmaps`, {
        headers: { 'Content-Type': 'application/json', ...headers },
        data: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } }),
      });
    const evil = await create('from-evil', { Origin: 'https://evil.example' });
    assert.ok(
      evil.status() >= 400,
      `foreign Origin answered ${evil.status()} ${await evil.text()}`,
    );
    const crossSite = await create('cross-site', { Origin: o, 'Sec-Fetch-Site': 'cross-site' });
    assert.ok(
      crossSite.status() >= 400,
      `Sec-Fetch-Site: cross-site answered ${crossSite.status()}`,
    );
    const own = await create('from-page', { Origin: o });
    assert.equal(own.status(), 201, `own Origin: ${await own.text()}`);
    const names = (await list(k, 'configmaps')).map((c) => c.metadata.name);
    assert.ok(names.includes('from-page') && !names.includes('from-evil'), names.join(' '));
    assert.ok(!names.includes('cross-site'), names.join(' '));
  });

  it("shows the README walk-through's zones, nodes, pods and disks on the cluster map", async () => {
    await applyWalkthrough(k, cluster());
    plan = await planFleet(k);
    await showView(page, 'map');
    for (const n of await list(k, 'nodes')) {
      const zone = n.metadata.labels?.[ZONE_LABEL] ?? '';
      const sel = `[data-testid="zone"]${attrs({ zone })} [data-testid="node"]${attrs({ node: n.metadata.name, state: 'Ready' })}`;
      await waitFor(page, sel, `node ${n.metadata.name} Ready in zone ${zone}`);
    }
    const pods = (await list(k, 'pods')).filter((p) => p.status?.phase === 'Running');
    assert.ok(pods.length >= 14, `6 web, 3 StatefulSet and 5 orders pods run: ${pods.length}`);
    for (const p of pods) {
      const ready = String(isReady(p));
      const sel = `[data-testid="node"]${attrs({ node: p.spec?.nodeName ?? '' })} [data-testid="pod"]${attrs({ pod: `default/${p.metadata.name}`, phase: 'Running', ready })}`;
      await waitFor(page, sel, `pod ${p.metadata.name} on its node`);
    }
    for (const pv of await list(k, 'pv')) {
      const claim = `${pv.spec?.claimRef?.namespace}/${pv.spec?.claimRef?.name}`;
      const zone = pvZone(pv);
      const within = zone === undefined ? '' : `[data-testid="zone"]${attrs({ zone })} `;
      await waitFor(
        page,
        `${within}[data-testid="pv"]${attrs({ pv: pv.metadata.name, claim })}`,
        `disk ${pv.metadata.name} of ${claim}${zone ? ` in ${zone}` : ''}`,
      );
    }
    assert.equal(await page.getAttribute('body', 'data-synced'), 'true');
    const marks = await page.evaluate(() => performance.getEntriesByName('fy:map-painted').length);
    assert.equal(marks, 1, 'performance.mark("fy:map-painted") once');
  });

  it('writes through an action button what kubectl then reads (cordon, uncordon, scale)', async () => {
    const node = plan.spareNode;
    const nodeSel = `[data-testid="node"]${attrs({ node })}`;
    await page.click(`button[data-action="cordon"]${attrs({ target: node })}`);
    await pollUntil(`kubectl sees ${node} cordoned`, async () =>
      (await getObj(k, 'node', node)).spec?.unschedulable === true ? true : undefined,
    );
    await waitFor(page, `${nodeSel}[data-state="Cordoned"]`, `${node} Cordoned on the map`);
    await page.click(`button[data-action="uncordon"]${attrs({ target: node })}`);
    await pollUntil(`kubectl sees ${node} uncordoned`, async () =>
      (await getObj(k, 'node', node)).spec?.unschedulable ? undefined : true,
    );
    await waitFor(page, `${nodeSel}[data-state="Ready"]`, `${node} Ready again on the map`);

    await showView(page, 'workloads');
    const web = page.locator(
      `[data-testid="workload"]${attrs({ kind: 'Deployment', name: 'default/web' })}`,
    );
    await web.locator('input[data-testid="scale-replicas"]').fill('4');
    await web.locator('button[data-action="scale"]').click();
    await pollUntil('kubectl sees deployment/web scaled to 4', async () =>
      (await getObj(k, 'deployment', 'web')).spec?.replicas === 4 ? true : undefined,
    );
    assert.equal(await page.locator('[role="alert"]').count(), 0, 'no action failed');
  });

  it("shows a lost volume's claim Lost in the Storage view", async () => {
    await showView(page, 'storage');
    const row = `[data-testid="claim-row"]${attrs({ claim: 'default/www-web-1' })}`;
    await waitFor(page, `${row}[data-phase="Bound"]`, 'www-web-1 Bound');
    await fleetyard(cluster(), 'chaos', 'lose-volume', 'www-web-1');
    await fleetyard(cluster(), 'clock', 'advance', '30s');
    await waitFor(page, `${row}[data-phase="Lost"]`, 'www-web-1 Lost after lose-volume');
  });

  it('turns a node taken down with fleetyard chaos Down, and keeps it so once NotReady', async () => {
    await showView(page, 'map');
    const nodeSel = `[data-testid="node"]${attrs({ node: plan.downNode })}`;
    await fleetyard(cluster(), 'chaos', 'node-down', plan.downNode);
    await waitFor(page, `${nodeSel}[data-state="Down"]`, `${plan.downNode} Down on the map`);
    // Past the node monitor's grace period (50 s by default): the Ready condition goes Unknown.
    await fleetyard(cluster(), 'clock', 'advance', '1m');
    assert.equal(isReady(await getObj(k, 'node', plan.downNode)), false);
    await waitFor(page, `${nodeSel}[data-state="Down"]`, `${plan.downNode} still Down`);
  });

  it("shows the down member's replacement countdown in the fleet view", async () => {
    await advanceUntilDue(k, cluster(), plan.member);
    oldClaimUid = (await getObj(k, 'pvc', `data-${plan.member}`)).metadata.uid ?? '';
    await showView(page, 'fleets');
    const fleet = `[data-testid="fleet"]${attrs({ fleet: 'default/orders' })}`;
    await waitFor(
      page,
      `${fleet} [data-testid="member-row"]${attrs({ pod: plan.member, ready: 'false' })}`,
      `${plan.member} not ready`,
    );
    await waitFor(page, `${fleet} [data-testid="countdown"]`, 'the replacement countdown');
    const text = (await page.textContent(`${fleet} [data-testid="countdown"]`)) ?? '';
    assert.match(text, /replaced in (\d+m )?\d+s/, `countdown text: ${text}`);
  });

  it('replaces the member past replacementDue: a new claim, on the timeline', async () => {
    const claim = `data-${plan.member}`;
    await pollUntil(
      `${claim} replaced by a new claim`,
      async () => {
        const uid = (await getObj(k, 'pvc', claim)).metadata.uid;
        if (uid !== oldClaimUid) return true;
        await fleetyard(cluster(), 'clock', 'advance', '30s');
        return undefined;
      },
      60_000,
      0,
    );
    const fleet = `[data-testid="fleet"]${attrs({ fleet: 'default/orders' })}`;
    await fleetyard(cluster(), 'clock', 'advance', '1m');
    await showView(page, 'fleets');
    await waitGone(page, `${fleet} [data-testid="countdown"]`, 'the countdown after replacement');
    await waitFor(
      page,
      `${fleet} [data-testid="member-row"]${attrs({ pod: plan.member, ready: 'true' })}`,
      `${plan.member} ready again on a fresh disk`,
    );
    await showView(page, 'timeline');
    await page.fill('input[data-testid="filter-object"]', claim);
    const entry = (type: string) =>
      `[data-testid="timeline-entry"]${attrs({ type, kind: 'PersistentVolumeClaim', name: `default/${claim}` })}`;
    await waitFor(page, entry('DELETED'), `the old ${claim} deleted on the timeline`);
    await waitFor(page, entry('ADDED'), `the new ${claim} added on the timeline`);
  });

  it('scrubs the timeline back to before node-down (node Ready, as-of), and Live returns', async () => {
    const history = (await (
      await context.request.get(`${origin(cluster())}/ui/api/history`)
    ).json()) as {
      seq: number;
      entries: {
        seq: number;
        time: string;
        resource: string;
        object: { metadata: { name: string; annotations?: Record<string, string> } };
      }[];
    };
    const down = history.entries.find(
      (e) =>
        e.resource === 'nodes' &&
        e.object.metadata.name === plan.downNode &&
        e.object.metadata.annotations?.['sim.fleetyard.dev/state'] === 'down',
    );
    assert.ok(down, `no recorded change of ${plan.downNode} with state=down`);
    await showView(page, 'timeline');
    await page.fill('input[data-testid="filter-object"]', '');
    const value = await scrubBefore(page, history, down);
    await waitFor(page, '[data-testid="as-of"]', `the as-of time after scrubbing to ${value}`);
    await showView(page, 'map');
    const nodeSel = `[data-testid="node"]${attrs({ node: plan.downNode })}`;
    await waitFor(page, `${nodeSel}[data-state="Ready"]`, `${plan.downNode} Ready in the past`);
    await waitFor(page, '[data-testid="as-of"]', 'the as-of time on the map while scrubbed');
    if ((await page.locator('button[data-testid="live"]').count()) === 0)
      await showView(page, 'timeline');
    await page.click('button[data-testid="live"]');
    await waitGone(page, '[data-testid="as-of"]', 'the as-of time after Live');
    await showView(page, 'map');
    await waitFor(page, `${nodeSel}[data-state="Down"]`, `${plan.downNode} Down again, live`);
  });
});
