/**
 * The layout check and the axe check against small pages with one known defect each (and
 * sound ones), in the same Chromium the dashboard tests use, so a defect a check misses fails
 * here first rather than passing silently in the dashboard's tests.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Browser,
  type BrowserContext,
  formatAxe,
  launchChromium,
  newContext,
  PHONE,
  seriousAxeViolations,
} from './browser.js';
import { layoutOffenders } from './page-layout.js';

const CASES: readonly { name: string; html: string; expect: RegExp | null }[] = [
  {
    name: 'a sound page',
    html: '<main><h1>Map</h1><nav><a href="#a">A</a> <a href="#b">B</a></nav><button>Go</button></main>',
    expect: null,
  },
  {
    name: 'a page that scrolls sideways',
    html: '<div style="width:600px" data-testid="wide">wide</div>',
    expect: /scrolls sideways/,
  },
  {
    name: 'a button cut off by a parent that hides overflow',
    html: '<div style="width:100px;overflow:hidden;white-space:nowrap"><span style="display:inline-block;width:80px">x</span><button style="width:80px">Cordon</button></div>',
    expect: /<button> "Cordon".*is cut off by <div>/,
  },
  {
    name: 'a wide table inside a scroll container (fine)',
    html: '<div style="overflow-x:auto"><table style="width:900px"><tr><td>a</td><td>b</td></tr></table></div>',
    expect: null,
  },
  {
    name: 'text cut off without an ellipsis',
    html: '<p data-testid="note" style="width:50px;overflow:hidden;white-space:nowrap">a long note that does not fit</p>',
    expect: /data-testid="note".*content is cut off/,
  },
  {
    name: 'text truncated with an ellipsis (fine)',
    html: '<p data-testid="note" style="width:50px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis">a long note that does not fit</p>',
    expect: null,
  },
  {
    name: 'two overlapping buttons',
    html: '<div style="position:relative;height:40px"><button style="position:absolute;left:0;width:80px">One</button><button style="position:absolute;left:40px;width:80px">Two</button></div>',
    expect: /"One".*overlaps.*"Two"/,
  },
  {
    name: 'a link wrapped over two lines next to text (fine)',
    html: '<p style="width:120px">Some words <a href="#x">a link that wraps over lines</a> more</p>',
    expect: null,
  },
];

let browser: Browser;
let context: BrowserContext;
before(async () => {
  browser = await launchChromium();
  context = await newContext(browser, PHONE);
});
after(async () => {
  await browser?.close();
});

const AXE_CASES: readonly { name: string; html: string; expect: readonly string[] }[] = [
  { name: 'a sound page', html: '<main><h1>Map</h1><button>Go</button></main>', expect: [] },
  {
    name: 'a button without a name',
    html: '<main><button></button></main>',
    expect: ['button-name'],
  },
  {
    name: 'an image without alt text',
    html: '<main><img src="data:,"></main>',
    expect: ['image-alt'],
  },
];

describe('seriousAxeViolations', () => {
  for (const c of AXE_CASES) {
    it(c.name, async () => {
      const page = await context.newPage();
      await page.setContent(
        `<!doctype html><html lang="en"><head><title>t</title></head><body>${c.html}</body></html>`,
      );
      const found = await seriousAxeViolations(page);
      await page.close();
      assert.deepEqual(
        found.map((v) => v.id),
        c.expect,
        formatAxe(found),
      );
    });
  }
});

describe('layoutOffenders', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const page = await context.newPage();
      await page.setContent(`<!doctype html><html lang="en"><body>${c.html}</body></html>`);
      const found = await layoutOffenders(page, c.name);
      await page.close();
      if (c.expect === null) assert.deepEqual(found, []);
      else
        assert.ok(
          found.some((l) => c.expect!.test(l)),
          `expected ${c.expect} among:\n${found.join('\n')}`,
        );
    });
  }
});
