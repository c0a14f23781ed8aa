/**
 * The human timeline on the terminal: each step as it starts, what it did, and the watch
 * events that followed, all stamped with virtual time since the scenario began:
 *
 *     [+00:00:00.000] step 1 apply statefulset/web, service/web
 *     [+00:00:00.000]   ADDED Pod default/web-0: Pending
 *     [+00:15:00.000] step 4 advance 15m
 *
 * then a verdict per file, and for a violated invariant the event history around it.
 * `events: 'changes'` (the default) leaves out MODIFIED events whose one-line summary did not
 * change (heartbeats, resourceVersion-only updates); the JSON log has every event.
 *
 * @module
 */

import { DEFAULT_NODE_COUNT, DEFAULT_ZONES } from '../kubelet/node-config.js';
import { formatDuration, formatElapsed } from './format.js';
import type { ObservedEvent, Violation } from './invariants.js';
import type { RunListener, RunRecord } from './records.js';
import type { ScenarioResult } from './results.js';
import { summarize } from './summary.js';
import type { Scenario } from './types.js';

export type EventDetail = 'all' | 'changes' | 'none';

export class Timeline implements RunListener {
  readonly #out: (line: string) => void;
  readonly #events: EventDetail;
  #t0 = 0;
  readonly #lastSummary = new Map<string, string>();

  constructor(out: (line: string) => void, options: { events?: EventDetail } = {}) {
    this.#out = out;
    this.#events = options.events ?? 'changes';
  }

  record(r: RunRecord): void {
    switch (r.type) {
      case 'scenario-start':
        this.#t0 = r.startTime;
        this.#lastSummary.clear();
        for (const line of headerLines(r.scenario, r.startTime)) this.#out(line);
        return;
      case 'step-start':
        this.#out(
          `${this.#at(r.time)} step ${r.step.index}${r.step.name ? ` "${r.step.name}"` : ''} ${r.step.title}`,
        );
        return;
      case 'note':
        this.#out(`${this.#at(r.time)}   ${r.text}`);
        return;
      case 'step-end': {
        const s = r.result;
        if (s.status === 'failed') this.#out(`${this.#at(r.time)}   FAILED: ${s.message ?? ''}`);
        else if (s.message) this.#out(`${this.#at(r.time)}   ok: ${s.message}`);
        return;
      }
      case 'sync':
        // What is there already is the baseline of "changes", not news.
        for (const o of r.objects)
          this.#lastSummary.set(
            `${r.key} ${o.metadata?.namespace ?? ''}/${o.metadata?.name}`,
            summarize(o),
          );
        return;
      case 'event':
        if (this.#shows(r.event)) this.#out(`${this.#at(r.event.time)}   ${eventLine(r.event)}`);
        return;
      case 'violation':
        this.#out(
          `${this.#at(r.violation.time)}   VIOLATED invariant "${r.violation.invariant.name}": ${r.violation.message}`,
        );
        return;
      case 'scenario-end':
        for (const line of verdictLines(r.result)) this.#out(line);
        return;
    }
  }

  #at(time: number): string {
    return `[${formatElapsed(time - this.#t0)}]`;
  }

  #shows(e: ObservedEvent): boolean {
    if (this.#events === 'none') return false;
    const id = `${e.key} ${e.namespace ?? ''}/${e.name}`;
    const previous = this.#lastSummary.get(id);
    if (e.type === 'DELETED') this.#lastSummary.delete(id);
    else this.#lastSummary.set(id, e.summary);
    return this.#events === 'all' || e.type !== 'MODIFIED' || previous !== e.summary;
  }
}

/** The scenario's name and file, its story, and the cluster it runs on. */
function headerLines(scenario: Scenario, startTime: number): string[] {
  const c = scenario.cluster;
  const story = (scenario.description ?? '')
    .trimEnd()
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => `    ${l}`);
  const flags = c.flags?.length ? `, flags ${c.flags.join(' ')}` : '';
  const zones = (c.zones ?? DEFAULT_ZONES).join(',');
  return [
    `=== scenario ${scenario.name} (${scenario.file})`,
    ...story,
    `    cluster: ${c.nodes ?? DEFAULT_NODE_COUNT} nodes in zones ${zones}, seed ${c.seed ?? 'none'}, start ${new Date(startTime).toISOString()}${flags}`,
  ];
}

/** `MODIFIED Pod default/web-0 rv=123: Running, Ready, on fleetyard-node-1`. */
export function eventLine(e: ObservedEvent): string {
  const ns = e.namespace ? `${e.namespace}/` : '';
  const rv = e.resourceVersion ? ` rv=${e.resourceVersion}` : '';
  return `${e.type} ${e.kind} ${ns}${e.name}${rv}: ${e.summary}`;
}

/** The event history around a violation; `>>` marks the event that violated it. */
export function historyLines(
  history: { readonly before: readonly ObservedEvent[]; readonly after: readonly ObservedEvent[] },
  startTime: number,
  violation?: Violation,
): string[] {
  const line = (e: ObservedEvent): string => {
    const mark = violation?.event?.seq === e.seq ? ' >> ' : '    ';
    return `${mark}[${formatElapsed(e.time - startTime)}] ${eventLine(e)}`;
  };
  const lines = [
    `  event history (last ${history.before.length} event${history.before.length === 1 ? '' : 's'}):`,
    ...history.before.map(line),
  ];
  if (history.before.length === 0) lines.push('    (no events yet)');
  if (history.after.length > 0) lines.push('  then:', ...history.after.map(line));
  return lines;
}

/** The verdict of one scenario: PASS/FAIL, and what failed with its history. */
export function verdictLines(r: ScenarioResult): string[] {
  const lines: string[] = [];
  const passedSteps = r.steps.filter((s) => s.status === 'passed').length;
  const summary = `${passedSteps}/${r.steps.length} steps, ${r.invariants.length} invariants, ${formatDuration(r.virtualMs)} of virtual time in ${formatDuration(Math.round(r.wallMs))}`;
  if (r.error) lines.push(`    ${r.error.phase} failed: ${r.error.message}`);
  for (const s of r.steps) {
    if (s.status === 'failed') {
      lines.push(
        `    step ${s.step.index} ${s.step.title} failed at [${formatElapsed(s.startedAt + s.virtualMs)}]: ${s.message ?? ''}`,
      );
    }
  }
  for (const inv of r.invariants) {
    const v = inv.violation;
    if (inv.status !== 'failed' || v === undefined) continue;
    const during = inv.duringStep === undefined ? '' : ` during step ${inv.duringStep}`;
    lines.push(
      `    invariant "${inv.invariant.name}" violated at [${formatElapsed(v.time - r.startTime)}]${during}`,
      `      rule: ${inv.invariant.text}`,
      `      ${v.message}`,
      ...(v.event ? [`      after: ${eventLine(v.event)}`] : []),
      ...(inv.history ? historyLines(inv.history, r.startTime, v).map((l) => `    ${l}`) : []),
    );
  }
  lines.push(`--- ${r.passed ? 'PASS' : 'FAIL'} ${r.name}: ${summary}`);
  return lines;
}
