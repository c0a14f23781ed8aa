/**
 * The dashboard's files (`dist/ui/`: the page, its bundle and stylesheet), served from memory
 * with the headers that keep a page holding cluster credentials to itself: a Content Security
 * Policy allowing only its own scripts and connections (no CDN, no inline script, no eval),
 * no framing, no sniffing, no referrer (the login URL carries a code).
 *
 * Read once at start (~100 KB); a missing build is a page that says so, not a crash.
 *
 * @module
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

export interface Asset {
  readonly body: Buffer;
  readonly type: string;
}

/** The files of the dashboard's build directory, by file name. */
export function loadAssets(dir: string | undefined): ReadonlyMap<string, Asset> {
  const assets = new Map<string, Asset>();
  if (dir === undefined || !existsSync(dir)) return assets;
  for (const name of readdirSync(dir)) {
    const type = TYPES[name.slice(name.lastIndexOf('.'))];
    if (type !== undefined) assets.set(name, { body: readFileSync(join(dir, name)), type });
  }
  return assets;
}

/**
 * `dist/ui/` of this package: beside the bundle when running from `dist/`, else found from
 * the source file upwards (tests run the sources).
 */
export function defaultAssetsDir(from: string = import.meta.url): string | undefined {
  let dir = dirname(fileURLToPath(from));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'ui', 'index.html')) && dir.endsWith('dist')) return join(dir, 'ui');
    if (existsSync(join(dir, 'package.json'))) {
      const built = join(dir, 'dist', 'ui');
      return existsSync(built) ? built : undefined;
    }
    dir = dirname(dir);
  }
  return undefined;
}

/** The page shown when the dashboard was not built (`npm run build` makes dist/ui/). */
export const NOT_BUILT_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>fleetyard</title></head>
<body><main><h1>The dashboard is not built</h1><p>Run <code>npm run build</code> in the fleetyard checkout, then restart <code>fleetyard up</code>.</p></main></body></html>`;

/** The page a used, expired or unknown login code gets. */
export const INVALID_LINK_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>fleetyard: login link</title></head>
<body><main><h1>Sign in to fleetyard</h1><p>This login link is invalid or has already been used. Run <code>fleetyard dashboard</code> for a new one.</p></main></body></html>`;
