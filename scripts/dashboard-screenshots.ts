/**
 * The screenshots of docs/dashboard.md: `fleetyard up` (virtual clock, six nodes, seed 1),
 * the README's walk-through and its celld fleet, a lost volume, a member's node taken down
 * and the clock advanced until its replacement countdown runs; then each view at 1280×800
 * into `docs/dashboard/<view>.png`.
 *
 *   npm run build && npx tsx scripts/dashboard-screenshots.ts
 *
 * Needs Debian's chromium (`.ci/run` installs it) and kubectl 1.33 beside the kubectl on the
 * PATH.
 *
 * @module
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DESKTOP, launchChromium, newContext } from '../test/e2e/testing/browser.js';
import { REPO_ROOT, startCluster } from '../test/e2e/testing/cluster.js';
import {
  attrs,
  fleetyard,
  showObject,
  showView,
  signIn,
  VIEWS,
  waitFor,
} from '../test/e2e/testing/dashboard-fixtures.js';
import {
  advanceUntilDue,
  applyWalkthrough,
  planFleet,
  SCENARIO_UP_ARGS,
} from '../test/e2e/testing/dashboard-scenario.js';
import { kubectl } from '../test/e2e/testing/kubectl.js';

const OUT = join(REPO_ROOT, 'docs', 'dashboard');

async function main(): Promise<void> {
  const cluster = await startCluster({
    ephemeral: true,
    args: SCENARIO_UP_ARGS,
    timeoutMs: 30_000,
  });
  const browser = await launchChromium().catch(async (e: unknown) => {
    await cluster.stop();
    throw e;
  });
  try {
    const k = kubectl('1.33', cluster.kubeconfig);
    if (!k) throw new Error('kubectl.1.33 is not installed beside the kubectl on the PATH');
    const link = cluster.dashboard?.login;
    if (!link) throw new Error('fleetyard up printed no dashboard login link');
    const page = await signIn(await newContext(browser, DESKTOP), link);
    log('applying the README walk-through and the celld fleet');
    await applyWalkthrough(k, cluster);
    const plan = await planFleet(k);
    await fleetyard(cluster, 'chaos', 'lose-volume', 'www-web-1');
    log(`taking ${plan.downNode} (${plan.member}) down`);
    await fleetyard(cluster, 'chaos', 'node-down', plan.downNode);
    await advanceUntilDue(k, cluster, plan.member);
    await showView(page, 'fleets');
    await waitFor(page, '[data-testid="countdown"]', 'the replacement countdown');
    mkdirSync(OUT, { recursive: true });
    for (const view of VIEWS) {
      await showView(page, view);
      if (view === 'map')
        await waitFor(
          page,
          `[data-testid="node"]${attrs({ node: plan.downNode, state: 'Down' })}`,
          'the down node',
        );
      await page.screenshot({ path: join(OUT, `${view}.png`) });
      log(`wrote docs/dashboard/${view}.png`);
    }
    await showObject(page, 'celld.fleetyard.dev', 'celldfleets', 'default', 'orders');
    await page.screenshot({ path: join(OUT, 'object.png') });
    log('wrote docs/dashboard/object.png');
  } finally {
    await browser.close();
    await cluster.stop();
    cluster.cleanup();
  }
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

await main();
