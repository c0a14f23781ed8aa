/**
 * Reads a scenario file: YAML (the `yaml` package, unique keys), then the JSON Schema in
 * `scenario.schema.json`, then what a schema cannot say (durations, CEL, JSONPath, label
 * selectors, manifests, step names an invariant refers to). Every problem is reported at
 * once, each with its place in the file and in the scenario:
 *
 *     node-loss.yaml:14:16: step 3 (wait) wait.timeout: must be a Go duration such as 30s, 5m or 1h30m, got "5 minutes"
 *
 * Steps count from 1, as the timeline does.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { type Document, isMap, isNode, isScalar, LineCounter, parseDocument } from 'yaml';
import { CelCompileError, compileCel } from './cel.js';
import {
  type JsonPath,
  type JsonSchema,
  type SchemaError,
  validateJsonSchema,
} from './json-schema.js';
import { parseCount } from './parse-checks.js';
import { normalizeStep, type StepContext } from './parse-steps.js';
import { Fields } from './parse-support.js';
import schemaJson from './scenario.schema.json' with { type: 'json' };
import type { ClusterSpec, Invariant, KindRef, Scenario, Step } from './types.js';

/** The scenario format's JSON Schema (also shipped as `scenario.schema.json`). */
export const SCENARIO_SCHEMA: JsonSchema = schemaJson;

/** One problem, placed. */
export interface ScenarioProblem {
  readonly path: JsonPath;
  readonly message: string;
  /** 1-based line and column in the file, when known. */
  readonly line?: number;
  readonly col?: number;
}

export class ScenarioParseError extends Error {
  readonly file: string;
  readonly problems: readonly ScenarioProblem[];
  constructor(file: string, problems: readonly ScenarioProblem[], lines: readonly string[]) {
    super(lines.join('\n'));
    this.name = 'ScenarioParseError';
    this.file = file;
    this.problems = problems;
  }
}

export interface ParseOptions {
  /** The file name in messages and the base of `applyFile` paths. */
  readonly file: string;
  /** Reads an `applyFile` (tests pass a map). @default fs.readFile */
  readonly readText?: (path: string) => Promise<string>;
}

/** Reads and parses a scenario file; rejects with {@link ScenarioParseError}. */
export async function readScenarioFile(file: string): Promise<Scenario> {
  return parseScenario(await readFile(file, 'utf8'), { file });
}

/** Parses scenario text; rejects with {@link ScenarioParseError} listing every problem. */
export async function parseScenario(text: string, options: ParseOptions): Promise<Scenario> {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: true });
  const fail = (unsorted: ScenarioProblem[]): never => {
    const problems = unsorted.toSorted(
      (a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0),
    );
    const lines = problems.map((p) => formatProblem(options.file, p, doc.toJS()));
    throw new ScenarioParseError(options.file, problems, lines);
  };
  if (doc.errors.length > 0) {
    fail(
      doc.errors.map((e) => ({
        path: [],
        message: `invalid YAML: ${e.message.split(' at line ')[0]}`,
        line: e.linePos?.[0].line,
        col: e.linePos?.[0].col,
      })),
    );
  }
  const value: unknown = doc.toJS();
  const schemaErrors = validateJsonSchema(SCENARIO_SCHEMA, value);
  if (schemaErrors.length > 0) fail(schemaErrors.map((e) => place(doc, counter, e)));
  const problems: SchemaError[] = [];
  const scenario = await normalize(new Fields(value, [], problems), options);
  if (problems.length > 0) fail(problems.map((e) => place(doc, counter, e)));
  return scenario;
}

async function normalize(root: Fields, options: ParseOptions): Promise<Scenario> {
  const readText = options.readText ?? ((p: string) => readFile(p, 'utf8'));
  const stepFields = root.list('steps');
  const stepNames = new Set<string>();
  for (const s of stepFields) {
    const name = s.optString('name');
    if (name === undefined) continue;
    if (stepNames.has(name)) s.problem('name', `another step is named "${name}"`);
    stepNames.add(name);
  }
  const ctx: StepContext = { baseDir: dirname(resolve(options.file)), readText };
  const steps: Step[] = [];
  for (const [i, s] of stepFields.entries()) {
    const step = await normalizeStep(s, i + 1, ctx);
    if (step !== undefined) steps.push(step);
  }
  return {
    name: root.string('name'),
    description: root.optString('description'),
    file: options.file,
    cluster: normalizeCluster(root.optObject('cluster')),
    watch: root.list('watch').map(kindRef),
    invariants: normalizeInvariants(root.list('invariants'), stepNames),
    steps,
  };
}

function normalizeCluster(c: Fields | undefined): ClusterSpec {
  if (c === undefined) return {};
  const start = c.optString('start');
  if (start !== undefined && Number.isNaN(Date.parse(start))) {
    c.problem('start', `not a valid time: "${start}"`);
  }
  return {
    nodes: c.optNumber('nodes'),
    zones: c.optStrings('zones'),
    seed: c.optNumber('seed'),
    start,
    flags: c.optStrings('flags'),
    controllers: c.optString('controllers'),
  };
}

function kindRef(f: Fields): KindRef {
  return { kind: f.string('kind'), apiVersion: f.optString('apiVersion') };
}

function normalizeInvariants(list: readonly Fields[], stepNames: ReadonlySet<string>): Invariant[] {
  const names = new Set<string>();
  const out: Invariant[] = [];
  for (const f of list) {
    const name = f.string('name');
    if (names.has(name)) f.problem('name', `another invariant is named "${name}"`);
    names.add(name);
    const after = f.optString('after');
    if (after !== undefined && !stepNames.has(after)) {
      f.problem('after', `no step is named "${after}"`);
    }
    const target = {
      ...kindRef(f),
      namespace: f.optString('namespace'),
      selector: f.selector('selector'),
    };
    const cel = f.optString('cel');
    const countFields = f.optObject('count');
    let rule: Invariant['rule'] | undefined;
    if (cel !== undefined) {
      try {
        rule = { form: 'cel', cel: compileCel(cel, 'invariant') };
      } catch (err) {
        if (!(err instanceof CelCompileError)) throw err;
        f.problem('cel', `invalid CEL: ${err.message}`);
      }
    } else if (countFields !== undefined) {
      const count = parseCount(countFields);
      rule = { form: 'count', count };
    }
    if (rule === undefined) continue;
    const text = cel ?? `count ${countText(countFields)}`;
    out.push({ name, target, rule, text, after });
  }
  return out;
}

/** `{max: 1}` as written, for messages. */
function countText(f: Fields | undefined): string {
  return JSON.stringify(f?.raw ?? {})
    .replaceAll('"', '')
    .replaceAll(':', ': ')
    .replaceAll(',', ', ');
}

/**
 * Adds the file position of the deepest node on `error.path` that exists: the key of a
 * mapping entry (where an editor should put the cursor for `wait.tmeout`), else the value.
 */
function place(doc: Document, counter: LineCounter, error: SchemaError): ScenarioProblem {
  for (let n = error.path.length; n >= 0; n--) {
    const last = error.path[n - 1];
    const parent =
      n === 0 ? undefined : n === 1 ? doc.contents : doc.getIn(error.path.slice(0, n - 1), true);
    const pair =
      isMap(parent) && typeof last === 'string'
        ? parent.items.find((p) => isScalar(p.key) && p.key.value === last)
        : undefined;
    const node = isNode(pair?.key)
      ? pair.key
      : n === 0
        ? doc.contents
        : doc.getIn(error.path.slice(0, n), true);
    if (isNode(node) && node.range) {
      const pos = counter.linePos(node.range[0]);
      return { ...error, line: pos.line, col: pos.col };
    }
  }
  return error;
}

/** `file:line:col: step 3 (wait) wait.timeout: message`. */
export function formatProblem(file: string, p: ScenarioProblem, value: unknown): string {
  const where = p.line === undefined ? file : `${file}:${p.line}:${p.col ?? 1}`;
  return `${where}: ${describePath(p.path, value)}${p.message}`;
}

function describePath(path: JsonPath, value: unknown): string {
  const [top, index, ...rest] = path;
  const field = (parts: readonly (string | number)[]): string =>
    parts.reduce<string>(
      (s, p) => (typeof p === 'number' ? `${s}[${p}]` : s === '' ? p : `${s}.${p}`),
      '',
    );
  if ((top === 'steps' || top === 'invariants') && typeof index === 'number') {
    const item = itemAt(value, top, index);
    const label =
      top === 'steps'
        ? `step ${index + 1}${actionOf(item) ? ` (${actionOf(item)})` : ''}`
        : `invariant ${index + 1}${typeof item?.name === 'string' ? ` "${item.name}"` : ''}`;
    return rest.length === 0 ? `${label}: ` : `${label} ${field(rest)}: `;
  }
  return path.length === 0 ? '' : `${field(path)}: `;
}

function itemAt(value: unknown, key: string, index: number): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const list: unknown = Reflect.get(value, key);
  const item: unknown = Array.isArray(list) ? list[index] : undefined;
  return typeof item === 'object' && item !== null && !Array.isArray(item)
    ? Object.fromEntries(Object.entries(item))
    : undefined;
}

function actionOf(step: Record<string, unknown> | undefined): string | undefined {
  return step === undefined ? undefined : Object.keys(step).find((k) => k !== 'name');
}
