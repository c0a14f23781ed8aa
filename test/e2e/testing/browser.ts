/**
 * Debian's Chromium driven by playwright-core, for the dashboard's browser tests, its
 * benchmark and its documentation screenshots. Playwright's own browser download is not used:
 * `.ci/run` installs the `chromium` package and we point `executablePath` at it.
 *
 * Also here: a context that accepts the cluster's self-made CA, and the axe-core check.
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

export type { Browser, BrowserContext, Page } from 'playwright-core';

export interface Viewport {
  readonly name: string;
  readonly width: number;
  readonly height: number;
}

/** The two sizes the issue asks for: a laptop and a phone (iPhone 12–15 CSS pixels). */
export const DESKTOP: Viewport = { name: 'desktop', width: 1280, height: 800 };
export const PHONE: Viewport = { name: 'phone', width: 390, height: 844 };
export const VIEWPORTS: readonly Viewport[] = [DESKTOP, PHONE];

/**
 * Flags for a headless run on a shared CI box: no sandbox (containers run as root), no GPU,
 * and nothing that phones home (component updates, sync, background networking) so a run
 * makes no request but the test's own.
 */
const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The first `chromium` (or `chromium-browser`) on the PATH, as `command -v` finds it. */
export function chromiumPath(): string | undefined {
  for (const name of ['chromium', 'chromium-browser']) {
    for (const dir of (process.env.PATH ?? '').split(delimiter)) {
      const p = join(dir, name);
      if (dir !== '' && existsSync(p)) return p;
    }
  }
  return undefined;
}

/**
 * Launches Chromium (a fresh profile each time). Throws, rather than skipping, when it is not
 * installed: a browser test that silently does nothing is worse than a red one.
 */
export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (executablePath === undefined) {
    throw new Error(
      "chromium is not on the PATH. The dashboard browser tests drive Debian's chromium package; `.ci/run` installs it (apt-get install chromium).",
    );
  }
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS, timeout: 60_000 });
}

/**
 * esbuild (through tsx) wraps named functions in `__name(fn, "name")`; a function handed to
 * `page.evaluate` is sent as its source text, so the page needs that helper too. An init
 * script runs through the DevTools protocol, so the dashboard's CSP does not block it.
 */
const NAME_SHIM = 'globalThis.__name = globalThis.__name || ((f) => f);';

/** A context that trusts the cluster's self-signed certificate, at `viewport`. */
export async function newContext(browser: Browser, viewport: Viewport): Promise<BrowserContext> {
  const context = await browser.newContext({
    ignoreHTTPSErrors: true,
    viewport: { width: viewport.width, height: viewport.height },
  });
  await context.addInitScript({ content: NAME_SHIM });
  return context;
}

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly { readonly target: readonly unknown[]; readonly summary: string }[];
}

const requireHere = createRequire(import.meta.url);
let axeSource: string | undefined;

/**
 * axe-core's violations of `impact` serious or critical on the page as it is now. The script
 * is evaluated through the DevTools protocol rather than `page.addScriptTag`: a `<script>`
 * tag with inline text is exactly what the dashboard's CSP (`default-src 'self'`) refuses.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(requireHere.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    interface AxeResult {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: unknown[]; failureSummary?: string }[];
      }[];
    }
    const axe: { run(ctx: unknown, opts: unknown): Promise<AxeResult> } = Reflect.get(
      globalThis,
      'axe',
    );
    const doc: unknown = Reflect.get(globalThis, 'document');
    const result = await axe.run(doc, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, summary: n.failureSummary ?? '' })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** One line per violation and per offending element, for an assertion message. */
export function formatAxe(violations: readonly AxeViolation[]): string {
  return violations
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help}\n${v.nodes
          .map((n) => `    ${JSON.stringify(n.target)} ${n.summary.replace(/\s+/g, ' ')}`)
          .join('\n')}`,
    )
    .join('\n');
}
