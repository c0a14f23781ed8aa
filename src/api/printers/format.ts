/**
 * Cell formatting helpers shared by the printers, after upstream: `labels.FormatLabels`,
 * `metav1.FormatLabelSelector`, `layoutContainerCells`, access-mode abbreviations,
 * `IntOrString.String()`, quantities' canonical text, `net.JoinHostPort`.
 *
 * @module
 */
import { LabelSelectorParseError } from '../labels/requirement.js';
import {
  formatLabelSelector as formatSelectorObject,
  labelSelectorFromObject,
} from '../labels/selector.js';
import { canonicalQuantity } from '../validation/quantity.js';
import { arr, obj, objs, str, stringMap } from './access.js';

/** Upstream `labels.FormatLabels`: `a=1,b=2` by key, `<none>` when empty. */
export function formatLabels(v: unknown): string {
  const labels = stringMap(v);
  const keys = Object.keys(labels).sort();
  if (keys.length === 0) return '<none>';
  return keys.map((k) => `${k}=${labels[k]}`).join(',');
}

type SelectorObject = Parameters<typeof formatSelectorObject>[0];

/** Upstream `metav1.FormatLabelSelector`: `<none>` when empty, `<error>` when invalid. */
export function formatLabelSelector(v: unknown): string {
  return formatSelectorObject(selectorObject(v));
}

/**
 * `LabelSelectorAsSelector(sel).String()` as printDeployment uses it: empty for a missing or
 * empty selector, `<invalid>` when it does not convert.
 */
export function selectorString(v: unknown): string {
  try {
    return labelSelectorFromObject(selectorObject(v)).toString();
  } catch (e) {
    if (e instanceof LabelSelectorParseError) return '<invalid>';
    throw e;
  }
}

function selectorObject(v: unknown): SelectorObject {
  if (v === null || v === undefined) return v;
  const sel = obj(v);
  return {
    ...(sel.matchLabels !== undefined ? { matchLabels: stringMap(sel.matchLabels) } : {}),
    ...(sel.matchExpressions !== undefined
      ? {
          matchExpressions: objs(sel.matchExpressions).map((e) => ({
            key: str(e.key),
            operator: str(e.operator),
            values: arr(e.values).filter((x): x is string => typeof x === 'string'),
          })),
        }
      : {}),
  };
}

/** Upstream `layoutContainerCells`: names and images, comma-separated. */
export function containerCells(podSpec: unknown): [string, string] {
  const containers = objs(obj(podSpec).containers);
  return [
    containers.map((c) => str(c.name)).join(','),
    containers.map((c) => str(c.image)).join(','),
  ];
}

const ACCESS_MODES: ReadonlyArray<[string, string]> = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
];

/** Upstream `GetAccessModesAsString`: `RWO,ROX,RWX,RWOP` in that order, each once. */
export function accessModesString(v: unknown): string {
  const modes = new Set(arr(v));
  return ACCESS_MODES.filter(([mode]) => modes.has(mode))
    .map(([, short]) => short)
    .join(',');
}

/** A resource quantity's canonical text; a missing or invalid one is Go's zero Quantity, `0`. */
export function quantityString(v: unknown): string {
  if (typeof v !== 'string' && typeof v !== 'number') return '0';
  return canonicalQuantity(v) ?? '0';
}

/** `intstr.IntOrString.String()`. */
export function intOrString(v: unknown): string {
  if (typeof v === 'number') return String(Math.trunc(v));
  return str(v);
}

/** Go `net.JoinHostPort`: brackets around IPv6 hosts. */
export function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}
