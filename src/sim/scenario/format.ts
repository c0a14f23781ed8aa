/**
 * Small text helpers shared by step titles, the timeline and reports.
 *
 * @module
 */

/** Compact duration: `500ms`, `45s`, `1m30s`, `15m`, `24h`, `1h0m5s` is `1h5s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const totalSeconds = ms / 1000;
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  // Keep sub-second remainders (1.5s) but drop float noise past the millisecond.
  const s = Math.round((totalSeconds % 60) * 1000) / 1000;
  return `${h > 0 ? `${h}h` : ''}${m > 0 ? `${m}m` : ''}${s > 0 ? `${s}s` : ''}`;
}

/** Virtual time since the scenario began, `+HH:MM:SS.mmm` (hours go past 24). */
export function formatElapsed(ms: number): string {
  const sign = ms < 0 ? '-' : '+';
  const abs = Math.abs(Math.round(ms));
  const h = Math.floor(abs / 3_600_000);
  const m = Math.floor((abs % 3_600_000) / 60_000);
  const s = Math.floor((abs % 60_000) / 1000);
  const milli = abs % 1000;
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${sign}${two(h)}:${two(m)}:${two(s)}.${String(milli).padStart(3, '0')}`;
}

/** `Pod default/web-0`, `Pods app=web in default`, `Nodes`: what a target names. */
export function describeTarget(t: {
  readonly kind: string;
  readonly name?: string;
  readonly namespace?: string;
  readonly selector?: string;
}): string {
  if (t.name !== undefined) return `${t.kind} ${t.namespace ? `${t.namespace}/` : ''}${t.name}`;
  const plural = t.kind.endsWith('s') ? `${t.kind}es` : `${t.kind}s`;
  const sel = t.selector ? ` ${t.selector}` : '';
  return `${plural}${sel}${t.namespace ? ` in ${t.namespace}` : ''}`;
}

/** A one-line excerpt of possibly long text (CEL, messages). */
export function oneLine(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}

/** Built-in cluster-scoped kinds, for titles only (the runner asks discovery). */
export const CLUSTER_SCOPED_KINDS: ReadonlySet<string> = new Set([
  'Node',
  'Namespace',
  'PersistentVolume',
  'StorageClass',
  'CSIDriver',
  'CSINode',
  'VolumeAttachment',
  'PriorityClass',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'APIService',
  'MutatingWebhookConfiguration',
  'ValidatingWebhookConfiguration',
  'RuntimeClass',
  'IngressClass',
]);
