/**
 * `kubectl api-resources` on `fleetyard up` lists what a default v1.33 kube-apiserver lists:
 * the fixture (`testdata/api-resources-v1.33.txt`) is that output, row for row (name, short
 * names, preferred group version, scope, kind). fleetyard's own groups (`*.fleetyard.dev`,
 * the celld CRDs) and `metrics.k8s.io` (what a cluster running metrics-server adds) may come
 * on top. Nothing is missing: the authentication, authorization and admission groups are served
 * since issue 18.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { clusterForFile, describeKubectl } from './testing/kubectl-fixtures.js';

const FIXTURE = join(import.meta.dirname, 'testdata', 'api-resources-v1.33.txt');

/** Groups fleetyard may serve beyond a default kube-apiserver. */
function allowedExtra(group: string): boolean {
  return (
    group === 'fleetyard.dev' || group.endsWith('.fleetyard.dev') || group === 'metrics.k8s.io'
  );
}

interface Row {
  readonly name: string;
  readonly shortNames: string;
  readonly apiVersion: string;
  readonly namespaced: string;
  readonly kind: string;
}

const groupOf = (r: Row): string => (r.apiVersion.includes('/') ? r.apiVersion.split('/')[0]! : '');
const key = (r: Row): string => `${r.apiVersion} ${r.name}`;
const show = (r: Row): string =>
  `${r.name} [${r.shortNames}] ${r.apiVersion} namespaced=${r.namespaced} ${r.kind}`;

/** Parses kubectl's table by its header's column starts (SHORTNAMES is often blank). */
function parseApiResources(text: string): Row[] {
  const [header = '', ...lines] = text.split('\n').filter((l) => l.trim() !== '');
  const columns = ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND'];
  const starts = columns.map((c) => header.indexOf(c));
  assert.ok(
    starts.every((s, i) => s >= 0 && (i === 0 || s > starts[i - 1]!)),
    `unexpected header: ${header}`,
  );
  const cell = (line: string, i: number): string =>
    line.slice(starts[i], i + 1 < starts.length ? starts[i + 1] : undefined).trim();
  return lines.map((line) => ({
    name: cell(line, 0),
    shortNames: cell(line, 1),
    apiVersion: cell(line, 2),
    namespaced: cell(line, 3),
    kind: cell(line, 4),
  }));
}

const current = clusterForFile();

describeKubectl('1.33', current, (s) => {
  it('lists every resource a default v1.33 kube-apiserver lists, with its names and scope', async () => {
    const expected = parseApiResources(readFileSync(FIXTURE, 'utf8'));
    const actual = parseApiResources(await s.k().ok(['api-resources']));
    const actualByKey = new Map(actual.map((r) => [key(r), r]));
    const expectedKeys = new Set(expected.map(key));

    const missing: Row[] = [];
    const different: string[] = [];
    for (const want of expected) {
      const got = actualByKey.get(key(want));
      if (got === undefined) {
        missing.push(want);
      } else if (show(got) !== show(want)) {
        different.push(`${show(got)}\n    expected ${show(want)}`);
      }
    }
    const extra = actual.filter((r) => !expectedKeys.has(key(r)) && !allowedExtra(groupOf(r)));

    assert.deepEqual(
      { missing: missing.map(show), different, extra: extra.map(show) },
      { missing: [], different: [], extra: [] },
    );
  });
});
