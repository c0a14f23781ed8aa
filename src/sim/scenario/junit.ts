/**
 * JUnit XML for CI: one `<testsuite>` per scenario file, one `<testcase>` per step and one
 * per invariant, `<failure>` for a failed step or a violated invariant (its message, and the
 * event history as the body), `<skipped>` for steps after a failure, `<error>` when the file
 * did not parse or the cluster did not start. The layout is the one Jenkins, GitLab and the
 * GitHub test reporters read (the Ant JUnit schema's attributes).
 *
 * Escaping: `& < > " '` become entities, and so do tab, newline and carriage return inside
 * attributes (an XML parser would otherwise normalize them to spaces); characters XML 1.0
 * cannot carry at all (most C0 controls, lone surrogates, U+FFFE/U+FFFF) become U+FFFD.
 *
 * @module
 */
import { formatDuration } from './format.js';
import type { InvariantResult, ScenarioResult, StepResult } from './results.js';
import { historyLines } from './timeline.js';

/** Characters XML 1.0 allows (`Char` production), as a negated class of the rest. */
const INVALID_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const TEXT_ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

const ATTRIBUTE_ENTITIES: Readonly<Record<string, string>> = {
  ...TEXT_ENTITIES,
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** Replaces what XML 1.0 cannot carry with U+FFFD. */
export function xmlSafe(text: string): string {
  return text.replace(INVALID_XML, '\uFFFD');
}

/** Escapes element text. */
export function escapeXmlText(text: string): string {
  return xmlSafe(text).replace(/[&<>"']/g, (c) => TEXT_ENTITIES[c] ?? c);
}

/** Escapes an attribute value (quoted with `"`). */
export function escapeXmlAttribute(text: string): string {
  return xmlSafe(text).replace(/[&<>"'\t\n\r]/g, (c) => ATTRIBUTE_ENTITIES[c] ?? c);
}

function attrs(values: Readonly<Record<string, string | number | undefined>>): string {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeXmlAttribute(String(v))}"`)
    .join('');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

interface Case {
  readonly name: string;
  readonly wallMs: number;
  readonly outcome?: {
    readonly tag: 'failure' | 'error' | 'skipped';
    readonly type?: string;
    readonly message: string;
    readonly body?: string;
  };
}

function casesOf(r: ScenarioResult): Case[] {
  const cases: Case[] = [];
  if (r.error !== undefined) {
    const body = r.error.message;
    cases.push({
      name: r.error.phase === 'parse' ? 'parse scenario' : `cluster (${r.error.phase})`,
      wallMs: 0,
      outcome: { tag: 'error', type: r.error.phase, message: firstLine(body), body },
    });
  }
  cases.push(
    ...r.steps.map(stepCase),
    ...r.invariants.map((inv) => invariantCase(inv, r.startTime)),
  );
  return cases;
}

function stepCase(s: StepResult): Case {
  const name = `step ${s.step.index}${s.step.name ? ` ${s.step.name}` : ''}: ${s.step.title}`;
  const message = s.message ?? '';
  if (s.status === 'failed') {
    const outcome = {
      tag: 'failure',
      type: 'StepFailed',
      message: firstLine(message),
      body: message,
    } as const;
    return { name, wallMs: s.wallMs, outcome };
  }
  if (s.status === 'skipped')
    return { name, wallMs: s.wallMs, outcome: { tag: 'skipped', message } };
  return { name, wallMs: s.wallMs };
}

function invariantCase(inv: InvariantResult, startTime: number): Case {
  const name = `invariant: ${inv.invariant.name}`;
  const v = inv.violation;
  if (inv.status === 'failed' && v) {
    const history = inv.history ? historyLines(inv.history, startTime, v) : [];
    const body = [inv.invariant.text, v.message, ...history].join('\n');
    return {
      name,
      wallMs: 0,
      outcome: { tag: 'failure', type: 'InvariantViolated', message: v.message, body },
    };
  }
  if (inv.status === 'skipped')
    return { name, wallMs: 0, outcome: { tag: 'skipped', message: 'not reached' } };
  return { name, wallMs: 0 };
}

function testcase(suite: string, c: Case): string {
  const open = `    <testcase${attrs({ classname: suite, name: c.name, time: seconds(c.wallMs) })}`;
  const o = c.outcome;
  if (o === undefined) return `${open}/>`;
  const head = `<${o.tag}${attrs({ message: o.message, type: o.type })}`;
  const inner = o.body === undefined ? `${head}/>` : `${head}>${escapeXmlText(o.body)}</${o.tag}>`;
  return `${open}>\n      ${inner}\n    </testcase>`;
}

/** The JUnit XML document for the results of one `scenario run`. */
export function junitXml(results: readonly ScenarioResult[]): string {
  const count = (cs: readonly Case[], tag: string): number =>
    cs.filter((c) => c.outcome?.tag === tag).length;
  const suites = results.map((r) => ({ r, cases: casesOf(r) }));
  const all = suites.flatMap((s) => s.cases);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({
      name: 'fleetyard scenarios',
      tests: all.length,
      failures: count(all, 'failure'),
      errors: count(all, 'error'),
      skipped: count(all, 'skipped'),
      time: seconds(results.reduce((n, r) => n + r.wallMs, 0)),
    })}>`,
  ];
  for (const { r, cases } of suites) {
    lines.push(
      `  <testsuite${attrs({
        name: r.name,
        tests: cases.length,
        failures: count(cases, 'failure'),
        errors: count(cases, 'error'),
        skipped: count(cases, 'skipped'),
        time: seconds(r.wallMs),
        file: r.file,
      })}>`,
      `    <properties><property${attrs({ name: 'virtual-time', value: formatDuration(r.virtualMs) })}/></properties>`,
      ...cases.map((c) => testcase(r.name, c)),
      '  </testsuite>',
    );
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}
