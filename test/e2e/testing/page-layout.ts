/**
 * A layout check for a rendered page at its current viewport: what a person would see as
 * broken at 1280×800 or 390×844.
 *
 * - The page scrolls sideways (`documentElement.scrollWidth > innerWidth`).
 * - An element of interest (`[data-testid]`, buttons, inputs, selects, headings, nav links,
 *   table cells) sticks out of the viewport's width, or out of an ancestor that hides
 *   overflow (it is cut off). An ancestor that scrolls (`overflow: auto|scroll`) is fine: the
 *   rest is one swipe away, so the check stops there (the scroller itself must fit).
 * - Text cut off inside such an element (`scrollWidth > clientWidth` with overflow hidden and
 *   no ellipsis): an ellipsis is a deliberate, visible truncation; a hard cut is not.
 * - Two siblings that hold text or are interactive overlap by more than 1 px in both
 *   directions (compared line box by line box, so a wrapped link does not count as a block).
 *
 * The check runs inside the page in one `page.evaluate` (its function is sent as source text,
 * so everything it uses is defined inside it). It returns one readable line per offender.
 *
 * @module
 */
import type { Page } from 'playwright-core';

/** A rectangle as the page reports it (DOMRect's fields we read). */
interface Box {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
  readonly width: number;
  readonly height: number;
}

/** The few DOM members the check reads; the root tsconfig has no DOM library. */
interface El {
  readonly tagName: string;
  readonly parentElement: El | null;
  readonly children: ArrayLike<El>;
  readonly childNodes: ArrayLike<{
    readonly nodeType: number;
    readonly textContent: string | null;
  }>;
  readonly textContent: string | null;
  readonly scrollWidth: number;
  readonly clientWidth: number;
  readonly attributes: ArrayLike<{ readonly name: string; readonly value: string }>;
  getBoundingClientRect(): Box;
  getClientRects(): ArrayLike<Box>;
  matches(selector: string): boolean;
}

interface Style {
  readonly display: string;
  readonly visibility: string;
  readonly opacity: string;
  readonly overflowX: string;
  readonly overflowY: string;
  readonly textOverflow: string;
  readonly position: string;
}

interface Win {
  readonly innerWidth: number;
  readonly document: {
    readonly documentElement: El;
    querySelectorAll(selector: string): ArrayLike<El>;
  };
  getComputedStyle(el: El): Style;
}

/** What counts as an element a person reads or uses. */
export const ELEMENTS_OF_INTEREST =
  '[data-testid], button, input, select, textarea, h1, h2, h3, h4, h5, h6, nav a, td, th, [role="alert"]';

/** Pixels of tolerance: sub-pixel layout and borders that touch are not defects. */
const TOLERANCE = 1;

interface Args {
  readonly selector: string;
  readonly tolerance: number;
}

/** Sideways scrolling, and elements (or their text) cut off by the viewport or an ancestor. */
function clipping({ selector, tolerance }: Args): string[] {
  const win: Win = Reflect.get(globalThis, 'window');
  const root = win.document.documentElement;
  const describe = (el: El): string => {
    const attrs = Array.from(el.attributes)
      .filter((a) => a.name.startsWith('data-') || a.name === 'aria-label' || a.name === 'id')
      .map((a) => `${a.name}="${a.value}"`)
      .join(' ');
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
    return `<${el.tagName.toLowerCase()}${attrs ? ` ${attrs}` : ''}>${text ? ` "${text}"` : ''}`;
  };
  const px = (b: Box): string =>
    `[${Math.round(b.left)},${Math.round(b.top)} ${Math.round(b.width)}×${Math.round(b.height)}]`;
  const visible = (el: El): boolean => {
    const s = win.getComputedStyle(el);
    if (s.display === 'none' || s.visibility === 'hidden' || s.opacity === '0') return false;
    const b = el.getBoundingClientRect();
    return b.width > 0 && b.height > 0;
  };
  const scrolls = (s: Style): boolean =>
    ['auto', 'scroll'].includes(s.overflowX) || ['auto', 'scroll'].includes(s.overflowY);
  const clips = (s: Style): boolean =>
    ['hidden', 'clip'].includes(s.overflowX) || ['hidden', 'clip'].includes(s.overflowY);
  const outside = (b: Box, a: Box, vertical: boolean): boolean =>
    b.right > a.right + tolerance ||
    b.left < a.left - tolerance ||
    (vertical && (b.bottom > a.bottom + tolerance || b.top < a.top - tolerance));
  const leavesViewport = (b: Box): boolean =>
    b.right > win.innerWidth + tolerance || b.left < -tolerance;
  /**
   * The first ancestor that scrolls or cuts the element off decides: a scroller must itself
   * fit the viewport; a clipping one must hold the element. Undefined: no such ancestor.
   */
  const byAncestor = (el: El, box: Box): string | null | undefined => {
    for (let a = el.parentElement; a !== null && a !== root; a = a.parentElement) {
      const s = win.getComputedStyle(a);
      const ab = a.getBoundingClientRect();
      if (scrolls(s)) {
        return leavesViewport(ab)
          ? `${describe(el)}: its scroll container ${describe(a)} ${px(ab)} leaves the viewport`
          : null;
      }
      if (clips(s) && outside(box, ab, s.overflowY !== 'visible'))
        return `${describe(el)} ${px(box)} is cut off by ${describe(a)} ${px(ab)}`;
    }
    return undefined;
  };

  const out: string[] = [];
  if (root.scrollWidth > win.innerWidth + tolerance)
    out.push(
      `the page scrolls sideways: scrollWidth ${root.scrollWidth} > viewport ${win.innerWidth}`,
    );
  for (const el of Array.from(win.document.querySelectorAll(selector)).filter(visible)) {
    const box = el.getBoundingClientRect();
    const ancestor = byAncestor(el, box);
    if (ancestor) out.push(ancestor);
    else if (ancestor === undefined && leavesViewport(box))
      out.push(`${describe(el)} ${px(box)} leaves the ${win.innerWidth}px-wide viewport`);
    const s = win.getComputedStyle(el);
    const cut =
      clips(s) && s.textOverflow !== 'ellipsis' && el.scrollWidth > el.clientWidth + tolerance;
    if (cut && !el.matches('input, select, textarea'))
      out.push(
        `${describe(el)}: its content is cut off (${el.scrollWidth}px in ${el.clientWidth}px)`,
      );
  }
  return out;
}

/** Siblings (of elements of interest) that hold text or are interactive and overlap. */
function overlaps({ selector, tolerance }: Args): string[] {
  const win: Win = Reflect.get(globalThis, 'window');
  const describe = (el: El): string => {
    const attrs = Array.from(el.attributes)
      .filter((a) => a.name.startsWith('data-') || a.name === 'aria-label' || a.name === 'id')
      .map((a) => `${a.name}="${a.value}"`)
      .join(' ');
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
    const b = el.getBoundingClientRect();
    const box = `[${Math.round(b.left)},${Math.round(b.top)} ${Math.round(b.width)}×${Math.round(b.height)}]`;
    return `<${el.tagName.toLowerCase()}${attrs ? ` ${attrs}` : ''}>${text ? ` "${text}"` : ''} ${box}`;
  };
  const visible = (el: El): boolean => {
    const s = win.getComputedStyle(el);
    if (s.display === 'none' || s.visibility === 'hidden' || s.opacity === '0') return false;
    const b = el.getBoundingClientRect();
    return b.width > 0 && b.height > 0;
  };
  const hasOwnText = (el: El): boolean =>
    Array.from(el.childNodes).some((n) => n.nodeType === 3 && (n.textContent ?? '').trim() !== '');
  const relevant = (el: El): boolean =>
    visible(el) &&
    win.getComputedStyle(el).position !== 'fixed' &&
    (el.matches(selector) || el.matches('a, label, p, span, li') || hasOwnText(el));
  const overlap = (a: Box, b: Box): boolean =>
    Math.min(a.right, b.right) - Math.max(a.left, b.left) > tolerance &&
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > tolerance;
  // Line boxes, not bounding boxes: a link wrapped over two lines is not a block.
  const lineBoxes = (el: El): Box[] => Array.from(el.getClientRects()).filter((r) => r.width > 0);

  const parents = new Set<El>();
  for (const el of Array.from(win.document.querySelectorAll(selector)))
    if (el.parentElement) parents.add(el.parentElement);
  const out: string[] = [];
  for (const parent of parents) {
    const kids = Array.from(parent.children).filter(relevant);
    const boxes = kids.map(lineBoxes);
    kids.forEach((a, i) => {
      for (let j = i + 1; j < kids.length; j++) {
        if (boxes[i]!.some((x) => boxes[j]!.some((y) => overlap(x, y))))
          out.push(`${describe(a)} overlaps ${describe(kids[j]!)}`);
      }
    });
  }
  return out;
}

/**
 * The offenders on the page as it is now, one line each (empty: the layout is sound).
 * `label` prefixes each line (e.g. `map @ 390×844`).
 */
export async function layoutOffenders(page: Page, label: string): Promise<string[]> {
  const args: Args = { selector: ELEMENTS_OF_INTEREST, tolerance: TOLERANCE };
  const lines = [
    ...(await page.evaluate(clipping, args)),
    ...(await page.evaluate(overlaps, args)),
  ];
  return lines.map((l) => `${label}: ${l}`);
}
