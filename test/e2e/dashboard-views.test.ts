/**
 * Every view of the dashboard at 1280×800 and 390×844, on a cluster with something to show
 * (the README's walk-through and celld fleet, a lost volume, a node down): a screenshot of
 * each under `test-artifacts/dashboard/` (look at them when a check fails), the layout check
 * (nothing cut off, no sideways scrolling, no overlapping siblings: `testing/page-layout.ts`)
 * and axe-core (no serious or critical violation). Every problem of every view is collected
 * first, so one run shows them all.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type Browser,
  DESKTOP,
  formatAxe,
  launchChromium,
  newContext,
  type Page,
  seriousAxeViolations,
  VIEWPORTS,
} from './testing/browser.js';
import { REPO_ROOT } from './testing/cluster.js';
import {
  attrs,
  fleetyard,
  showObject,
  showView,
  signIn,
  VIEW_READY,
  VIEWS,
  waitFor,
} from './testing/dashboard-fixtures.js';
import { applyWalkthrough, planFleet, SCENARIO_UP_ARGS } from './testing/dashboard-scenario.js';
import { kubectl } from './testing/kubectl.js';
import { clusterForFile } from './testing/kubectl-fixtures.js';
import { layoutOffenders } from './testing/page-layout.js';

const ARTIFACTS = join(REPO_ROOT, 'test-artifacts', 'dashboard');
const cluster = clusterForFile({ args: SCENARIO_UP_ARGS, timeoutMs: 30_000 });

let browser: Browser;
let page: Page;

describe('every dashboard view', () => {
  before(async () => {
    const k = kubectl('1.33', cluster().kubeconfig);
    assert.ok(k, 'kubectl.1.33 is not installed beside the kubectl on the PATH');
    browser = await launchChromium();
    const link = cluster().dashboard?.login;
    assert.ok(link, 'fleetyard up printed no `fleetyard dashboard url=… login=…` line');
    page = await signIn(await newContext(browser, DESKTOP), link);
    await applyWalkthrough(k, cluster());
    const plan = await planFleet(k);
    await fleetyard(cluster(), 'chaos', 'lose-volume', 'www-web-1');
    await fleetyard(cluster(), 'chaos', 'node-down', plan.downNode);
    await fleetyard(cluster(), 'clock', 'advance', '1m');
    await showView(page, 'map');
    await waitFor(
      page,
      `[data-testid="node"]${attrs({ node: plan.downNode, state: 'Down' })}`,
      'a node Down',
    );
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
  });

  it('fits 1280×800 and 390×844 without clipping or overlap, with no serious axe violation', async () => {
    const layout: string[] = [];
    const axe: string[] = [];
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      const shows: [string, () => Promise<void>][] = [
        ...VIEWS.map((v): [string, () => Promise<void>] => [v, () => showView(page, v)]),
        [
          'object',
          () => showObject(page, 'celld.fleetyard.dev', 'celldfleets', 'default', 'orders'),
        ],
      ];
      for (const [name, show] of shows) {
        await show();
        const label = `${name} @ ${viewport.width}×${viewport.height}`;
        await page.screenshot({
          path: join(ARTIFACTS, `${name}-${viewport.width}x${viewport.height}.png`),
          fullPage: true,
        });
        layout.push(...(await layoutOffenders(page, label)));
        const violations = await seriousAxeViolations(page);
        if (violations.length > 0) axe.push(`${label}:\n${formatAxe(violations)}`);
      }
    }
    assert.deepEqual(
      layout,
      [],
      `layout problems (screenshots in ${ARTIFACTS}):\n${layout.join('\n')}`,
    );
    assert.deepEqual(axe, [], `serious axe violations:\n${axe.join('\n')}`);
  });

  it('navigates between views through the nav links', async () => {
    await page.setViewportSize({ width: DESKTOP.width, height: DESKTOP.height });
    for (const view of VIEWS) {
      await page.click(`nav a${attrs({ view })}`);
      await waitFor(page, VIEW_READY[view], `the ${view} view after its nav link`);
      assert.equal(new URL(page.url()).hash, `#/${view}`);
    }
  });
});
