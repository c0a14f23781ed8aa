/**
 * One scenario step from its schema-checked YAML to a {@link Step}: defaults (namespace
 * `default`, wait timeout 30s as kubectl's, poll interval 1s, drain timeout 5m), compiled
 * CEL and JSONPath, decoded manifests, and the one-line title the timeline prints.
 *
 * @module
 */
import { resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { isJsonObject, type KubeObject } from '../../api/object.js';
import { namedTarget, parseCheck, target } from './parse-checks.js';
import type { Fields } from './parse-support.js';
import { titleOf } from './titles.js';
import { FAULT_VERBS, type FaultVerb, type Step, type StepAction } from './types.js';

export interface StepContext {
  /** The scenario file's directory: `applyFile` paths are relative to it. */
  readonly baseDir: string;
  readonly readText: (path: string) => Promise<string>;
}

/** kubectl wait's default `--timeout`. */
export const DEFAULT_WAIT_TIMEOUT_MS = 30_000;
/** How far virtual time moves between two looks at a waited-for condition. */
export const DEFAULT_WAIT_INTERVAL_MS = 1000;
export const DEFAULT_DRAIN_TIMEOUT_MS = 5 * 60_000;

const ACTIONS = [
  'apply',
  'applyFile',
  'wait',
  'expect',
  'fault',
  'advance',
  'patch',
  'scale',
  'delete',
  'cordon',
  'uncordon',
  'drain',
  'random-faults',
] as const;

/** The step, or undefined when a problem was recorded. */
export async function normalizeStep(
  f: Fields,
  index: number,
  ctx: StepContext,
): Promise<Step | undefined> {
  const key = ACTIONS.find((k) => f.has(k));
  if (key === undefined) return undefined;
  const before = f.problems.length;
  const action = await NORMALIZERS[key](f, ctx);
  if (action === undefined || f.problems.length > before) return undefined;
  return { index, name: f.optString('name'), title: titleOf(action, f.string('advance')), action };
}

type Normalizer = (
  f: Fields,
  ctx: StepContext,
) => StepAction | undefined | Promise<StepAction | undefined>;

/** The object under an action's key, given to `fn` (the schema says it is a mapping). */
function under(key: string, fn: (f: Fields) => StepAction | undefined): Normalizer {
  return (f) => {
    const sub = f.optObject(key);
    return sub && fn(sub);
  };
}

const NORMALIZERS: Readonly<Record<(typeof ACTIONS)[number], Normalizer>> = {
  apply: (f) => ({
    action: 'apply',
    objects: decodeManifests(f, 'apply', f.string('apply')),
    source: 'inline',
  }),
  applyFile: readApplyFile,
  wait: under('wait', (w) => {
    const check = parseCheck(w);
    const timeoutMs = w.duration('timeout', DEFAULT_WAIT_TIMEOUT_MS);
    const intervalMs = w.duration('interval', DEFAULT_WAIT_INTERVAL_MS);
    return check && { action: 'wait', check, timeoutMs, intervalMs };
  }),
  expect: under('expect', (e) => {
    for (const k of ['timeout', 'interval']) {
      if (e.has(k)) e.problem(k, 'applies to wait only (an expect looks once)');
    }
    const check = parseCheck(e);
    return check && { action: 'expect', check };
  }),
  fault: under('fault', parseFault),
  advance: (f) => ({ action: 'advance', durationMs: f.duration('advance', 0) }),
  patch: under('patch', (p) => {
    const type = p.optString('type');
    const subresource = p.optString('subresource');
    return {
      action: 'patch',
      target: namedTarget(p),
      patchType: type === 'json' || type === 'strategic' ? type : 'merge',
      patch: p.value('patch'),
      subresource: subresource === 'status' || subresource === 'scale' ? subresource : undefined,
    };
  }),
  scale: under('scale', (s) => ({
    action: 'scale',
    target: namedTarget(s),
    replicas: s.optNumber('replicas') ?? 0,
  })),
  delete: under('delete', (d) => {
    const policy = d.optString('propagationPolicy');
    return {
      action: 'delete',
      target: target(d),
      // kubectl delete --force without --grace-period deletes at once.
      gracePeriodSeconds:
        d.optNumber('gracePeriodSeconds') ?? (d.optBoolean('force') ? 0 : undefined),
      propagationPolicy:
        policy === 'Orphan' || policy === 'Background' || policy === 'Foreground'
          ? policy
          : undefined,
    };
  }),
  cordon: (f) => ({ action: 'cordon', node: f.string('cordon') }),
  uncordon: (f) => ({ action: 'uncordon', node: f.string('uncordon') }),
  drain: under('drain', (d) => ({
    action: 'drain',
    node: d.string('node'),
    timeoutMs: d.duration('timeout', DEFAULT_DRAIN_TIMEOUT_MS),
    outcome: d.optString('outcome') === 'blocked' ? 'blocked' : 'drained',
  })),
  'random-faults': under('random-faults', parseRandomFaults),
};

async function readApplyFile(f: Fields, ctx: StepContext): Promise<StepAction | undefined> {
  const path = f.string('applyFile');
  let text: string;
  try {
    text = await ctx.readText(resolve(ctx.baseDir, path));
  } catch (err) {
    const code = err instanceof Error && 'code' in err ? err.code : undefined;
    const why = code === 'ENOENT' ? 'no such file' : err instanceof Error ? err.message : err;
    f.problem('applyFile', `cannot read ${path}: ${why}`);
    return undefined;
  }
  return { action: 'apply', objects: decodeManifests(f, 'applyFile', text), source: path };
}

function parseFault(f: Fields): StepAction | undefined {
  const verb = FAULT_VERBS.find((v) => f.has(v));
  if (verb === undefined) return undefined;
  return {
    action: 'fault',
    verb,
    target: f.string(verb),
    namespace: f.optString('namespace') ?? 'default',
    exitCode: f.optNumber('exitCode'),
  };
}

function parseRandomFaults(f: Fields): StepAction | undefined {
  const durationMs = f.duration('duration', 0);
  const everyMs = f.duration('every', 1);
  if (everyMs > durationMs) f.problem('every', 'is longer than duration');
  const faults = (f.optStrings('faults') ?? []).filter((v): v is FaultVerb =>
    FAULT_VERBS.some((known) => known === v),
  );
  return {
    action: 'random-faults',
    plan: {
      durationMs,
      everyMs,
      faults,
      seed: f.optNumber('seed') ?? 1,
      namespace: f.optString('namespace'),
      selector: f.selector('selector'),
      maxNodesDown: f.optNumber('maxNodesDown'),
    },
  };
}

/** Decodes multi-document YAML manifests; problems are recorded at `key`. */
function decodeManifests(f: Fields, key: string, text: string): KubeObject[] {
  const out: KubeObject[] = [];
  for (const [i, doc] of parseAllDocuments(text).entries()) {
    const where = `document ${i + 1}`;
    if (doc.errors.length > 0) {
      f.problem(key, `${where}: invalid YAML: ${doc.errors[0]?.message.split('\n')[0]}`);
      continue;
    }
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) continue;
    const items: unknown[] =
      isJsonObject(value) && value.kind === 'List' && Array.isArray(value.items)
        ? value.items
        : [value];
    for (const item of items) {
      const problem = manifestProblem(item);
      if (problem !== undefined) f.problem(key, `${where}: ${problem}`);
      else if (isJsonObject(item)) out.push(item);
    }
  }
  if (out.length === 0 && f.problems.length === 0) f.problem(key, 'holds no objects');
  return out;
}

function manifestProblem(item: unknown): string | undefined {
  if (!isJsonObject(item)) return 'not a mapping';
  if (typeof item.apiVersion !== 'string') return 'apiVersion is missing';
  if (typeof item.kind !== 'string') return 'kind is missing';
  const meta = item.metadata;
  if (!isJsonObject(meta) || typeof meta.name !== 'string') {
    return `${item.kind}: metadata.name is missing`;
  }
  return undefined;
}
