/**
 * What the dashboard's browser tests, its benchmark and the screenshot script share: the
 * one-time login link, signing a browser context in, the `fleetyard` CLI (chaos, clock,
 * dashboard) as a user runs it, views by their hash route, and waits on DOM state with
 * messages that say what was awaited.
 *
 * @module
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { BrowserContext, Page } from 'playwright-core';
import { type Cluster, FLEETYARD_BIN } from './cluster.js';

const run = promisify(execFile);

/** The views of the DOM contract, by their hash route. */
export const VIEWS = ['map', 'workloads', 'storage', 'fleets', 'timeline'] as const;
export type View = (typeof VIEWS)[number];

/** What each view shows once it has data, so a screenshot is not of an empty frame. */
export const VIEW_READY: Record<View | 'object', string> = {
  map: '[data-testid="node"]',
  workloads: '[data-testid="workload"]',
  storage: '[data-testid="claim-row"]',
  fleets: '[data-testid="fleet"]',
  timeline: '[data-testid="timeline-entry"]',
  object: '[data-testid="object-yaml"]',
};

/** `fleetyard <args> --kubeconfig <cluster's>` (the built CLI); its stdout. */
export async function fleetyard(cluster: Cluster, ...args: string[]): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    [FLEETYARD_BIN, ...args, '--kubeconfig', cluster.kubeconfig],
    { timeout: 120_000 },
  );
  return stdout;
}

const LOGIN_LINK = /login=(https:\/\/\S+\/ui\/login\?code=\S+)/;

/**
 * A fresh one-time login link from `fleetyard dashboard` (each call mints a new code).
 * The link `up` printed is `cluster.dashboard.login`; it works once.
 */
export async function newLoginLink(cluster: Cluster): Promise<string> {
  const out = await fleetyard(cluster, 'dashboard');
  const m = LOGIN_LINK.exec(out) ?? /(https:\/\/\S+\/ui\/login\?code=\S+)/.exec(out);
  if (!m) throw new Error(`fleetyard dashboard printed no login link:\n${out}`);
  return m[1]!;
}

/** `https://127.0.0.1:PORT` of the cluster: the dashboard's origin. */
export function origin(cluster: Cluster): string {
  return new URL(cluster.url).origin;
}

/**
 * Opens `link` in a new page of `context` and waits until the app shows the signed-in user.
 * Returns the page (at `/ui/`).
 */
export async function signIn(context: BrowserContext, link: string): Promise<Page> {
  const page = await context.newPage();
  const res = await page.goto(link);
  if (!res?.ok()) {
    throw new Error(`login link answered ${res?.status()}: ${(await res?.text()) ?? ''}`);
  }
  await waitFor(page, '[data-testid="user"]', 'the signed-in user after login');
  return page;
}

/**
 * Waits until `selector` matches an element in the page (attached: a node in a zone far down
 * the map counts too), failing with `what` and the page's URL.
 */
export function waitFor(page: Page, selector: string, what: string, timeoutMs = 20_000) {
  return waitState(
    page,
    selector,
    'attached',
    timeoutMs,
    (why) => `${what}: no ${selector} on ${page.url()} within ${timeoutMs} ms (${why})`,
  );
}

/** Waits until nothing matches `selector` any more. */
export function waitGone(page: Page, selector: string, what: string, timeoutMs = 20_000) {
  return waitState(
    page,
    selector,
    'detached',
    timeoutMs,
    (why) => `${what}: ${selector} still on ${page.url()} after ${timeoutMs} ms (${why})`,
  );
}

async function waitState(
  page: Page,
  selector: string,
  state: 'attached' | 'detached',
  timeoutMs: number,
  failure: (why: string) => string,
): Promise<void> {
  try {
    await page.waitForSelector(selector, { state, timeout: timeoutMs });
  } catch (e) {
    throw new Error(failure(e instanceof Error ? (e.message.split('\n')[0] ?? '') : String(e)));
  }
}

/** Shows `view` (a hash route: same document, the stream stays open) and waits for its data. */
export async function showView(page: Page, view: View): Promise<void> {
  await setHash(page, `#/${view}`);
  await waitFor(page, VIEW_READY[view], `the ${view} view's content`);
}

/** The object view of one object: `core` for the core group, `_` for cluster-scoped. */
export async function showObject(
  page: Page,
  group: string,
  resource: string,
  namespace: string | undefined,
  name: string,
): Promise<void> {
  await setHash(page, `#/object/${group || 'core'}/${resource}/${namespace ?? '_'}/${name}`);
  await waitFor(page, VIEW_READY.object, `the object view of ${resource} ${name}`);
}

async function setHash(page: Page, hash: string): Promise<void> {
  const url = new URL(page.url());
  url.hash = hash;
  await page.goto(url.href);
}

/** `[data-k1="v1"][data-k2="v2"]…`, values quoted for CSS. */
export function attrs(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([k, v]) => `[data-${k}=${JSON.stringify(v)}]`)
    .join('');
}

/** The cluster's time now (the Clock object's status), in ms since the epoch. */
export async function clusterTime(cluster: Cluster): Promise<number> {
  const out = await fleetyard(cluster, 'clock', 'show');
  const m = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/.exec(out);
  if (!m) throw new Error(`fleetyard clock show printed no time:\n${out}`);
  return Date.parse(m[0]);
}
