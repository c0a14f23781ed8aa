/**
 * Hash routes (the DOM contract): `#/map` (default), `#/workloads`, `#/storage`, `#/fleets`,
 * `#/timeline`, `#/object/<group or core>/<resource>/<namespace or _>/<name>`.
 *
 * @module
 */

export const VIEWS = ['map', 'workloads', 'storage', 'fleets', 'timeline'] as const;
export type ViewName = (typeof VIEWS)[number];

export type Route =
  | { readonly view: ViewName }
  | {
      readonly view: 'object';
      readonly group: string;
      readonly resource: string;
      readonly namespace: string | undefined;
      readonly name: string;
    };

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#?\/?/, '').split('/');
  const head = parts[0] ?? '';
  if (head === 'object' && parts.length >= 5) {
    const [, group = '', resource = '', ns = '', ...rest] = parts;
    return {
      view: 'object',
      group: group === 'core' ? '' : decode(group),
      resource: decode(resource),
      namespace: ns === '_' || ns === '' ? undefined : decode(ns),
      name: decode(rest.join('/')),
    };
  }
  const view = VIEWS.find((v) => v === head);
  return { view: view ?? 'map' };
}
