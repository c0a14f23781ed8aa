/**
 * `up`'s ready output: the lines programs parse stay exactly as they were (plus the
 * dashboard's), and the banner for a person says the same facts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stripVTControlCharacters } from 'node:util';
import { type ClusterSummary, readyLines, shellWord, summary, upBanner } from './banner.js';

const FACTS = { url: 'https://127.0.0.1:6443', kubeconfigPath: '/srv/fy/kubeconfig' };
const DASHBOARD = {
  url: 'https://127.0.0.1:6443/ui/',
  login: 'https://127.0.0.1:6443/ui/login?code=abc123',
};
const THREE: ClusterSummary = { nodes: 3, zones: 3, clock: 'real' };

describe('readyLines (stdout is not a terminal)', () => {
  it('the ready line and the export line, as always', () => {
    assert.equal(
      readyLines(FACTS),
      'fleetyard ready url=https://127.0.0.1:6443 kubeconfig=/srv/fy/kubeconfig\n' +
        '  export KUBECONFIG=/srv/fy/kubeconfig\n',
    );
  });

  it("the dashboard's line right after the ready line", () => {
    assert.deepEqual(readyLines({ ...FACTS, dashboard: DASHBOARD }).split('\n'), [
      'fleetyard ready url=https://127.0.0.1:6443 kubeconfig=/srv/fy/kubeconfig',
      'fleetyard dashboard url=https://127.0.0.1:6443/ui/ login=https://127.0.0.1:6443/ui/login?code=abc123',
      '  export KUBECONFIG=/srv/fy/kubeconfig',
      '',
    ]);
  });
});

describe('upBanner (stdout is a terminal)', () => {
  it('URL, kubeconfig, dashboard link and how to stop, aligned', () => {
    assert.equal(
      upBanner({ ...FACTS, dashboard: DASHBOARD }, THREE, false),
      [
        'fleetyard is up  (3 nodes in 3 zones, clock real)',
        '  API         https://127.0.0.1:6443',
        '  kubeconfig  export KUBECONFIG=/srv/fy/kubeconfig',
        '  dashboard   https://127.0.0.1:6443/ui/login?code=abc123   (one-time link; `fleetyard dashboard` for another)',
        '  stop        Ctrl-C',
        '',
      ].join('\n'),
    );
  });

  it('no dashboard row with the dashboard off', () => {
    const banner = upBanner(FACTS, THREE, false);
    assert.ok(!banner.includes('dashboard'));
    assert.equal(banner.split('\n').length, 5);
  });

  it('colored, it reads the same', () => {
    const facts = { ...FACTS, dashboard: DASHBOARD };
    const colored = upBanner(facts, THREE, true);
    assert.notEqual(colored, upBanner(facts, THREE, false));
    assert.equal(stripVTControlCharacters(colored), upBanner(facts, THREE, false));
  });

  it('a kubeconfig path with a blank or a quote is one shell word', () => {
    const banner = upBanner(
      { ...FACTS, kubeconfigPath: "/home/o'neil/my fy/kubeconfig" },
      THREE,
      false,
    );
    assert.match(banner, /export KUBECONFIG='\/home\/o'\\''neil\/my fy\/kubeconfig'\n/);
  });
});

describe('summary', () => {
  const cases: [ClusterSummary, string][] = [
    [THREE, '3 nodes in 3 zones, clock real'],
    [{ nodes: 1, zones: 3, clock: 'real' }, '1 node, clock real'],
    [{ nodes: 2, zones: 3, clock: 'real' }, '2 nodes in 2 zones, clock real'],
    [{ nodes: 250, zones: 1, clock: 'real' }, '250 nodes, clock real'],
    [{ nodes: 0, zones: 3, clock: 'real' }, 'no simulated nodes, clock real'],
    [{ nodes: 3, zones: 3, clock: 'virtual' }, '3 nodes in 3 zones, clock virtual'],
    [
      { nodes: 3, zones: 3, clock: 'virtual', speed: 0 },
      '3 nodes in 3 zones, clock virtual, paused',
    ],
    [
      { nodes: 3, zones: 3, clock: 'virtual', speed: 10 },
      '3 nodes in 3 zones, clock virtual, speed ×10',
    ],
    [
      { nodes: 3, zones: 3, clock: 'virtual', speed: 'max' },
      '3 nodes in 3 zones, clock virtual, speed max',
    ],
  ];
  for (const [cluster, want] of cases) {
    it(want, () => assert.equal(summary(cluster), want));
  }
});

describe('shellWord', () => {
  const cases: [string, string][] = [
    ['/srv/fy/kubeconfig', '/srv/fy/kubeconfig'],
    ['/a b', "'/a b'"],
    ["/it's", "'/it'\\''s'"],
    ['/$HOME', "'/$HOME'"],
  ];
  for (const [path, want] of cases) it(path, () => assert.equal(shellWord(path), want));
});
