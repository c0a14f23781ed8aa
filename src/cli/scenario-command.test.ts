import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fakeStartCluster } from '../sim/scenario/testing/fake-cluster.js';
import { runScenarioCommand, SCENARIO_USAGE } from './scenario-command.js';
import { FakeTerminal } from './terminal/fake-terminal.js';

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'scenario-cli-'));
  await writeFile(
    join(dir, 'pass.yaml'),
    `name: pass
invariants:
  - {name: three nodes, kind: Node, count: {equals: 3}}
steps:
  - apply: |
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: settings}
      data: {mode: fast}
  - expect: {kind: ConfigMap, name: settings, jsonpath: '{.data.mode}', equals: fast}
  - advance: 1m
`,
  );
  await writeFile(
    join(dir, 'fail.yaml'),
    `name: fail
invariants:
  - {name: never a node down, kind: Node, cel: "objects.all(n, !has(n.metadata.annotations) || n.metadata.annotations['sim.fleetyard.dev/state'] != 'down')"}
steps:
  - advance: 10s
  - fault: {node-down: fleetyard-node-2}
  - advance: 10s
`,
  );
  await writeFile(join(dir, 'bad.yaml'), 'name: bad\nsteps:\n  - advance: soon\n');
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Ran {
  code: number;
  out: string;
  err: string;
}

async function cli(...argv: string[]): Promise<Ran> {
  let out = '';
  let err = '';
  const code = await runScenarioCommand(argv, {
    stdout: (s) => {
      out += s;
    },
    stderr: (s) => {
      err += s;
    },
    startCluster: fakeStartCluster(),
  });
  return { code, out, err };
}

describe('fleetyard scenario: command line', () => {
  const usage: [string[], number, RegExp][] = [
    [[], 2, /^Usage: fleetyard scenario/],
    [['--help'], 0, /^Usage: fleetyard scenario/],
    [['frobnicate'], 2, /error: unknown command "frobnicate"/],
    [['run'], 2, /error: no scenario files given/],
    [['validate'], 2, /error: no scenario files given/],
    [
      ['run', '--events', 'some', 'x.yaml'],
      2,
      /error: --events must be all, changes or none, not some/,
    ],
    [['run', '--history', '0', 'x.yaml'], 2, /error: --history must be a positive integer/],
    [['run', '--bogus', 'x.yaml'], 2, /error: Unknown option '--bogus'/],
  ];
  for (const [argv, code, text] of usage) {
    test(`${argv.join(' ') || '(nothing)'} → ${code}`, async () => {
      const r = await cli(...argv);
      assert.equal(r.code, code);
      assert.match(r.out + r.err, text);
    });
  }

  test('schema prints the JSON Schema', async () => {
    const r = await cli('schema');
    assert.equal(r.code, 0);
    const schema: unknown = JSON.parse(r.out);
    assert.ok(
      typeof schema === 'object' &&
        schema !== null &&
        Reflect.get(schema, 'title') === 'fleetyard scenario',
    );
  });

  test('validate: ok files pass, a bad one names the place and fails', async () => {
    const r = await cli('validate', join(dir, 'pass.yaml'), join(dir, 'bad.yaml'));
    assert.equal(r.code, 1);
    assert.match(r.out, /pass\.yaml: ok \(3 steps, 1 invariants\)/);
    assert.match(
      r.err,
      /bad\.yaml:3:5: step 1 \(advance\) advance: must be a Go duration such as 30s, 5m or 1h30m, got "soon"/,
    );
  });
});

describe('fleetyard scenario run', () => {
  test('runs every file in turn; exit 1 when one fails; JUnit and JSON lines written', async () => {
    const junit = join(dir, 'junit.xml');
    const json = join(dir, 'log.jsonl');
    const files = ['pass.yaml', 'fail.yaml', 'bad.yaml', 'missing.yaml'].map((f) => join(dir, f));
    const r = await cli('run', '--junit', junit, '--json', json, ...files);
    assert.equal(r.code, 1);
    assert.match(r.out, /--- PASS pass: 3\/3 steps/);
    assert.match(r.out, /VIOLATED invariant "never a node down"/);
    assert.match(r.out, /--- FAIL fail: 2\/3 steps/);
    assert.match(r.out, /bad\.yaml:3:5: step 1 \(advance\)/);
    assert.match(r.out, /missing\.yaml: no such file/);
    assert.match(r.out, /1 of 4 scenarios passed; failed: /);

    const xml = await readFile(junit, 'utf8');
    assert.equal((xml.match(/<testsuite /g) ?? []).length, 4);
    assert.match(
      xml,
      /<testsuites name="fleetyard scenarios" tests="10" failures="1" errors="2" skipped="1"/,
    );
    assert.match(
      xml,
      /<testcase classname="fail" name="invariant: never a node down" time="0\.000">\n\s+<failure message="objects\.all\(/,
    );

    const records = (await readFile(json, 'utf8'))
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as { scenario: string; record: string; type?: string; elapsedMs: number },
      );
    const kinds = new Set(records.map((x) => x.record));
    for (const k of [
      'scenario-start',
      'sync',
      'step-start',
      'step-end',
      'note',
      'event',
      'violation',
      'scenario-end',
    ]) {
      assert.ok(kinds.has(k), `a ${k} record`);
    }
    const violation = records.find((x) => x.record === 'violation');
    assert.equal(violation?.scenario, 'fail');
    assert.equal(violation?.elapsedMs, 10_000);
  });

  test('exit 0 when everything holds', async () => {
    const r = await cli('run', '--events', 'none', join(dir, 'pass.yaml'));
    assert.equal(r.code, 0, r.out);
    assert.doesNotMatch(r.out, /ADDED|MODIFIED/);
  });

  test('the usage text names every option', () => {
    for (const option of ['--junit', '--json', '--events', '--history', '--log-level']) {
      assert.ok(SCENARIO_USAGE.includes(option), option);
    }
  });
});

describe('fleetyard scenario run: the progress line', () => {
  /** `run` with stdout and stderr on one terminal; each screen the writes left, in order. */
  async function onTerminal(...argv: string[]): Promise<{ out: string; screens: string[][] }> {
    const term = new FakeTerminal(120);
    const screens: string[][] = [];
    const terminal = {
      isTTY: true,
      columns: term.columns,
      write: (s: string) => {
        term.write(s);
        screens.push(term.screen());
      },
    };
    let out = '';
    await runScenarioCommand(argv, {
      stdout: (s) => {
        out += s;
        terminal.write(s);
      },
      stderr: (s) => terminal.write(s),
      startCluster: fakeStartCluster(),
      terminal,
    });
    return { out, screens };
  }

  test('on a terminal: shown while it runs, erased at the end; stdout unchanged', async () => {
    const files = [join(dir, 'pass.yaml'), join(dir, 'fail.yaml')];
    const plain = await cli('run', ...files);
    const { out, screens } = await onTerminal('run', ...files);
    // The wall time each run took is the only difference.
    const wall = (text: string): string => text.replace(/ in \d+(\.\d+)?m?s$/gm, ' in <wall>');
    assert.equal(wall(out), wall(plain.out));
    const last = (screen: string[]): string => screen.at(-1) ?? '';
    assert.ok(screens.some((s) => /^scenario 1\/2 pass ▕/.test(last(s))));
    assert.ok(screens.some((s) => /^scenario 2\/2 fail ▕.*\b1 violation$/.test(last(s))));
    // What stays is exactly the timeline, as a person reads it.
    assert.deepEqual(
      screens.at(-1),
      out
        .trimEnd()
        .split('\n')
        .map((l) => l.trimEnd()),
    );
  });

  test('not a terminal: not a byte of it', async () => {
    const written: string[] = [];
    const pipe = { isTTY: false, write: (s: string) => void written.push(s) };
    const code = await runScenarioCommand(['run', join(dir, 'pass.yaml')], {
      stdout: () => undefined,
      stderr: (s) => void written.push(s),
      startCluster: fakeStartCluster(),
      terminal: pipe,
    });
    assert.equal(code, 0);
    assert.deepEqual(written, []);
  });
});
